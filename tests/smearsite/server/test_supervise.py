"""The supervisor keeps its command running, stops it on request, and never leaves it
behind: killed outright, or once the process it runs for is gone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.servers import REPO, child_processes

pytestmark = pytest.mark.slow

SLEEPER = [sys.executable, "-c", "import time; time.sleep(600)"]


def supervise(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "smearsite.server.supervise", *args, "--", *SLEEPER],
        cwd=REPO,
        stderr=subprocess.DEVNULL,
    )


def children(pid: int) -> list[int]:
    return [child for child, _ in child_processes({pid})]


def until(condition, seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def gone(pid: int) -> bool:
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return True
    return fields[0] == "Z"


@pytest.fixture
def stop_afterwards():
    started: list[subprocess.Popen] = []
    yield started
    for process in started:
        for child in children(process.pid):
            os.kill(child, signal.SIGKILL)
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_command_killed_outright_is_started_again(stop_afterwards):
    supervisor = supervise()
    stop_afterwards.append(supervisor)
    assert until(lambda: len(children(supervisor.pid)) == 1)
    [first] = children(supervisor.pid)

    os.kill(first, signal.SIGKILL)

    assert until(lambda: children(supervisor.pid) not in ([], [first]))
    assert supervisor.poll() is None


def test_stopping_the_supervisor_stops_its_command(stop_afterwards):
    supervisor = supervise()
    stop_afterwards.append(supervisor)
    assert until(lambda: len(children(supervisor.pid)) == 1)
    [child] = children(supervisor.pid)

    supervisor.send_signal(signal.SIGTERM)

    assert supervisor.wait(timeout=20) == 0
    assert until(lambda: gone(child))


def test_a_supervisor_killed_outright_takes_its_command_with_it(stop_afterwards):
    supervisor = supervise()
    stop_afterwards.append(supervisor)
    assert until(lambda: len(children(supervisor.pid)) == 1)
    [child] = children(supervisor.pid)

    supervisor.kill()
    supervisor.wait()

    assert until(lambda: gone(child))


def test_the_command_ends_once_the_process_it_runs_for_is_gone(stop_afterwards):
    server = subprocess.Popen(SLEEPER)
    stop_afterwards.append(server)
    supervisor = supervise("--while-pid", str(server.pid))
    stop_afterwards.append(supervisor)
    assert until(lambda: len(children(supervisor.pid)) == 1)
    [child] = children(supervisor.pid)

    server.kill()
    server.wait()

    assert supervisor.wait(timeout=20) == 0
    assert until(lambda: gone(child))
