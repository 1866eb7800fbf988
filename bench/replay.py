"""`manage.py replay` against a plain list-based replay of the same file, start-up included.

    python bench/replay.py [--records 2000] [--runs 3]

Writes full 4-player matches as smear-record/1 (bench/engine.py's generator), then times
two commands in fresh processes, best of ``--runs``:

- ``manage.py replay FILE``: the project's command;
- this script's ``--plain FILE``: a straightforward replay with mutable lists (hands,
  trick, captured cards) over the engine's rule functions, printing the same lines.

The two outputs must be identical; the script says so, then prints both times (wall and
the child's CPU, which a busy machine disturbs less) and their ratio.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def plain_replay(path: str) -> int:
    """Replay every record with plain lists; print one result line each (valid records only)."""
    sys.path.insert(0, str(ROOT))
    from game.engine import rules
    from game.engine.cards import SUIT_OF, SUITS, parse_card

    code = rules.action_code
    out = []
    for line in Path(path).read_text().splitlines():
        if not line.strip():
            continue
        data = json.loads(line)
        players = data["players"]
        teams = data["teams"]
        unit_of = [0] * players
        for unit, seats in enumerate(teams):
            for seat in seats:
                unit_of[seat] = unit
        scores = [0] * len(teams)
        rounds, winner = [], None
        for round_data in data["rounds"]:
            dealt = [sum(1 << parse_card(c) for c in hand) for hand in round_data["hands"]]
            hands = list(dealt)
            actions = round_data["actions"]
            legal_log = []
            high, bidder, seat = 0, -1, (round_data["dealer"] + 1) % players
            for index in range(players):
                must_open = index == players - 1 and not high
                legal_log.append(sorted(code(a) for a in rules.legal_bids(high, must_open)))
                action = actions[index]
                if "bid" in action:
                    high, bidder = action["bid"], seat
                seat = (seat + 1) % players
            trump, leader, trick = -1, bidder, []
            captured = [0] * len(teams)
            for action in actions[players:]:
                seat = (leader + len(trick)) % players
                legal = rules.legal_cards(hands[seat], trick[0] if trick else -1, trump)
                legal_log.append(sorted(code(c) for c in range(54) if legal >> c & 1))
                card = parse_card(action["play"])
                if not legal >> card & 1:
                    raise SystemExit(f"illegal play {action['play']}")
                hands[seat] &= ~(1 << card)
                if trump < 0:
                    trump = SUIT_OF[card]
                trick.append(card)
                if len(trick) == players:
                    leader = (leader + rules.trick_winner(trick, trump)) % players
                    captured[unit_of[leader]] |= sum(1 << c for c in trick)
                    trick = []
            points = rules.round_points(
                trump=trump, dealt=tuple(dealt), captured=tuple(captured), unit_of=tuple(unit_of)
            )
            raw = points.raw(len(teams))
            settled = rules.settle_round(
                scores=tuple(scores),
                raw=raw,
                bidder_unit=unit_of[bidder],
                bid=high,
                target=data["target"],
            )
            scores = list(settled.match_after)
            winner = settled.winner
            rounds.append(
                {
                    "legal": legal_log,
                    "trump": SUITS[trump],
                    "points": {
                        "high": points.high,
                        "low": points.low,
                        "jack": points.jack,
                        "jokers": list(points.jokers),
                        "game": points.game,
                    },
                    "raw": list(raw),
                    "match_after": scores,
                    "bidder_unit": unit_of[bidder],
                    "bid": high,
                    "made": settled.made,
                }
            )
        out.append(json.dumps({"rounds": rounds, "winner": winner}))
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def timed(command: list[str], runs: int) -> tuple[float, float, bytes]:
    """Best wall and best CPU seconds (user + system, of the child) over ``runs``."""
    best_wall = best_cpu = float("inf")
    output = b""
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        output = subprocess.run(command, check=True, capture_output=True, cwd=ROOT).stdout
        best_wall = min(best_wall, time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        best_cpu = min(best_cpu, cpu)
    return best_wall, best_cpu, output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--plain", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.plain:
        raise SystemExit(plain_replay(args.plain))

    sys.path.insert(0, str(ROOT / "bench"))
    from engine import write_records

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.jsonl"
        rounds = write_records(path, args.records)
        ours, ours_cpu, ours_out = timed(
            [sys.executable, "manage.py", "replay", str(path)], args.runs
        )
        plain, plain_cpu, plain_out = timed(
            [sys.executable, __file__, "--plain", str(path)], args.runs
        )
    same = [json.loads(line) for line in ours_out.splitlines()] == [
        json.loads(line) for line in plain_out.splitlines()
    ]
    print(f"{args.records} records, {rounds} rounds; outputs identical: {same}")
    for name, wall, cpu in (
        ("manage.py replay", ours, ours_cpu),
        ("plain list replay", plain, plain_cpu),
    ):
        print(f"{name:>18}: {wall:.2f} s wall, {cpu:.2f} s CPU, start-up included")
    print(f"manage.py replay / plain replay: {ours_cpu / plain_cpu:.2f} in CPU time")


if __name__ == "__main__":
    main()
