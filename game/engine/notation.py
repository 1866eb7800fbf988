"""How actions and cards are written and said: the one copy of the game's words.

Codes are what the game record and the site's forms use (``bid:3``, ``pass``, ``10H``,
``J1``); words are what a person reads ("bid 3", "10 of hearts", "joker").
"""

from __future__ import annotations

from .cards import CARD_CODES, JOKER_1, RANK_OF, RANKS, SUIT_NAMES, SUIT_OF, SUITS, cards_of
from .rules import PASS, action_code, bid_amount, parse_action_code

# the names of the ranks that are not numbers
RANK_NAMES = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
POINT_LABELS = {"high": "High", "low": "Low", "jack": "Jack", "joker": "Joker", "game": "Game"}

action = action_code  # ``bid:3``, ``pass`` or a card code
parse_action = parse_action_code


def card(c: int | None) -> str | None:
    return None if c is None else CARD_CODES[c]


def cards(mask: int) -> tuple[str, ...]:
    return tuple(CARD_CODES[c] for c in cards_of(mask))


def suit_letter(suit: int) -> str:
    return SUITS[suit]


def suit_name(suit: int | str) -> str:
    """``spades`` for a suit, given as its number or its letter."""
    return SUIT_NAMES[suit if isinstance(suit, str) else SUITS[suit]]


def rank_name(rank: str, *, spelled: bool = False) -> str:
    """``jack`` for J; ``10`` for 10, or ``ten`` ``spelled`` out as a sentence says it."""
    if spelled and rank == "10":
        return "ten"
    return RANK_NAMES.get(rank, rank)


def card_name(c: int | str) -> str:
    """``10 of hearts``, ``jack of spades``, ``joker``."""
    c = c if isinstance(c, int) else parse_action_code(c)
    if c >= JOKER_1:
        return "joker"
    return f"{rank_name(RANKS[RANK_OF[c]])} of {suit_name(SUIT_OF[c])}"


def said(a: int) -> str:
    """An auction call as a person says it: ``pass`` or ``bid 3``."""
    return "pass" if a == PASS else f"bid {bid_amount(a)}"


def point_label(kind: str) -> str:
    return POINT_LABELS[kind]
