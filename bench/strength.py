"""Bot strength: fair matches between bots, with Wilson 95% intervals.

    python bench/strength.py [--matches 96] [--workers 2] [--budget-ms 250]
                             [--pairings expert,expert-v1 expert,greedy ...]
                             [--cutthroat-matches 48] [--cutthroat-bots expert,expert-v2,greedy]
    python bench/strength.py --rules classic six_handed seven_point [--matches 40]

Each pairing plays fair 2v2 matches to 11 at four players (the same deals with the
seats swapped); then three bots (expert, expert-v1 and greedy unless ``--cutthroat-bots``
names others) play a 3-player cutthroat table, seated in all six orders over the same
deals (a multiple of 6 matches keeps it even). Every line comes from `manage.py arena --fair`:
wins, points a round, auctions won and the average bid, bids made, decision latency.

With ``--rules``, each preset of the Smear family plays instead: the expert against
greedy and against itself at a tenth of its budget (``expert@25`` for 250 ms), fair
matches to 21 between two sides (2 v 2; 3 v 3 at six_handed).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def arena(
    bots: str, players: int, teams: str | None, matches: int, args, rules: str = "house",
    target: int | None = None,
) -> None:  # fmt: skip
    command = [
        sys.executable, str(ROOT / "manage.py"), "arena", "--bots", bots, "--rules", rules,
        "--players", str(players), "--target", str(target or args.target),
        "--matches", str(matches), "--fair", "--seed", str(args.seed),
        "--workers", str(args.workers), "--budget-ms", str(args.budget_ms),
    ]  # fmt: skip
    if teams:
        command += ["--teams", teams]
    print("$", " ".join(command[1:]), flush=True)
    subprocess.run(command, check=True, cwd=ROOT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=96)
    parser.add_argument("--cutthroat-matches", type=int, default=48)
    parser.add_argument("--cutthroat-bots", default="expert,expert-v1,greedy")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=11)
    parser.add_argument("--budget-ms", type=float, default=250.0)
    parser.add_argument("--pairings", nargs="+", default=["expert,expert-v1", "expert,greedy"])
    parser.add_argument(
        "--rules", nargs="+", choices=FAMILY, help="the family's presets instead of the house"
    )
    args = parser.parse_args()
    if args.rules:
        family(args)
        return
    for bots in args.pairings:
        arena(bots, 4, "0,2:1,3", args.matches, args)
    if args.cutthroat_matches:
        arena(args.cutthroat_bots, 3, None, args.cutthroat_matches, args)


FAMILY = ("classic", "six_handed", "seven_point")
FAMILY_TARGET = 21


def family(args) -> None:
    tenth = f"expert@{args.budget_ms / 10:g}"
    for rules in args.rules:
        players, teams = (6, "0,2,4:1,3,5") if rules == "six_handed" else (4, "0,2:1,3")
        for bots in ("expert,greedy", f"expert,{tenth}"):
            arena(bots, players, teams, args.matches, args, rules, FAMILY_TARGET)


if __name__ == "__main__":
    main()
