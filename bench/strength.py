"""Bot strength: fair 2v2 matches, expert against greedy and greedy against random.

    python bench/strength.py [--matches 400] [--workers 2]

Runs `manage.py arena --fair` for each pairing and prints its summary (win rates with
Wilson 95% intervals). 400 expert matches take a while on two cores (tens of minutes).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pairings", nargs="+", default=["expert,greedy", "greedy,random"])
    args = parser.parse_args()
    for bots in args.pairings:
        command = [
            sys.executable, str(ROOT / "manage.py"), "arena", "--bots", bots, "--players", "4",
            "--teams", "0,2:1,3", "--matches", str(args.matches), "--fair", "--seed",
            str(args.seed), "--workers", str(args.workers),
        ]  # fmt: skip
        print("$", " ".join(command[1:]), flush=True)
        subprocess.run(command, check=True, cwd=ROOT)


if __name__ == "__main__":
    main()
