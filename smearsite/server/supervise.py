"""Keep one command running: restarted when it dies, ended with its supervisor, never orphaned.

    python -m smearsite.server.supervise [--while-pid PID] -- COMMAND [ARG ...]

What ``make run``'s server runs its review worker under (``Keeper``, below: the server
keeps the supervisor itself running); a process supervisor such as systemd does the same
in production (docs/deployment.md, "Task queue workers"):

- the command is started again when it exits for any reason (a crash, ``kill -9``, the
  OOM killer), after a pause that doubles from RESTART_PAUSE_S up to MAX_PAUSE_S while it
  keeps dying young, and resets once a run lasted HEALTHY_AFTER_S;
- SIGTERM, SIGINT or SIGHUP to the supervisor stops the command (SIGTERM, then SIGKILL
  after STOP_GRACE_S) and ends the supervisor;
- the command gets SIGTERM from the kernel if the supervisor itself dies, even by
  ``kill -9`` (``PR_SET_PDEATHSIG``; Linux), so it is never left running alone;
- with ``--while-pid``, the supervisor stops the command and ends once that process is
  gone; when that process is its parent, the kernel also sends the supervisor SIGTERM the
  moment its parent dies (a server stopped any way stops its worker).

Nothing outside restarts a supervisor killed outright (``kill -9`` of it and its command
left a review "running" until ``make run`` was started again), so ``Keeper`` runs it from
a thread of the process it works for (the server, ``serve --worker``) and starts it again
whenever it ends while that process runs: a killed supervisor and worker are back within
RESTART_PAUSE_S, and the new worker takes over the reviews whose lease went stale.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time

RESTART_PAUSE_S = 1.0
MAX_PAUSE_S = 30.0
HEALTHY_AFTER_S = 60.0
STOP_GRACE_S = 10.0
WATCH_EVERY_S = 0.5
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """SIGTERM to this process when its parent dies (in the supervisor's child, before it
    runs the command; in a supervisor whose --while-pid is its parent)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: --while-pid and the stop still hold
        pass


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Supervisor:
    def __init__(self, command: list[str], *, while_pid: int | None = None) -> None:
        self.command = command
        self.while_pid = while_pid
        self.child: subprocess.Popen | None = None
        self.stopping = False

    def log(self, text: str) -> None:
        print(f"supervise: {text}", file=sys.stderr, flush=True)

    def stop(self, signum=None, frame=None) -> None:
        self.stopping = True

    def run(self) -> int:
        pause = RESTART_PAUSE_S
        while not self.stopping:
            started = time.monotonic()
            self.child = subprocess.Popen(self.command, preexec_fn=_die_with_parent)
            self.log(f"started {self.child.pid}: {' '.join(self.command)}")
            code = self.wait_for_child()
            if self.stopping:
                break
            ran = time.monotonic() - started
            if ran >= HEALTHY_AFTER_S:
                pause = RESTART_PAUSE_S
            self.log(f"{self.child.pid} ended ({code}) after {ran:.0f} s; again in {pause:g} s")
            self.sleep(pause)
            pause = min(pause * 2, MAX_PAUSE_S)
        self.end_child()
        return 0

    def wait_for_child(self) -> int | None:
        while not self.stopping:
            code = self.child.poll()
            if code is not None:
                return code
            if self.while_pid is not None and not alive(self.while_pid):
                self.log(f"process {self.while_pid} is gone: stopping")
                self.stopping = True
                break
            time.sleep(WATCH_EVERY_S)
        return None

    def sleep(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self.stopping and time.monotonic() < deadline:
            if self.while_pid is not None and not alive(self.while_pid):
                self.stopping = True
            time.sleep(min(WATCH_EVERY_S, seconds))

    def end_child(self) -> None:
        if self.child is None or self.child.poll() is not None:
            return
        self.child.terminate()
        try:
            self.child.wait(timeout=STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            self.child.kill()
            self.child.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run a command, restarting it when it dies.")
    parser.add_argument("--while-pid", type=int, help="stop once this process is gone")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command to supervise")
    supervisor = Supervisor(command, while_pid=args.while_pid)
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, supervisor.stop)
    if args.while_pid is not None and args.while_pid == os.getppid():
        _die_with_parent()
        if not alive(args.while_pid):  # it died before the line above: no signal comes
            return 0
    return supervisor.run()


class Keeper:
    """Keeps a supervisor of ``command`` running from a thread of this process: started
    again (after a pause that doubles while it keeps dying young) whenever it ends while
    this process has not asked it to stop. The supervisor runs for this process
    (``--while-pid``): it ends, with its command, when this process does, even by
    ``kill -9``."""

    def __init__(self, command: list[str], *, log=None) -> None:
        self.command = command
        self.process: subprocess.Popen | None = None
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.run, name="worker-keeper", daemon=True)
        self.log = log or (lambda text: print(f"serve: {text}", file=sys.stderr, flush=True))

    def start(self) -> None:
        self.thread.start()

    def run(self) -> None:
        pause = RESTART_PAUSE_S
        while not self.stopping.is_set():
            started = time.monotonic()
            with self.lock:
                if self.stopping.is_set():
                    break
                # no preexec_fn (unsafe in a process with threads): the supervisor sets
                # its own death signal, its --while-pid being its parent
                self.process = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "smearsite.server.supervise",
                        "--while-pid",
                        str(os.getpid()),
                        "--",
                        *self.command,
                    ]
                )
            code = self.process.wait()
            if self.stopping.is_set():
                break
            ran = time.monotonic() - started
            if ran >= HEALTHY_AFTER_S:
                pause = RESTART_PAUSE_S
            self.log(
                f"the worker's supervisor {self.process.pid} ended ({code}) after {ran:.0f} s; "
                f"again in {pause:g} s"
            )
            self.stopping.wait(pause)
            pause = min(pause * 2, MAX_PAUSE_S)

    def stop(self) -> None:
        """Stop the supervisor (which stops its command) and wait for both."""
        with self.lock:
            self.stopping.set()
            process = self.process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=STOP_GRACE_S + 5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.thread.join(timeout=STOP_GRACE_S + 5)


if __name__ == "__main__":
    sys.exit(main())
