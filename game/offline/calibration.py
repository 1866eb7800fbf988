"""Fit the hand model (``hand_model.json``) to exact solves of random deals.

    python -m game.offline.calibration [--deals 1500] [--solve-cap-ms 300] [--seed 0]
    python -m game.offline.calibration --bids 200 --players 3 [--budget-ms 100]
    python -m game.offline.calibration --rules classic [--rounds 120] [--budget-ms 100]

For every table size and layout, random deals are dealt, seat 1 leads, and the exact
search says how many points its side takes (trump chosen by the search). The weights are
a ridge regression of those points on the hand's features in the suit the model itself
would lead; three rounds of "pick the suit, refit" settle which suit that is. Deals whose
solve runs past the cap are left out (the biggest tables' hardest deals), and counted.

With ``--bids``, only the expert's own bidding is fitted, for the seats still to bid in
its auction (``auction.limits``): experts play rounds at each layout, and the shift and
spread of the bid limit around the hand's modelled worth that make their free choices
likeliest (``auction.model_action`` read as a likelihood) are kept with the model.

With ``--rules`` and a full-deck preset (classic, six_handed, seven_point), whose auction
is priced by rollouts rather than the hand model, nothing is fitted: experts play rounds
at the preset and each price before the tricks is set against the round's outcome
(``game.offline.rollout_calibration``). ``--check`` does the same at the house rules
(``--players 3``: cutthroat), pricing the auction with the fitted model. ``--rules P
--bids ROUNDS`` fits how the expert bids at the preset, for the rollouts' later seats
(``rollout_calibration.fit_bidding``), and prints it.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import dataclass
from random import Random

from game.bots.auction import standing
from game.bots.expert import ExpertBot
from game.bots.hand_model import FEATURES, MODEL_FILE, dot, hand_model, model_key, suit_features
from game.bots.valuation import points_utility
from game.engine.rules import MAX_BID, PASS, bid_action, bid_amount
from game.engine.solver import MAX_POINTS, SearchStats, SearchTimeout, position_of, solve
from game.engine.state import MatchSetup, RoundState, shuffle_deal
from game.offline import rollout_calibration

RIDGE = 1.0
REFITS = 3
# rounds' worth of the layout's mean shortfall mixed into each exact value's own
PRIOR_ROUNDS = 6


def leader_samples(setup: MatchSetup, deals: int, cap_ms: float, rng: Random):
    """(hand, exact points of its side) for seat 1 leading ``deals`` random deals; and
    how many solves ran past the cap."""
    samples, skipped = [], 0
    unit = setup.unit_of[1]
    utility = points_utility(unit)
    for _ in range(deals):
        state = _led_by_seat_1(setup, rng)
        stats = SearchStats(deadline=time.perf_counter() + cap_ms / 1000)
        try:
            points = solve(position_of(state), utility, stats)
        except SearchTimeout:
            skipped += 1
            continue
        samples.append((state.hands[1], points))
    return samples, skipped


def play_excess(
    setup: MatchSetup, rounds: int, cap_ms: float, rng: Random
) -> tuple[float, list[float]]:
    """How many points fewer the leader's side takes in play (experts at every seat, on a
    small budget) than the exact search of the open deal says it would: on average, and
    for each exact value."""
    bot = ExpertBot(budget_ms=40, max_deals=60)
    unit = setup.unit_of[1]
    utility = points_utility(unit)
    shortfalls = []
    while len(shortfalls) < rounds:
        state = _led_by_seat_1(setup, rng)
        stats = SearchStats(deadline=time.perf_counter() + cap_ms / 1000)
        try:
            exact = solve(position_of(state), utility, stats)
        except SearchTimeout:
            continue
        while not state.is_terminal():
            seat = state.current_player()
            state = state.apply(bot.choose(state.view_for(seat), state.legal_actions(), rng))
        shortfalls.append((exact, exact - state.result.raw[unit]))
    mean = sum(loss for _, loss in shortfalls) / len(shortfalls)
    by_exact = []
    for value in range(MAX_POINTS):
        losses = [loss for exact, loss in shortfalls if exact == value]
        by_exact.append((sum(losses) + PRIOR_ROUNDS * mean) / (len(losses) + PRIOR_ROUNDS))
    return mean, by_exact


@dataclass(frozen=True)
class BidSample:
    """One free choice of the expert's in the auction: its hand's modelled worth, the high
    bid it faced, whether it was the last to bid, and what it did."""

    value: float
    high: int
    last: bool
    action: int


def bid_samples(setup: MatchSetup, rounds: int, budget_ms: float, rng: Random) -> list[BidSample]:
    """The expert's free auction choices in ``rounds`` rounds of self-play at the layout
    (``rollout_calibration.free_bids``, a quarter of ``budget_ms`` in the tricks), each
    with its hand's modelled worth."""
    samples = []
    for view, action in rollout_calibration.free_bids(
        setup, rounds, rng, budget_ms=budget_ms, play_ms=budget_ms / 4
    ):
        partners = len(view.teams[view.unit]) - 1
        value = hand_model(setup.players, partners).value(view.hand, setup.players)
        high = standing(view.auction).high
        samples.append(BidSample(value, high, view.seat == view.dealer, action))
    return samples


def bid_likelihood(sample: BidSample, shift: float, style: float) -> float:
    """How likely the model makes the sample's choice when the seat judges its hand at its
    worth plus ``shift``, give or take ``style`` (``auction.model_action``)."""
    centre = sample.value + shift

    def below(limit: float) -> float:
        return 0.5 * math.erfc(-(limit - centre) / style / math.sqrt(2))

    passes = below(sample.high + 0.5)  # supported_bid(limit) <= high
    if sample.action == PASS:
        return passes
    if sample.last:
        return 1.0 - passes  # the last seat bids one more, whatever its hand supports
    amount = bid_amount(sample.action)
    top = 1.0 if amount >= MAX_BID else below(amount + 0.5)
    return max(0.0, top - below(amount - 0.5))


def fit_bidding(samples: list[BidSample]) -> tuple[float, float]:
    """The (shift, style) most likely to make the expert's choices: a grid, by 0.05."""
    grid = [(shift / 20, style / 20) for shift in range(-30, 41) for style in range(6, 41)]

    def log_likelihood(shift_style) -> float:
        return sum(math.log(max(1e-9, bid_likelihood(s, *shift_style))) for s in samples)

    return max(grid, key=log_likelihood)


def _led_by_seat_1(setup: MatchSetup, rng: Random) -> RoundState:
    state = RoundState(setup, shuffle_deal(setup, 0, rng))
    while state.in_auction():
        state = state.apply(bid_action(1) if state.current_player() == 1 else PASS)
    return state


def fit(samples: list[tuple[int, int]], players: int) -> tuple[tuple[float, ...], float]:
    """Ridge weights and the residual spread, the trump suit re-chosen between refits."""
    rows = [suit_features(hand, players) for hand, _ in samples]
    targets = [points for _, points in samples]
    # start from the suit with the most cards, the high ones breaking ties
    start = (0, 1, 0, 0.3, 0.2, 0.1, 0.1, 0.05, 0.05, 0, 0, 0, 0)
    weights = start
    for _ in range(REFITS):
        chosen = [max(options, key=lambda row: dot(weights, row)) for options in rows]
        weights = _ridge(chosen, targets)
    chosen = [max(options, key=lambda row: dot(weights, row)) for options in rows]
    residuals = [y - dot(weights, x) for x, y in zip(chosen, targets, strict=True)]
    spread = (sum(r * r for r in residuals) / max(1, len(residuals) - len(FEATURES))) ** 0.5
    return weights, spread


def _ridge(rows: list[tuple[float, ...]], targets: list[int]) -> tuple[float, ...]:
    size = len(FEATURES)
    normal = [[RIDGE * (i == j and i > 0) for j in range(size)] for i in range(size)]
    right = [0.0] * size
    for row, y in zip(rows, targets, strict=True):
        for i in range(size):
            right[i] += row[i] * y
            for j in range(size):
                normal[i][j] += row[i] * row[j]
    return tuple(_solve_linear(normal, right))


def _solve_linear(matrix: list[list[float]], right: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the system is small and well posed)."""
    size = len(right)
    a = [row[:] + [right[i]] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-12:
            continue  # a feature that never varies keeps weight 0
        for r in range(size):
            if r != col:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][size] / a[i][i] if abs(a[i][i]) >= 1e-12 else 0.0 for i in range(size)]


def _fitted_entry(setup: MatchSetup, args, rng: Random) -> dict:
    samples, skipped = leader_samples(setup, args.deals, args.solve_cap_ms, rng)
    weights, spread = fit(samples, setup.players)
    mean = sum(p for _, p in samples) / max(1, len(samples))
    return {
        "weights": [round(w, 4) for w in weights],
        "spread": round(spread, 3),
        "mean": round(mean, 3),
        "deals": len(samples),
        "skipped": skipped,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1500)
    parser.add_argument("--solve-cap-ms", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--play-rounds", type=int, default=60)
    parser.add_argument("--players", type=int, nargs="+")
    parser.add_argument("--excess-only", action="store_true", help="keep the fitted weights")
    parser.add_argument(
        "--rules", default="house", help="a full-deck preset: its rollouts' prices against play"
    )
    parser.add_argument(
        "--check", action="store_true", help="house rules: price against play, fit nothing"
    )
    parser.add_argument(
        "--bids", type=int, metavar="ROUNDS", help="fit only the expert's own bidding, in self-play"
    )
    rollout_calibration.add_arguments(parser)
    args = parser.parse_args()
    if args.rules != "house" or args.check:
        rollout_calibration.run(args.rules, args, args.players[0] if args.players else None)
        return
    rng = Random(args.seed)
    existing = json.loads(MODEL_FILE.read_text())["models"] if MODEL_FILE.exists() else {}
    models = dict(existing)
    for players in args.players or [3, 4, 5, 6, 7, 8]:
        for setup in MatchSetup.layouts(players):
            partners = len(setup.teams[setup.unit_of[1]]) - 1
            key = model_key(players, partners)
            started = time.perf_counter()
            if args.bids:
                samples = bid_samples(setup, args.bids, args.budget_ms, rng)
                shift, style = fit_bidding(samples)
                models[key].update(bid_shift=shift, bid_style=style, bid_samples=len(samples))
                print(f"{players} players, {partners} partners: the expert bids its hand's "
                      f"worth {shift:+.2f}, give or take {style:.2f} ({len(samples)} choices), "
                      f"{time.perf_counter() - started:.0f} s", flush=True)  # fmt: skip
                continue
            if not args.excess_only:
                models[key] = _fitted_entry(setup, args, rng)
            excess, by_exact = play_excess(setup, args.play_rounds, args.solve_cap_ms, rng)
            models[key]["excess"] = round(excess, 3)
            models[key]["excess_by_exact"] = [round(x, 3) for x in by_exact]
            print(
                f"{players} players, {partners} partners: {models[key]}, "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )
    MODEL_FILE.write_text(
        json.dumps({"features": list(FEATURES), "models": models}, indent=1) + "\n"
    )


if __name__ == "__main__":
    main()
