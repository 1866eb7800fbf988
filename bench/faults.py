"""What each fault of issue 53 does to a live table: prints, per fault, how long until
every page showed the database's version, the answers of 500 or more, and the longest the
table stood still; then, over the run, moves lost or stored twice and a stand-in bot's
moves for a guest. The faults and the set-up are in ``tests/faults/harness.py``.

    .venv/bin/python bench/faults.py                   # this checkout
    .venv/bin/python bench/faults.py --cwd /tmp/before # another checkout's servers (before)

Needs redis-server and PostgreSQL (``DATABASE_URL``'s server, else 127.0.0.1:5432).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.faults import harness  # noqa: E402
from tests.servers import REPO  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cwd", type=Path, default=REPO, help="the checkout the servers run")
    parser.add_argument("--faults", help="comma-separated, of " + ", ".join(harness.FAULTS))
    args = parser.parse_args()
    faults = tuple(args.faults.split(",")) if args.faults else None
    with tempfile.TemporaryDirectory() as tmp:
        run = harness.run(Path(tmp), cwd=args.cwd, faults=faults)
    print(f"{'fault':<16} {'caught up':>10} {'5xx':>5} {'stood still':>12}")
    for o in run.outcomes:
        caught = "never" if o.caught_up_s is None else f"{o.caught_up_s:.1f} s"
        print(f"{o.fault:<16} {caught:>10} {o.errors_5xx:>5} {o.still_s:>10.1f} s")
    print(
        f"moves stored {run.moves}, lost {run.lost}, stored twice {run.doubled}, "
        f"stand-in moves for a guest {run.stand_ins}, answers 5xx {run.errors_5xx}, "
        f"longest still {run.still_s:.1f} s, connections per guest {run.connects}"
    )


if __name__ == "__main__":
    main()
