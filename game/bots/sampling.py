"""What a seat knows, worked out from its SeatView, for the engine's sampler.

Everything here starts from a SeatView: the seat's own hand, the cards played and by
whom, the counts, and the voids the engine says each seat has shown. The deals
themselves come from ``game.engine.solver.sample_deals`` (native when the core is built).
"""

from __future__ import annotations

from random import Random

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
    played_by = view.played_by
    needs = tuple(0 if seat == view.seat else size for seat, size in enumerate(view.hand_sizes))
    return Knowledge(
        unit_of=view.unit_of,
        seat=view.seat,
        hand=view.hand,
        unseen=view.unseen,
        needs=needs,
        barred=view.voids,
        played_by=played_by,
        trump=-1 if view.trump is None else view.trump,
        # during the auction: as if this seat had won it and were about to lead
        leader=view.seat if view.leader is None else view.leader,
        trick=tuple(card for _, card in view.current_trick),
        taken=view.taken,
    )


def sample_position(view: SeatView, known: Knowledge, rng: Random) -> Position:
    """A complete deal consistent with the view, in the solver's terms; during the auction,
    as if this seat had won it and were about to lead."""
    return sample_deals(known, 1, rng.getrandbits(64))[0]


def sample_hands(view: SeatView, known: Knowledge, rng: Random) -> tuple[int, ...]:
    """Every seat's current hand in one deal consistent with the view."""
    return sample_position(view, known, rng).hands
