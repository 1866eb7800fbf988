"""What a bot worker process runs first: a lower CPU priority, so that on a busy machine
the servers' answers to people come before the bots' thinking (a bot only thinks until its
move is due, and thinks less when it gets less), and a watch on its parent, so that a
server killed outright (SIGKILL, the OOM killer) takes its workers with it instead of
leaving them running. No Django here: a worker imports only the bots.

``prctl(PR_SET_PDEATHSIG)`` would be quicker, but it fires when the *thread* that started
the worker ends, and a pool starts its workers from whichever thread submits first.
"""

from __future__ import annotations

import os
import threading
import time

WATCH_EVERY_S = 0.5


def start(parent_pid: int, niceness: int) -> None:
    """A pool's ``initializer``: ``niceness`` steps below the server's priority, and an end
    to this process once ``parent_pid`` is gone."""
    os.nice(niceness)
    watch_parent(parent_pid)


def watch_parent(parent_pid: int) -> None:
    threading.Thread(
        target=_exit_when_orphaned, args=(parent_pid,), name="parent-watch", daemon=True
    ).start()


def _exit_when_orphaned(parent_pid: int) -> None:
    # an orphan is adopted by init (or a subreaper): its parent id changes
    while os.getppid() == parent_pid:
        time.sleep(WATCH_EVERY_S)
    os._exit(0)
