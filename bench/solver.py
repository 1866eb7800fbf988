"""Exact solver speed from the first lead, Python and the native core side by side.

    python bench/solver.py [--deals 200] [--python-deals 40] [--players 4] [--every-lead]
                           [--backend both|native|python] [--batch N] [--threads 1|2]
                           [--tricks-played N] [--cards-played N] [--cutthroat]
                           [--rules PRESET]

For each seeded deal the auction is skipped (seat 1 leads) and the solver finds the exact
value of the best opening lead (which also chooses trump) to the leader's side, with the
default utility (points taken minus points conceded). ``--every-lead`` also values every
lead exactly (what a sampling bot needs per deal); ``--batch`` times ``solve_sampled``
over sampled deals for the leader (on ``--threads`` threads, wall and CPU time both
reported); ``--tricks-played 1`` starts after a random first trick instead, and
``--cards-played N`` after N more random cards (valued for the seat to play then).
Prints p50/p95 milliseconds and positions (search nodes) per second. The Python search
is about 100x slower, so it gets fewer deals.
Even seat counts play as two partnerships (4v4 at 8), odd ones cutthroat; ``--cutthroat``
plays every seat for itself at any count (the leader's unit against all the others, whose
game totals the search must still tell apart: the dearest layout per card held).
``--rules classic`` (or any full-deck preset) plays that table instead: seat 1 bids the
lowest bid, names a random trump, every seat discards at random as its rule allows, and
the bidder leads; the utility is its side's table of points taken less conceded.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.bots.sampling import knowledge  # noqa: E402
from game.bots.valuation import Situation, contract_utility  # noqa: E402
from game.engine import solver_native, solver_py  # noqa: E402
from game.engine.rules import PASS, Phase, bid_action, discard_action  # noqa: E402
from game.engine.solver import (  # noqa: E402
    Position,
    SearchStats,
    Utility,
    position_of,
    solve_sampled,
)
from game.engine.state import MatchSetup, RoundState, shuffle_deal  # noqa: E402
from game.engine.variants import HOUSE, Rules, preset  # noqa: E402


def first_lead_state(
    setup: MatchSetup, seed: int, tricks_played: int = 0, cards_played: int = 0, bid: int = 1
) -> RoundState:
    """Seat 1 (the dealer's left) bids ``bid`` (at least the table's lowest), everyone else
    passes; at a full-deck table it names a random trump and every seat discards at random
    as its rule allows; then ``tricks_played`` tricks and ``cards_played`` more cards,
    random and legal."""
    rng = Random(seed)
    state = RoundState(setup, shuffle_deal(setup, 0, rng))
    bid = max(bid, setup.rules.min_bid)
    while state.in_auction():
        state = state.apply(bid_action(bid) if state.current_player() == 1 else PASS)
    if state.phase() is Phase.TRUMP:
        state = state.apply(rng.choice(state.legal_actions()))
    while state.phase() is Phase.EXCHANGE:
        rule = state.discard_rule()
        optional = [c for c in range(54) if rule.optional >> c & 1]
        spare = rng.sample(optional, rule.count - rule.must.bit_count())
        state = state.apply(discard_action(rule.pick(spare)))
    for _ in range(tricks_played * setup.players + cards_played):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def first_lead_position(
    setup: MatchSetup,
    seed: int,
    tricks_played: int = 0,
    cards_played: int = 0,
    contract: int | None = None,
) -> tuple[Position, Utility]:
    """first_lead_state's position, and the question_utility of the side to move."""
    state = first_lead_state(setup, seed, tricks_played, cards_played, contract or 1)
    position = position_of(state)
    return position, question_utility(setup, position.unit_of[position.to_act], contract)


def question_utility(setup: MatchSetup, unit: int, contract: int | None) -> Utility:
    """``unit``'s points taken minus points conceded, or with ``contract`` (seat 1's bid)
    the expert's first-trick utility."""
    if not setup.rules.is_house:  # as wide as the table's points
        size = setup.rules.point_count + 1
        return Utility(
            frozenset({unit}), tuple(tuple(a - b for b in range(size)) for a in range(size))
        )
    if contract is None:
        return Utility(frozenset({unit}))
    sizes = tuple(len(team) for team in setup.teams)
    situation = Situation(unit, setup.unit_of[1], contract, (0,) * setup.units, setup.target, sizes)
    return contract_utility(situation, defenders_together=True)


def table_setup(players: int, cutthroat: bool, rules: Rules = HOUSE) -> MatchSetup:
    """Even seat counts as two partnerships (4v4 at 8), odd ones or ``cutthroat`` alone."""
    if players % 2 == 0 and not cutthroat:
        return MatchSetup.partnerships(players, 2, rules=rules)
    return MatchSetup.cutthroat(players, rules=rules)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(label: str, times: list[float], nodes: int) -> None:
    print(
        f"  {label}: p50 {percentile(times, 0.5) * 1e3:.2f} ms, "
        f"p95 {percentile(times, 0.95) * 1e3:.2f} ms, mean {statistics.mean(times) * 1e3:.2f} ms, "
        f"max {max(times) * 1e3:.1f} ms; {nodes / len(times):,.0f} positions per deal, "
        f"{nodes / sum(times):,.0f} positions/s over {len(times)} deals"
    )


def measure(
    backend,
    setup: MatchSetup,
    deals: int,
    every_lead: bool,
    tricks: int,
    cards: int,
    contract: int | None,
) -> None:
    times, nodes = [], 0
    for seed in range(deals):
        position, utility = first_lead_position(setup, seed, tricks, cards, contract)
        stats = SearchStats()
        start = time.perf_counter()
        if every_lead:
            backend.action_values(position, utility, stats)
        else:
            backend.solve(position, utility, stats)
        times.append(time.perf_counter() - start)
        nodes += stats.nodes
    name = backend.__name__.rsplit(".", 1)[-1]
    report(f"{name}, {'value of every lead' if every_lead else 'exact value'}", times, nodes)


def measure_batch(
    setup: MatchSetup,
    deals: int,
    count: int,
    tricks: int,
    cards: int,
    threads: int,
    contract: int | None,
) -> None:
    """solve_sampled from the leader's knowledge: ``count`` deals valued per call."""
    times, nodes = [], 0
    cpu = time.process_time()
    for seed in range(deals):
        state = first_lead_state(setup, seed, tricks, cards, contract or 1)
        known = knowledge(state.view_for(state.current_player()))
        utility = question_utility(setup, setup.unit_of[known.seat], contract)
        start = time.perf_counter()
        result = solve_sampled(
            known, utility, count=count, seed=seed, mode="actions", threads=threads
        )
        times.append((time.perf_counter() - start) / count)
        nodes += result.nodes // count
    cpu = time.process_time() - cpu
    label = f"solve_sampled on {threads} thread(s), every lead, per deal in batches of {count}"
    report(label, times, nodes)
    print(f"  wall {sum(times) * count:.2f} s, CPU {cpu:.2f} s in all (both threads)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals for the native core")
    parser.add_argument("--python-deals", type=int, default=40, help="deals for Python")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--every-lead", action="store_true", help="also value every lead")
    parser.add_argument("--backend", choices=("both", "native", "python"), default="both")
    parser.add_argument("--batch", type=int, default=0, help="also time solve_sampled(N)")
    parser.add_argument("--threads", type=int, default=1, help="threads for --batch (0: auto)")
    parser.add_argument("--tricks-played", type=int, default=0, help="random tricks first")
    parser.add_argument("--cards-played", type=int, default=0, help="then random cards")
    parser.add_argument("--cutthroat", action="store_true", help="every seat for itself")
    parser.add_argument("--contract", type=int, metavar="BID", help="seat 1 bids BID")
    parser.add_argument("--rules", default="house", help="a preset: house, classic, ...")
    args = parser.parse_args()
    rules = preset(args.rules)
    if not rules.allows_players(args.players):
        sys.exit(f"{args.rules} is played by {', '.join(map(str, rules.players))} players")
    if args.batch and not rules.is_house:
        sys.exit("--batch samples the house rules only")
    setup = table_setup(args.players, args.cutthroat, rules)
    backends = []
    if args.backend in ("both", "python"):
        backends.append((solver_py, args.python_deals))
    if args.backend in ("both", "native"):
        if not solver_native.available():
            sys.exit(f"no native core: {solver_native.UNAVAILABLE_BECAUSE}")
        backends.append((solver_native, args.deals))
    start = (
        f"after {args.tricks_played} random trick(s) and {args.cards_played} card(s)"
        if args.tricks_played or args.cards_played
        else "from the first lead"
    )
    question = f", bid {args.contract} made or beaten" if args.contract else ""
    table = "" if rules.is_house else f"{rules.preset}, "
    print(f"{table}{args.players} players ({len(setup.teams)} units), {start}{question}:")
    for every_lead in (False, True) if args.every_lead else (False,):
        for backend, deals in backends:
            measure(
                backend,
                setup,
                deals,
                every_lead,
                args.tricks_played,
                args.cards_played,
                args.contract,
            )
    if args.batch:
        batches = max(1, args.deals // args.batch)
        measure_batch(
            setup,
            batches,
            args.batch,
            args.tricks_played,
            args.cards_played,
            args.threads,
            args.contract,
        )


if __name__ == "__main__":
    main()
