"""Bot strength: fair matches between bots, with Wilson 95% intervals.

    python bench/strength.py [--matches 96] [--workers 2] [--budget-ms 250]
                             [--pairings expert,expert-v1 expert,greedy ...]
                             [--cutthroat-matches 48]

Each pairing plays fair 2v2 matches to 11 at four players (the same deals with the
seats swapped); then expert, expert-v1 and greedy play a 3-player cutthroat table with
the seats rotated over the same deals. Every line comes from `manage.py arena --fair`:
wins, points a round, auctions won and the average bid, bids made, decision latency.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def arena(bots: str, players: int, teams: str | None, matches: int, args) -> None:
    command = [
        sys.executable, str(ROOT / "manage.py"), "arena", "--bots", bots,
        "--players", str(players), "--target", str(args.target), "--matches", str(matches),
        "--fair", "--seed", str(args.seed), "--workers", str(args.workers),
        "--budget-ms", str(args.budget_ms),
    ]  # fmt: skip
    if teams:
        command += ["--teams", teams]
    print("$", " ".join(command[1:]), flush=True)
    subprocess.run(command, check=True, cwd=ROOT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=96)
    parser.add_argument("--cutthroat-matches", type=int, default=48)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=11)
    parser.add_argument("--budget-ms", type=float, default=250.0)
    parser.add_argument("--pairings", nargs="+", default=["expert,expert-v1", "expert,greedy"])
    args = parser.parse_args()
    for bots in args.pairings:
        arena(bots, 4, "0,2:1,3", args.matches, args)
    if args.cutthroat_matches:
        arena("expert,expert-v1,greedy", 3, None, args.cutthroat_matches, args)


if __name__ == "__main__":
    main()
