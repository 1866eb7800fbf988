"""Real ASGI servers for tests and benches: the site's server (``smearsite.server.serve``) in a
child process on a free port.

pytest-django's ``live_server`` speaks WSGI only, so anything that needs websockets, or
two server processes sharing a channel layer, starts one itself::

    env = server_env(DATABASE_URL=..., REDIS_URL=...)
    manage(["migrate", "--noinput"], env=env)
    with serving(env=env, log=tmp_path / "a.log") as server:
        urllib.request.urlopen(server.url + "/healthz")
        ...  # websockets at server.ws_url("/ws/table/CODE/")

A server that exits early or never answers raises with its log in the message, and an
error inside the ``with`` block gets the log attached as a note.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LOG_TAIL_CHARS = 20_000  # enough for a traceback or two, not a whole run's access log


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_env(**overrides: str | None) -> dict[str, str]:
    """This process's environment with ``overrides`` on top; None removes a variable."""
    env = dict(os.environ)
    for name, value in overrides.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def manage(
    args: list[str], *, env: Mapping[str, str], cwd: Path = REPO
) -> subprocess.CompletedProcess:
    """``manage.py <args>`` in a child process with ``env`` (of the site checked out at
    ``cwd``); raises with its output on failure."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=cwd,
        env=dict(env),
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"manage.py {' '.join(args)} exited with {done.returncode}:\n"
            f"{done.stdout}\n{done.stderr}"
        )
    return done


@dataclass
class Server:
    """A running server: where it answers, its process and its log file."""

    url: str  # http://127.0.0.1:<port>
    port: int
    process: subprocess.Popen
    log: Path

    def ws_url(self, path: str) -> str:
        return "ws" + self.url.removeprefix("http") + path

    def log_text(self) -> str:
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return f"(no log at {self.log})"
        return text if len(text) <= LOG_TAIL_CHARS else "...\n" + text[-LOG_TAIL_CHARS:]

    def stop(self, timeout: float = 10) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=timeout)


def start_server(
    *,
    env: Mapping[str, str],
    log: Path,
    settings_module: str | None = None,
    port: int | None = None,
    ready_path: str = "/healthz",
    seconds: float = 60,
    launcher: tuple[str, ...] = ("-m", "smearsite.server.serve"),
    cwd: Path = REPO,
) -> Server:
    """Start the site's server (``smearsite.server.serve``) and wait until ``ready_path``
    answers 200.

    ``settings_module`` sets DJANGO_SETTINGS_MODULE (else ``env``'s own, or the site's).
    ``launcher`` is what Python runs with the server's arguments (a profiling wrapper, say);
    ``cwd`` the checkout of the site it serves (another one: a bench of the code before).
    The server's output goes to ``log``; on failure it is stopped and the log raised.
    """
    env = dict(env)
    if settings_module is not None:
        env["DJANGO_SETTINGS_MODULE"] = settings_module
    port = port or free_port()
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as output:
        process = subprocess.Popen(
            [sys.executable, *launcher, "--host", "127.0.0.1", "--port", str(port)],
            cwd=cwd,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    server = Server(url=f"http://127.0.0.1:{port}", port=port, process=process, log=log)
    try:
        _wait_until_up(server, server.url + ready_path, seconds)
    except BaseException:
        server.stop()
        raise
    return server


def _wait_until_up(server: Server, url: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(
                f"the server exited with {server.process.returncode}:\n{server.log_text()}"
            )
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not answer {url} within {seconds} s:\n{server.log_text()}")


@contextmanager
def serving(**kwargs) -> Iterator[Server]:
    """``start_server(**kwargs)`` for the ``with`` block; stopped after it. An error in the
    block carries the server's log as a note (pytest prints it with the traceback)."""
    server = start_server(**kwargs)
    try:
        yield server
    except BaseException as error:
        error.add_note(f"--- server log ({server.log}) ---\n{server.log_text()}")
        raise
    finally:
        server.stop()


def seat_guests(tokens: list[str], *, target: int = 21, bot_level: str = "greedy"):
    """A 2-against-2 table dealt and in play, in the database of the settings loaded here,
    with a guest in each of the first ``len(tokens)`` seats and ``bot_level`` bots in the
    rest: the table, and each guest's session key (the cookie a client sends)."""
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import transaction

    from game.models import Seat
    from game.players.identity import GUEST_TOKEN, SeatOwner
    from game.services import play

    sessions = []
    for token in tokens:
        session = SessionStore()
        session[GUEST_TOKEN] = token
        session.create()
        sessions.append(session.session_key)
    # made with bots, which give their seats to guests before the table is announced
    with transaction.atomic():
        table = play.table_create_vs_bots(
            owner=SeatOwner(session_key=tokens[0]),
            players=4,
            teams=[[0, 2], [1, 3]],
            bot_levels=[bot_level] * 3,
            target=target,
        )
        for seat in range(1, len(tokens)):
            Seat.objects.filter(table=table, number=seat).update(
                bot_level=None, session_key=tokens[seat], display_name=f"Guest {seat}"
            )
    return table, sessions


def child_processes(parents: set[int]) -> Iterator[tuple[int, list[str]]]:
    """(pid, the fields of /proc/<pid>/stat after its name) of each process whose parent
    is one of ``parents`` and which has not yet been reaped as a zombie."""
    wanted = {str(pid) for pid in parents}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] in wanted and fields[0] != "Z":
            yield int(entry.name), fields
