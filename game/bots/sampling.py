"""What a seat knows, worked out from its SeatView, for the engine's sampler.

Everything here starts from a SeatView: the seat's own hand, the cards played and by
whom, and the counts. A seat that did not follow suit has shown a void; a trump lead
answered with a plain off-suit card shows no trump and no joker left. The deals
themselves come from ``game.engine.solver.sample_deals`` (native when the core is built).
"""

from __future__ import annotations

from random import Random

from game.engine.cards import HAND_SIZE, JOKER_1, JOKERS, SUIT_MASK, SUIT_OF
from game.engine.knowledge import Knowledge, NoConsistentDeal, as_leader
from game.engine.solver import Position, sample_deals
from game.engine.view import SeatView

__all__ = [
    "Knowledge",
    "NoConsistentDeal",
    "as_leader",
    "knowledge",
    "sample_hands",
    "sample_position",
]


def knowledge(view: SeatView) -> Knowledge:
    players = view.players
    played_by = [0] * players
    barred = [0] * players
    trump = -1 if view.trump is None else view.trump
    plays = view.plays
    for start in range(0, len(plays), players):
        trick = plays[start : start + players]
        led = trick[0][1]
        for seat, card in trick:
            played_by[seat] |= 1 << card
            barred[seat] |= _shown_void(card, led, trump)
    needs = tuple(
        0 if seat == view.seat else HAND_SIZE - played_by[seat].bit_count()
        for seat in range(players)
    )
    return Knowledge(
        unit_of=view.unit_of,
        seat=view.seat,
        hand=view.hand,
        unseen=view.unseen,
        needs=needs,
        barred=tuple(barred),
        played_by=tuple(played_by),
        trump=trump,
        # during the auction: as if this seat had won it and were about to lead
        leader=view.seat if view.leader is None else view.leader,
        trick=tuple(card for _, card in view.current_trick),
        taken=view.taken,
    )


def _shown_void(card: int, led: int, trump: int) -> int:
    """The cards a seat cannot hold after playing ``card`` to a trick led by ``led``."""
    if card == led or led >= JOKER_1 or card >= JOKER_1:
        return 0
    if SUIT_OF[card] == trump:
        return 0  # trump is always allowed: it shows nothing
    if SUIT_OF[led] == trump:
        return SUIT_MASK[trump] | JOKERS  # a plain card on a trump lead: no trump, no joker
    if SUIT_OF[card] != SUIT_OF[led]:
        return SUIT_MASK[SUIT_OF[led]]
    return 0


def sample_position(view: SeatView, known: Knowledge, rng: Random) -> Position:
    """A complete deal consistent with the view, in the solver's terms; during the auction,
    as if this seat had won it and were about to lead."""
    return sample_deals(known, 1, rng.getrandbits(64))[0]


def sample_hands(view: SeatView, known: Knowledge, rng: Random) -> tuple[int, ...]:
    """Every seat's current hand in one deal consistent with the view."""
    return sample_position(view, known, rng).hands
