"""Exact solver speed: a full 4-player deal solved from the first lead.

    python bench/solver.py [--deals 200] [--players 4]

For each seeded deal the auction is skipped (seat 1 leads) and the solver finds the exact
value of the best opening lead (which also chooses trump) to the leader's side, with the
default utility (points taken minus points conceded). Prints p50/p95 milliseconds and
positions (search nodes) per second; also the cost of valuing every lead exactly, which is
what a sampling bot needs per deal.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.engine.rules import PASS, bid_action  # noqa: E402
from game.engine.solver import SearchStats, Utility, action_values, position_of, solve  # noqa: E402
from game.engine.state import MatchSetup, RoundState, shuffle_deal  # noqa: E402


def first_lead(setup: MatchSetup, seed: int):
    state = RoundState(setup, shuffle_deal(setup, 0, Random(seed)))
    while state.in_auction():  # seat 1 (the dealer's left) bids 1, everyone else passes
        state = state.apply(bid_action(1) if state.current_player() == 1 else PASS)
    return position_of(state)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(setup: MatchSetup, deals: int, every_lead: bool) -> None:
    times, nodes = [], 0
    for seed in range(deals):
        position = first_lead(setup, seed)
        utility = Utility(frozenset({position.unit_of[position.to_act]}))
        stats = SearchStats()
        start = time.perf_counter()
        if every_lead:
            action_values(position, utility, stats)
        else:
            solve(position, utility, stats)
        times.append(time.perf_counter() - start)
        nodes += stats.nodes
    label = "value of every lead" if every_lead else "exact value (best lead)"
    print(
        f"{setup.players} players, {label}: p50 {percentile(times, 0.5) * 1e3:.1f} ms, "
        f"p95 {percentile(times, 0.95) * 1e3:.1f} ms, mean {statistics.mean(times) * 1e3:.1f} ms, "
        f"max {max(times) * 1e3:.0f} ms; {nodes / deals:,.0f} positions per deal, "
        f"{nodes / sum(times):,.0f} positions/s over {deals} deals"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--every-lead", action="store_true", help="also value every lead")
    args = parser.parse_args()
    setup = (
        MatchSetup.partnerships(args.players, 2)
        if args.players % 2 == 0
        else MatchSetup.cutthroat(args.players)
    )
    measure(setup, args.deals, every_lead=False)
    if args.every_lead:
        measure(setup, args.deals, every_lead=True)


if __name__ == "__main__":
    main()
