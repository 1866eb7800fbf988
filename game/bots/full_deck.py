"""The expert's card play at a full-deck table: deal what the seat cannot see in ways
consistent with what it has seen, solve each deal exactly (the native core where it is
built) while that is quick and play it out by greedy's rules after (``playout``), and
play the card with the best mean.

What a seat knows at such a table (``docs/variants.md``): its own hand, discard and
fill; how many cards every other seat holds, discarded and was dealt; every card played.
The engine says what the rest follows from: the voids each seat has shown
(``SeatView.shown_voids``) and what each discard may hold (``SeatView.discard_cases``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from itertools import product
from random import Random

from game.engine.knowledge import NoConsistentDeal, deal_among
from game.engine.solver import (
    Position,
    SearchStats,
    SearchTimeout,
    Utility,
    action_values,
    advance,
)
from game.engine.view import SeatView

from .playout import play_out
from .pricing import Prices

HAND_AFTER_EXCHANGE = 6
# exact solves go on while each takes under this share of the budget
EXACT_DEALS = 40
# and no one solve may take more than this share of it
SOLVE_CAP = 0.1


def price_cards(
    view: SeatView,
    legal: Sequence[int],
    rng: Random,
    *,
    budget_ms: float,
    max_deals: int,
    forget: float = 0.0,
    forget_seed: int = 0,
) -> Prices:
    """Each legal card's value over the deals priced within the budget. Each deal is
    solved exactly while that is quick; once one solve takes more than its share of the
    budget the rest of the deals are played out instead (``playout``). ``forget`` is a
    weaker level's (``levels.py``): the chance that each shown void is forgotten, the
    same ones in every deal of the decision (drawn from ``forget_seed``)."""
    started = time.perf_counter()
    deadline = started + budget_ms / 1000
    utility = score_utility(view)
    prices = Prices(sorted(legal))
    solving = True
    while prices.deals < max_deals and time.perf_counter() < deadline:
        try:
            position = sample_position(view, rng, forget, forget_seed)
        except NoConsistentDeal:
            break
        cap = min(deadline, time.perf_counter() + SOLVE_CAP * budget_ms / 1000)
        values = _solved(position, utility, cap) if solving else None
        if values is None:
            solving = False
            values = _played_out(position, utility, legal)
        elif time.perf_counter() - started > (prices.deals + 1) * budget_ms / 1000 / EXACT_DEALS:
            solving = False  # slower than EXACT_DEALS deals in the budget: play out the rest
        prices.add(values)
    return prices


def _solved(position: Position, utility: Utility, deadline: float) -> dict | None:
    try:
        return action_values(position, utility, SearchStats(deadline=deadline))
    except SearchTimeout:
        return None


def _played_out(position: Position, utility: Utility, legal) -> dict[int, int]:
    table, side = utility.table, utility.side
    values = {}
    for card in legal:
        raw = play_out(advance(position, card))
        ours = sum(points for unit, points in enumerate(raw) if unit in side)
        values[card] = table[ours][sum(raw) - ours]
    return values


def score_utility(view: SeatView) -> Utility:
    """The round's points as a score difference: ours less everyone else's, a missed bid
    costing the whole bid."""
    bid, size = view.bid, view.rules.point_count + 1
    we_bid = view.unit_of[view.bidder] == view.unit

    def value(ours: int, theirs: int) -> int:
        if we_bid:
            return (ours if ours >= bid else -bid) - theirs
        return ours - (theirs if theirs >= bid else -bid)

    table = tuple(tuple(value(a, b) for b in range(size)) for a in range(size))
    return Utility(frozenset({view.unit}), table)


def sample_position(
    view: SeatView, rng: Random, forget: float = 0.0, forget_seed: int = 0
) -> Position:
    """A complete deal consistent with what the seat has seen (less the voids
    forgotten, each with chance ``forget``, drawn from ``forget_seed``). Each discard
    goes as the rules allow (``SeatView.discard_cases``): the usual case for every seat
    first, the others (a seat that held more than six trumps) where no deal fits it."""
    pool = view.unseen
    seats = [seat for seat in range(view.players) if seat != view.seat]
    discarders = [seat for seat in seats if view.discard_counts[seat]]
    played_by = view.played_by
    needs = [HAND_AFTER_EXCHANGE - played_by[seat].bit_count() for seat in seats]
    needs += [view.discard_counts[seat] for seat in discarders] + [view.hidden_count]
    voids = _voids(view, forget, Random(forget_seed))
    held = None
    for cases in product(*(view.discard_cases(seat) for seat in discarders)):
        kept_barred = dict.fromkeys(seats, 0)
        for seat, case in zip(discarders, cases, strict=True):
            kept_barred[seat] = case.kept_barred
        if any(played_by[seat] & barred for seat, barred in kept_barred.items()):
            continue  # it played a card its kept hand cannot have held
        bars = [voids[seat] | kept_barred[seat] for seat in seats]
        bars += [case.discard_barred for case in cases] + [0]
        try:
            held = deal_among(pool, needs, bars, rng)
            break
        except NoConsistentDeal:
            continue
    if held is None:
        raise NoConsistentDeal("no deal fits what this seat has seen")
    hands = [0] * view.players
    hands[view.seat] = view.hand
    for index, seat in enumerate(seats):
        hands[seat] = held[index]
    return Position(
        unit_of=view.unit_of,
        hands=tuple(hands),
        dealt=tuple(hand | played for hand, played in zip(hands, played_by, strict=True)),
        trump=view.trump,
        leader=view.leader,
        trick=tuple(card for _, card in view.current_trick),
        taken=view.taken,
        table=view.rules,
    )


def _voids(view: SeatView, forget: float = 0.0, rng: Random | None = None) -> list[int]:
    """The cards each seat has shown it does not hold (``SeatView.shown_voids``); with
    ``forget``, each (seat, suit) shown is forgotten with that chance, by ``rng``."""
    barred = [0] * view.players
    for seat, groups in enumerate(view.shown_voids):
        for group in groups:
            if forget and rng is not None and rng.random() < forget:
                continue
            barred[seat] |= group
    return barred
