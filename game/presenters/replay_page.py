"""The hand history page: a finished round laid out trick by trick."""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import notation
from game.engine.state import MatchState
from game.presenters.pieces import Trick, auction, tricks
from game.presenters.summary import RoundSummary, round_summary

# --- Hand history ---------------------------------------------------------------------


@dataclass(frozen=True)
class RoundReplay:
    number: int
    dealer: str
    house: bool  # the house rules: every dealt card is played, so hands show as dealt
    hands: tuple[tuple[str, tuple[str, ...]], ...]  # (seat name, dealt cards)
    auction: tuple[tuple[str, str], ...]
    tricks: tuple[Trick, ...]
    summary: RoundSummary


def round_replay(*, match: MatchState, number: int, names: dict[int, str]) -> RoundReplay:
    """A finished round laid out trick by trick; every card of it is public by now."""
    state = match.rounds[number]
    view = state.public_view()
    if view.rules.is_house:
        hands = tuple((names[s], notation.cards(hand)) for s, hand in enumerate(state.deal.hands))
    else:  # a discard is never shown: each seat's cards as it played them
        held = view.played_by
        hands = tuple((names[s], notation.cards(hand)) for s, hand in enumerate(held) if hand)
    return RoundReplay(
        number=number,
        dealer=names[view.dealer],
        house=view.rules.is_house,
        hands=hands,
        auction=auction(view, names),
        tricks=tricks(view, names),
        summary=round_summary(number, view, names),
    )
