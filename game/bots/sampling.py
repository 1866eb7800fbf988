"""Deal the cards a seat has not seen, consistently with what it has seen.

Everything here starts from a SeatView: the seat's own hand, the cards played and by
whom, and the counts. A seat that did not follow suit has shown a void; a trump lead
answered with a plain off-suit card shows no trump and no joker left.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from game.engine.cards import HAND_SIZE, JOKER_1, JOKERS, SUIT_MASK, SUIT_OF, cards_of
from game.engine.solver import Position
from game.engine.view import SeatView


class NoConsistentDeal(RuntimeError):
    """The sampler could not place the unseen cards (should not happen for a real view)."""


@dataclass(frozen=True)
class Knowledge:
    """What a seat knows about the others, worked out once per decision."""

    unseen: int  # cards in other hands or hidden
    needs: tuple[int, ...]  # cards each seat still holds (0 for the viewer)
    barred: tuple[int, ...]  # cards each seat is known not to hold
    played_by: tuple[int, ...]  # cards each seat has played this round
    leader: int  # who leads (or led) the current trick
    trick: tuple[int, ...]
    taken: tuple[int, ...]  # cards each unit has captured


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
        unseen=view.unseen,
        needs=needs,
        barred=tuple(barred),
        played_by=tuple(played_by),
        leader=-1 if view.leader is None else view.leader,
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


def sample_hands(
    view: SeatView, known: Knowledge, rng: Random, tries: int = 200
) -> tuple[int, ...]:
    """Every seat's current hand in one deal consistent with the view."""
    seats = [s for s in range(view.players) if known.needs[s]]
    for _ in range(tries):
        pool = known.unseen
        hands = [0] * view.players
        hands[view.seat] = view.hand
        # the most constrained seats choose first
        order = sorted(seats, key=lambda s: (pool & ~known.barred[s]).bit_count() - known.needs[s])
        for seat in order:
            allowed = cards_of(pool & ~known.barred[seat])
            if len(allowed) < known.needs[seat]:
                break
            for card in rng.sample(allowed, known.needs[seat]):
                hands[seat] |= 1 << card
            pool &= ~hands[seat]
        else:
            return tuple(hands)
    raise NoConsistentDeal("no deal fits what this seat has seen")


def sample_position(view: SeatView, known: Knowledge, rng: Random) -> Position:
    """A complete deal consistent with the view, in the solver's terms."""
    hands = sample_hands(view, known, rng)
    dealt = tuple(hand | played for hand, played in zip(hands, known.played_by, strict=True))
    return Position(
        unit_of=view.unit_of,
        hands=hands,
        dealt=dealt,
        trump=-1 if view.trump is None else view.trump,
        leader=known.leader,
        trick=known.trick,
        taken=known.taken,
    )
