"""CPU time of one table broadcast sent from a thread that serves no event loop (the bots'
timetable, a view): what a bot's move costs its server to announce.

    REDIS_URL=redis://127.0.0.1:6379/8 .venv/bin/python bench/broadcast.py [--sends 300]

Sends to a group nobody is in, through the site's channel layer (Redis Pub/Sub when
REDIS_URL is set), and prints this process's CPU time (every thread) and the wall time
per send.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smearsite.settings")
WARM_UP = 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sends", type=int, default=300)
    args = parser.parse_args()
    import django

    django.setup()
    from channels.layers import get_channel_layer

    from game.live import events

    layer = get_channel_layer()
    message = {"type": events.TABLE_CHANGED, "table": 0, "version": None}
    group = events.table_group(0)  # no table has id 0: nobody listens
    for _ in range(WARM_UP):
        events._broadcast(layer, group, message)
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(args.sends):
        events._broadcast(layer, group, message)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(
        f"{type(layer).__name__}: {args.sends} sends, {cpu / args.sends * 1000:.2f} ms CPU "
        f"and {wall / args.sends * 1000:.2f} ms wall per send; load average "
        f"{os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
