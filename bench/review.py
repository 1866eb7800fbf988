"""Seconds to review a player's round, and a whole match, at the review's budget.

    python bench/review.py [--players 4] [--rounds 20] [--matches 3] [--seed 0]

Rounds are dealt at random and played by the greedy bot (fast; the review's cost is the
analysis of seat 0's decisions, whoever played them); each round's review is what a worker
does for one request: ``learn.round_review.decisions.moments`` then ``review_moment`` for
each decision, at ``REVIEW_BUDGET``. Prints wall and CPU seconds p50/p95/max per round and
per whole match (to 21, every round of seat 0), the decisions per round, and the machine's
load average before and after (the machine is shared: wall time includes waiting for a core).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from random import Random

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from game.bots.basic import GreedyBot  # noqa: E402
from game.engine import solver  # noqa: E402
from game.engine.state import MatchSetup, MatchState  # noqa: E402
from learn.round_review.decisions import REVIEW_BUDGET, moments, review_moment  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(name: str, wall: list[float], cpu: list[float]) -> None:
    print(
        f"{name:<22} n={len(wall):<3} wall p50={percentile(wall, 0.5):6.2f} s "
        f"p95={percentile(wall, 0.95):6.2f} s max={max(wall):6.2f} s | "
        f"cpu p50={percentile(cpu, 0.5):6.2f} s p95={percentile(cpu, 0.95):6.2f} s"
    )


def play_round(match: MatchState, rng: Random) -> MatchState:
    match = match.deal_round(rng)
    bot, number = GreedyBot(), len(match.rounds)
    while len(match.rounds) == number and match.current_player() is not None:
        seat = match.current_player()
        match = match.apply(bot.choose(match.view_for(seat), match.legal_actions(), rng), seat)
    return match


def review_round(match: MatchState, number: int, seat: int) -> tuple[float, float, int]:
    wall, cpu = time.perf_counter(), time.process_time()
    found = moments(match, number, seat)
    for moment in found:
        review_moment(moment, seed=f"bench/{number}")
    return time.perf_counter() - wall, time.process_time() - cpu, len(found)


def setup_for(players: int) -> MatchSetup:
    if players % 2 == 0:
        return MatchSetup.partnerships(players, 2)
    return MatchSetup.cutthroat(players)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    backend = "native" if solver.native_available() else "python"
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()}, search: {backend}")
    print(f"budget: {REVIEW_BUDGET}")
    setup, rng = setup_for(args.players), Random(args.seed)

    walls, cpus, decisions = [], [], []
    for _ in range(args.rounds):
        match = play_round(MatchState(setup, rng.randrange(setup.players)), rng)
        wall, cpu, count = review_round(match, 0, 0)
        walls.append(wall)
        cpus.append(cpu)
        decisions.append(count)
    report(f"round, {args.players} players", walls, cpus)
    print(f"{'':<22} decisions a round: mean {statistics.fmean(decisions):.1f}")

    walls, cpus, rounds = [], [], []
    for _ in range(args.matches):
        match = MatchState(setup, rng.randrange(setup.players))
        while not match.is_terminal():
            match = play_round(match, rng)
        wall = cpu = 0.0
        for number in range(len(match.rounds)):
            w, c, _ = review_round(match, number, 0)
            wall, cpu = wall + w, cpu + c
        walls.append(wall)
        cpus.append(cpu)
        rounds.append(len(match.rounds))
    if walls:
        report(f"match, {args.players} players", walls, cpus)
        print(f"{'':<22} rounds a match: mean {statistics.fmean(rounds):.1f}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
