"""The rest of the auction in one sampled deal, and the evidence in the auction so far.

The expert cannot see how the seats still to act will bid, so in every sampled deal it
asks a model: a seat bids from its own hand alone, what the hand model says that hand
is worth to its leader, give or take the seat's own judgement (``STYLE``). The auction
is one lap, so a seat with more to come after it bids what its hand supports, and the
last seat (which nobody can overbid) bids just enough; nobody overbids a partner. Read
backwards, the same model
says how likely each bid or pass so far was with the hands of a sampled deal, which is
how much that deal counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from random import Random

from game.engine.rules import MAX_BID, MIN_BID, PASS, bid_action, bid_amount, is_bid

# how far a seat's bid strays from its hand's modelled worth, in points
STYLE = 0.6
# the evidence trusts the model less than the model trusts itself: people bid too
EVIDENCE_SPREAD = 0.9


@dataclass(frozen=True)
class Auction:
    """Where the auction stands: the high bid and its holder (None: nobody has bid)."""

    high: int
    holder: int | None

    def after(self, seat: int, action: int) -> Auction:
        return Auction(bid_amount(action), seat) if is_bid(action) else self


def standing(auction: tuple[tuple[int, int], ...]) -> Auction:
    state = Auction(0, None)
    for seat, action in auction:
        state = state.after(seat, action)
    return state


def supported_bid(limit: float) -> int:
    """The highest bid a hand judged at ``limit`` points supports (0: none)."""
    return max(0, min(MAX_BID, math.floor(limit + 0.5)))


def model_action(limit: float, state: Auction, last: bool, partner_holds: bool) -> int:
    """What a seat judging its hand at ``limit`` does, in this model."""
    if last and state.holder is None:
        return bid_action(MIN_BID)  # the dealer must open; nobody can overbid the minimum
    supported = supported_bid(limit)
    if supported <= state.high or partner_holds:
        return PASS
    return bid_action(state.high + 1 if last else supported)


def finish(
    state: Auction, seats_to_act: list[int], limits: dict[int, float], unit_of: tuple[int, ...]
) -> Auction:
    """The auction played out by the model from ``state``; the last seat listed is the
    dealer."""
    for i, seat in enumerate(seats_to_act):
        last = i == len(seats_to_act) - 1
        partner_holds = state.holder is not None and unit_of[state.holder] == unit_of[seat]
        state = state.after(seat, model_action(limits[seat], state, last, partner_holds))
    return state


def limits(
    values: dict[int, float], rng: Random, styles: dict[int, tuple[float, float]] | None = None
) -> dict[int, float]:
    """Each seat's judgement of its hand in one deal: its modelled worth plus its style,
    ``STYLE`` or, where ``styles`` gives one, that seat's (shift, spread)."""
    styles = styles or {}
    judged = {}
    for seat, value in values.items():
        shift, spread = styles.get(seat, (0.0, STYLE))
        judged[seat] = value + shift + rng.gauss(0.0, spread)
    return judged


def likelihood(value: float, action: int, state: Auction, forced: bool) -> float:
    """How likely a seat whose hand is worth ``value`` was to do ``action`` at ``state``.

    A pass says the hand did not support a bid above the high one; a bid says it
    supported at least that much (not exactly: people raise by one as often as not)."""
    if forced or (action == PASS and state.high >= MAX_BID):
        return 1.0
    if action == PASS:
        return _below((state.high + 0.5 - value) / EVIDENCE_SPREAD)
    return 1.0 - _below((bid_amount(action) - 0.5 - value) / EVIDENCE_SPREAD)


def evidence(auction: tuple[tuple[int, int], ...], values: dict[int, float], dealer: int) -> float:
    """The chance of the auction so far under the model, with these hands' values."""
    weight = 1.0
    state = Auction(0, None)
    for seat, action in auction:
        if seat in values:
            forced = seat == dealer and state.holder is None
            weight *= likelihood(values[seat], action, state, forced)
        state = state.after(seat, action)
    return weight


def _below(z: float) -> float:
    return 0.5 * math.erfc(-z / math.sqrt(2))
