"""Themes: what a position teaches, worked out from the seat's view and the analysis.

Every test here reads only the seat's view (its hand, the auction, the cards played)
and the priced options, so a theme never hints at a card the learner cannot see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from game.engine.cards import (
    JOKER_1,
    RANK_OF,
    RANKS,
    SUIT_MASK,
    SUIT_OF,
    card_code,
    jack_of,
    parse_card,
)
from game.engine.rules import is_bid, trick_winner
from game.engine.view import SeatView

if TYPE_CHECKING:
    from .positions import Option

THEMES: dict[str, str] = {
    "bidding": "Bidding",
    "choosing-trump": "Choosing trump",
    "discarding": "Discarding",  # the full-deck tables' exchange (learn.core.variant_themes)
    "drawing-trump": "Drawing trump",
    "protecting-jack": "Protecting the jack",
    "tens-for-game": "Tens for game",
    "joker": "Jokers",
    "low": "Low",
    "endgame": "Endgame",
    "partner-support": "Partner support",
    "defence": "Setting the bidder",
    "match-score": "Playing to the score",
}

TEN = RANKS.index("10")
ENDGAME_TRICKS = 3  # from the fourth trick on, three tricks or fewer are left
SCORE_PRESSURE = 6  # a unit this close to the target makes the match score matter
DEFENCE_GAIN = 0.1  # the best play cuts the bidder's chance by at least this much


def themes_for(view: SeatView, options: Sequence[Option], phase: str) -> tuple[str, ...]:
    """The theme slugs of a decision, in the order of THEMES."""
    found: set[str] = set()
    if phase == "auction":
        found.add("bidding")
        if partner_holds_bid(view):
            found.add("partner-support")
    else:
        found |= _card_themes(view, options, phase)
    if max(view.scores, default=0) >= view.target - SCORE_PRESSURE:
        found.add("match-score")
    return tuple(slug for slug in THEMES if slug in found)


def _card_themes(view: SeatView, options: Sequence[Option], phase: str) -> set[str]:
    best = parse_card(options[0].code)
    # before the opening lead, the suit led becomes trump
    trump = view.trump if view.trump is not None else SUIT_OF[best]
    trick = [card for _, card in view.current_trick]
    found = set()
    if phase == "lead" and view.trump is None:
        found.add("choosing-trump")
    if phase == "lead" and view.trump is not None and _draws_trump(view, best, trump):
        found.add("drawing-trump")
    if _protects_jack(view, options, best, trump):
        found.add("protecting-jack")
    if RANK_OF[best] == TEN or (trick and _wins_ten(trick, best, trump)):
        found.add("tens-for-game")
    if best >= JOKER_1 or any(card >= JOKER_1 for card in trick):
        found.add("joker")
    if may_be_low(view, best, trump):
        found.add("low")
    if len(view.trick_winners) >= ENDGAME_TRICKS:
        found.add("endgame")
    if phase == "follow" and partner_winning(view, trick, trump):
        found.add("partner-support")
    if _sets_the_bidder(view, options):
        found.add("defence")
    return found


def partner_holds_bid(view: SeatView) -> bool:
    bids = [seat for seat, action in view.auction if is_bid(action)]
    return bool(bids) and bids[-1] != view.seat and view.unit_of[bids[-1]] == view.unit


def _draws_trump(view: SeatView, best: int, trump: int) -> bool:
    """A trump lead while others may still hold trump."""
    return SUIT_OF[best] == trump and bool(view.unseen & SUIT_MASK[trump])


def _protects_jack(view: SeatView, options: Sequence[Option], best: int, trump: int) -> bool:
    """We hold the jack of trump, could play it, something could take it, and the best
    play keeps it back."""
    jack = jack_of(trump)
    if not view.hand >> jack & 1 or best == jack:
        return False
    if not (higher_trumps_out(view, trump) or higher_in_trick(view, trump) is not None):
        return False  # nothing can take it: keeping it back is not protecting it
    jack_option = next((o for o in options if o.code == card_code(jack)), None)
    return jack_option is not None and jack_option.value < options[0].value


def higher_trumps_out(view: SeatView, trump: int) -> int:
    """The trumps above the jack that the seat has not seen (a mask)."""
    jack = jack_of(trump)
    return view.unseen & SUIT_MASK[trump] & ~((2 << jack) - 1)


def higher_in_trick(view: SeatView, trump: int) -> int | None:
    """A trump above the jack that the other side has played to this trick."""
    jack = jack_of(trump)
    for seat, card in view.current_trick:
        above = card < JOKER_1 and SUIT_OF[card] == trump and card > jack
        if above and view.unit_of[seat] != view.unit:
            return card
    return None


def _wins_ten(trick: list[int], best: int, trump: int) -> bool:
    """A ten lies in the trick and the best card takes it."""
    has_ten = any(card < JOKER_1 and RANK_OF[card] == TEN for card in trick)
    return has_ten and trick_winner([*trick, best], trump) == len(trick)


def may_be_low(view: SeatView, card: int, trump: int) -> bool:
    """The card is trump and at most one unseen trump lies below it, none seen: it is
    low, or very likely low (the point goes to whoever was dealt it)."""
    if card >= JOKER_1 or SUIT_OF[card] != trump:
        return False
    below = view.deck & SUIT_MASK[trump] & ((1 << card) - 1)
    return not below & (view.hand | view.played) and below.bit_count() <= 1


def certainly_low(view: SeatView, card: int, trump: int) -> bool:
    """The card is the deck's lowest trump: the rules make it the low, whoever holds the
    rest (nothing below it was put in this deck)."""
    if card >= JOKER_1 or SUIT_OF[card] != trump:
        return False
    return not view.deck & SUIT_MASK[trump] & ((1 << card) - 1)


def certainly_high(view: SeatView, card: int, trump: int) -> bool:
    """The card is the deck's highest trump: the rules make it the high."""
    if card >= JOKER_1 or SUIT_OF[card] != trump:
        return False
    return not view.deck & SUIT_MASK[trump] & ~((2 << card) - 1)


def partner_winning(view: SeatView, trick: list[int], trump: int) -> bool:
    if len(view.teams[view.unit]) < 2 or not trick:
        return False
    winner_seat = view.current_trick[trick_winner(trick, trump)][0]
    return winner_seat != view.seat and view.unit_of[winner_seat] == view.unit


def _sets_the_bidder(view: SeatView, options: Sequence[Option]) -> bool:
    if view.bidder is None or view.unit_of[view.bidder] == view.unit or len(options) < 2:
        return False
    best, second = options[0].made, options[1].made
    return best is not None and second is not None and second - best >= DEFENCE_GAIN
