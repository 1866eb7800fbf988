"""Themes of a decision at a full-deck table (classic, six-handed, seven-point).

``learn.core.themes`` reads the house rules' cards (the opening lead sets trump, the house
jokers, the house follow rule); here the table's own trumps do (``SeatView.trumps``:
the jick and the jokers where it plays them). Only the seat's view and the priced
options are read, so a theme never hints at a card the learner cannot see. Pure Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from game.engine.cards import JOKERS, RANK_OF, RANKS
from game.engine.rules import parse_action_code
from game.engine.view import SeatView

from .themes import ENDGAME_TRICKS, SCORE_PRESSURE, THEMES, partner_holds_bid

if TYPE_CHECKING:
    from .positions import Option

TEN = RANKS.index("10")


def family_themes(view: SeatView, options: Sequence[Option], phase: str) -> tuple[str, ...]:
    """The theme slugs of a full-deck decision, in the order of THEMES."""
    found: set[str] = set()
    if phase == "auction":
        found.add("bidding")
        if partner_holds_bid(view):
            found.add("partner-support")
    elif phase == "trump":
        found.add("choosing-trump")
    elif phase == "discard":
        found.add("discarding")
    else:
        found |= _card_themes(view, parse_action_code(options[0].code), phase)
    if max(view.scores, default=0) >= view.target - SCORE_PRESSURE:
        found.add("match-score")
    return tuple(slug for slug in THEMES if slug in found)


def _card_themes(view: SeatView, best: int, phase: str) -> set[str]:
    trumps = view.trumps
    found = set()
    is_trump = trumps is not None and trumps.strength[best] >= 0
    # a trump led while cards the seat has not seen may still hold trump
    if phase == "lead" and is_trump and view.unseen & trumps.cards:
        found.add("drawing-trump")
    if not JOKERS >> best & 1 and RANK_OF[best] == TEN:
        found.add("tens-for-game")
    if JOKERS >> best & 1 or any(JOKERS >> card & 1 for _, card in view.current_trick):
        found.add("joker")
    if len(view.trick_winners) >= ENDGAME_TRICKS:
        found.add("endgame")
    return found
