"""The site's server (smearsite.server.serve) under cProfile, every thread of it:
``bench/live.py --profile FILE`` runs one server this way. Each thread gets a profiler of
its own (cProfile follows one thread), timed by the thread's CPU clock (time spent waiting
on the database or the GIL is not counted); SIGUSR1 clears them all (the timed window
starts) and SIGUSR2 writes them, merged, to the file named first (it ends):

    python bench/profiled_server.py OUT.prof --host 127.0.0.1 --port 8600
"""

from __future__ import annotations

import cProfile
import marshal
import pstats
import signal
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the site's launcher

_profiles: list[cProfile.Profile] = []
_lock = threading.Lock()


def _profiled(run):
    def profiled_run(self) -> None:
        profile = cProfile.Profile(time.thread_time)
        with _lock:
            _profiles.append(profile)
        profile.enable()
        try:
            run(self)
        finally:
            profile.disable()

    return profiled_run


class _Snapshot:
    """What pstats.Stats takes: one profiler's stats so far, leaving it running."""

    def __init__(self, profile: cProfile.Profile) -> None:
        profile.snapshot_stats()
        self.stats = profile.stats

    def __bool__(self) -> bool:
        return bool(self.stats)

    def create_stats(self) -> None:
        pass


def main() -> None:
    out = sys.argv.pop(1)
    threading.Thread.run = _profiled(threading.Thread.run)
    main_profile = cProfile.Profile(time.thread_time)
    _profiles.append(main_profile)

    def clear(*_) -> None:
        with _lock:
            for profile in _profiles:
                profile.clear()

    def dump(*_) -> None:
        with _lock:
            stats = pstats.Stats(*filter(None, (_Snapshot(p) for p in _profiles)))
        with open(out, "wb") as file:
            marshal.dump(stats.stats, file)

    signal.signal(signal.SIGUSR1, clear)
    signal.signal(signal.SIGUSR2, dump)
    from smearsite.server import serve

    main_profile.enable()
    serve.main()


if __name__ == "__main__":
    main()
