"""The supervisor keeps its command running, stops it on request, and never leaves it
behind: killed outright, or once the process it runs for is gone."""

from __future__ import annotations

import os
import shlex
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


# --- The server keeps the supervisor itself running ------------------------------------


def supervisors_of(pid: int) -> list[int]:
    """The children of ``pid`` that run smearsite.server.supervise."""
    found = []
    for child, _ in child_processes({pid}):
        try:
            command = open(f"/proc/{child}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        if b"smearsite.server.supervise" in command:
            found.append(child)
    return found


def kill_outright(*pids: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_a_server_starts_its_workers_supervisor_again_when_both_are_killed_outright(tmp_path):
    """kill -9 of the supervisor and its worker once left them dead (and a review
    "running") until make run was started again; the server now notices and restarts."""
    from tests.servers import manage, server_env, serving

    env = server_env(
        DJANGO_SETTINGS_MODULE="smearsite.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        REDIS_URL=None,
    )
    manage(["migrate", "--noinput"], env=env)
    launcher = ("-m", "smearsite.server.serve", "--worker", shlex.join(SLEEPER))
    with serving(env=env, log=tmp_path / "server.log", launcher=launcher) as server:
        pid = server.process.pid
        assert until(lambda: len(supervisors_of(pid)) == 1)
        [first] = supervisors_of(pid)
        assert until(lambda: len(children(first)) == 1)
        [worker] = children(first)

        kill_outright(first, worker)

        assert until(lambda: supervisors_of(pid) not in ([], [first]))
        [second] = supervisors_of(pid)
        assert until(lambda: len(children(second)) == 1)
        [new_worker] = children(second)
        assert new_worker != worker and gone(worker)

    # and the server stopped takes both with it
    assert until(lambda: gone(second) and gone(new_worker))


def test_a_keeper_stopped_leaves_no_supervisor_nor_command_behind():
    from smearsite.server.supervise import Keeper

    keeper = Keeper(SLEEPER, log=lambda text: None)
    keeper.start()
    try:
        assert until(lambda: len(supervisors_of(os.getpid())) == 1)
        [supervisor] = supervisors_of(os.getpid())
        assert until(lambda: len(children(supervisor)) == 1)
        [command] = children(supervisor)
    finally:
        keeper.stop()

    assert gone(supervisor) and until(lambda: gone(command))
    assert supervisors_of(os.getpid()) == []


def test_a_supervisor_whose_server_dies_outright_stops_at_once(stop_afterwards):
    # the supervisor's parent is the process it runs for: the kernel tells it at once
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import subprocess, sys, os, time; subprocess.Popen([sys.executable, '-m', "
            "'smearsite.server.supervise', '--while-pid', str(os.getpid()), '--', "
            f"*{SLEEPER!r}]); time.sleep(600)",
        ],
        cwd=REPO,
        stderr=subprocess.DEVNULL,
    )
    stop_afterwards.append(server)
    assert until(lambda: len(supervisors_of(server.pid)) == 1)
    [supervisor] = supervisors_of(server.pid)
    assert until(lambda: len(children(supervisor)) == 1)
    [command] = children(supervisor)

    server.kill()
    server.wait()

    assert until(lambda: gone(supervisor) and gone(command), seconds=5)
