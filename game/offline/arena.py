"""The arena: bots play whole matches against each other, and the results are counted.

The referee holds the true state; each bot is asked only with its seat's view and the
legal actions, exactly as in live play.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations
from random import Random

from game.bots import make_bot
from game.engine import record
from game.engine.state import MatchSetup, MatchState

MAX_ROUNDS = 200  # a match still going after this many rounds is called off (no winner)


@dataclass(frozen=True)
class Game:
    """One match to play: its deals come from ``seed``; ``lineup`` names each unit's bot."""

    seed: int
    lineup: tuple[str, ...]


@dataclass
class Outcome:
    lineup: tuple[str, ...]
    winner: int | None
    rounds: int
    points: list[int]  # raw round points per unit, summed over the match
    bids: list[int]  # rounds each unit won the auction
    made: list[int]  # of those, rounds it made its bid
    bid_total: list[int]  # the sum of the bids it won with
    latencies: dict[str, list[float]] = field(default_factory=dict)  # seconds per decision
    record: str | None = None


def schedule(bots: Sequence[str], units: int, matches: int, fair: bool, seed: int) -> list[Game]:
    """Rotate the bots around the units; with ``fair``, every rotation replays the same deals.
    Three bots or more, one to a unit, sit in every order instead: rotations alone keep
    each bot right after the same one, and at a cutthroat table who bids and plays after
    whom is an edge that no rotation evens out."""
    if len(bots) == units >= 3:
        rotations = list(permutations(bots))
    else:
        rotations = [
            tuple(bots[(unit + shift) % len(bots)] for unit in range(units))
            for shift in range(max(len(bots), 1))
        ]
    games = []
    for number in range(matches):
        if fair:
            deal_seed, lineup = (
                seed * 1_000_003 + number // len(rotations),
                rotations[number % len(rotations)],
            )
        else:
            deal_seed, lineup = seed * 1_000_003 + number, rotations[number % len(rotations)]
        games.append(Game(deal_seed, lineup))
    return games


def play(
    setup: MatchSetup, game: Game, bot_options: dict | None = None, keep_record: bool = False
) -> Outcome:
    options = bot_options or {}
    bots = {name: bot_of(name, options.get(name, {})) for name in set(game.lineup)}
    deals = Random(game.seed)  # the same deals whatever the bots do
    choices = Random(f"{game.seed}/{'/'.join(game.lineup)}")
    seat_bot = [game.lineup[setup.unit_of[seat]] for seat in range(setup.players)]
    match = MatchState(setup, first_dealer=deals.randrange(setup.players))
    latencies: dict[str, list[float]] = {name: [] for name in bots}
    while not match.is_terminal() and len(match.rounds) < MAX_ROUNDS:
        match = match.deal_round(deals)
        while match.current_player() is not None:
            seat = match.current_player()
            name = seat_bot[seat]
            legal = match.legal_actions()
            started = time.perf_counter()
            action = bots[name].choose(match.view_for(seat), legal, choices)
            latencies[name].append(time.perf_counter() - started)
            match = match.apply(action, seat)
    return _outcome(setup, game, match, latencies, keep_record)


def _outcome(setup, game, match: MatchState, latencies, keep_record) -> Outcome:
    units = setup.units
    points, bids, made, bid_total = [0] * units, [0] * units, [0] * units, [0] * units
    for state in match.rounds:
        result = state.result
        if result is None or result.redeal:
            continue
        for unit, taken in enumerate(result.raw):
            points[unit] += taken
        bids[result.bidder_unit] += 1
        made[result.bidder_unit] += result.made
        bid_total[result.bidder_unit] += result.bid
    return Outcome(
        lineup=game.lineup,
        winner=match.winner,
        rounds=sum(state.result is not None and not state.redealt for state in match.rounds),
        points=points,
        bids=bids,
        made=made,
        bid_total=bid_total,
        latencies=latencies,
        record=record.dumps(match) if keep_record else None,
    )


def bot_of(name: str, options: dict):
    """The bot a lineup names: a level, or a searching level at its own budget in
    milliseconds (``expert@25``)."""
    level, _, budget = name.partition("@")
    if budget:
        options = {**options, "budget_ms": float(budget)}
    return make_bot(level, **options)


def wilson_interval(wins: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """95% confidence interval for a win rate (Wilson score interval)."""
    if total == 0:
        return 0.0, 1.0
    rate = wins / total
    centre = (rate + z * z / (2 * total)) / (1 + z * z / total)
    spread = (
        z * math.sqrt(rate * (1 - rate) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    )
    return max(0.0, centre - spread), min(1.0, centre + spread)


def summarise(outcomes: Sequence[Outcome]) -> dict[str, dict]:
    """Per bot: matches, wins, win rate and its 95% interval, points per round, the share
    of rounds whose auction it won, its average winning bid, bid success, and decision
    latency p50/p95 in milliseconds."""
    names = sorted({name for o in outcomes for name in o.lineup})
    summary = {}
    for name in names:
        matches = wins = rounds = points = bids = made = bid_total = 0
        latencies: list[float] = []
        for o in outcomes:
            units = [u for u, bot in enumerate(o.lineup) if bot == name]
            if not units:
                continue
            matches += 1
            wins += o.winner in units
            rounds += o.rounds * len(units)
            points += sum(o.points[u] for u in units)
            bids += sum(o.bids[u] for u in units)
            made += sum(o.made[u] for u in units)
            bid_total += sum(o.bid_total[u] for u in units)
            latencies.extend(o.latencies.get(name, []))
        low, high = wilson_interval(wins, matches)
        summary[name] = {
            "matches": matches,
            "wins": wins,
            "win_rate": wins / matches if matches else 0.0,
            "win_rate_95": [low, high],
            "points_per_round": points / rounds if rounds else 0.0,
            "auctions_won": bids / rounds if rounds else 0.0,
            "average_bid": bid_total / bids if bids else None,
            "bid_success": made / bids if bids else None,
            "latency_ms_p50": _percentile(latencies, 0.50) * 1e3,
            "latency_ms_p95": _percentile(latencies, 0.95) * 1e3,
        }
    return summary


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
