"""Playing cards in templates: ``{% card "10H" %}`` draws one.

``"10H"|card_face`` gives what the partial needs, for templates that lay cards out
themselves. A card code is what the engine and the game record use: ``10H``, ``AS``,
``J1``, ``J2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from game.engine import cards, notation

register = template.Library()

STATES = ("", "playable", "unplayable")

_SUITS = {
    # U+FE0E asks for the text glyph, never a coloured emoji
    "S": ("\u2660\ufe0e", "black"),
    "H": ("\u2665\ufe0e", "red"),
    "D": ("\u2666\ufe0e", "red"),
    "C": ("\u2663\ufe0e", "black"),
}


@dataclass(frozen=True)
class CardFace:
    code: str
    rank: str  # what the corner shows: 10, J, ... or a star for a joker
    symbol: str
    colour: str  # red, black or joker
    label: str  # what a screen reader says: "10 of hearts", "joker"

    @property
    def is_joker(self) -> bool:
        return self.colour == "joker"


@register.filter
def card_face(code: str) -> CardFace:
    card = cards.parse_card(code)  # an unknown code is a bug in the caller: fail loudly
    canonical = cards.card_code(card)
    if card >= cards.JOKER_1:
        return CardFace(code=canonical, rank="\u2605", symbol="", colour="joker", label="joker")
    symbol, colour = _SUITS[cards.SUITS[cards.SUIT_OF[card]]]
    return CardFace(
        code=canonical,
        rank=cards.RANKS[cards.RANK_OF[card]],
        symbol=symbol,
        colour=colour,
        label=notation.card_name(card),
    )


@register.simple_tag
def card(code: str, state: str = "") -> str:
    """One card; ``state`` is "playable" or "unplayable" where the page says which."""
    if state not in STATES:
        raise template.TemplateSyntaxError(f"card state {state!r} is not one of {STATES}")
    return _card_html(code, state)


# A table page draws a few dozen cards and every live update redraws them for each seat:
# built once per code and state, not rendered through a template each time.
@lru_cache(maxsize=len(STATES) * 64)
def _card_html(code: str, state: str) -> str:
    face = card_face(code)
    said = {"playable": ", can be played", "unplayable": ", cannot be played"}.get(state, "")
    corner = (
        mark_safe('<span class="card__joker" aria-hidden="true">Joker</span>')
        if face.is_joker
        else format_html('<span class="card__suit" aria-hidden="true">{}</span>', face.symbol)
    )
    return format_html(
        '<span class="card card--{}{}" role="img" aria-label="{}{}" data-card="{}">'
        '<span class="card__rank" aria-hidden="true">{}</span>{}</span>',
        face.colour,
        f" card--{state}" if state else "",
        face.label,
        said,
        face.code,
        face.rank,
        corner,
    )


# what stands around each card of a hand in the table's dock, as the template's loop laid
# it out (the whitespace between two cards is what keeps them apart on the page)
_HAND_GAP = "\n        "


@register.simple_tag
def hand_cards(hand, playing: bool = False) -> str:
    """A hand's cards in the dock, from its (code, playable) pairs: with ``playing`` (the
    seat is to play a card) each playable card is a button of the hand's form and each
    other one a slot; else each is a plain card. One piece per card, built once per code:
    the seat to act has its dock drawn again on every turn, and the template's loop over
    the cards cost that drawing half its time."""
    if not playing:
        return mark_safe("".join(_card_html(code, "") for code, _ in hand))
    return mark_safe("".join(_hand_piece(code, playable) for code, playable in hand))


@lru_cache(maxsize=2 * 64)
def _hand_piece(code: str, playable: bool) -> str:
    if playable:
        piece = format_html(
            '<button type="submit" class="card-button" name="action" value="{}">{}</button>',
            code,
            _card_html(code, "playable"),
        )
    else:
        piece = format_html('<span class="card-slot">{}</span>', _card_html(code, "unplayable"))
    return f"{_HAND_GAP}{piece}{_HAND_GAP}"


@register.filter
def suit_symbol(suit: str) -> str:
    """The symbol of a suit letter (S, H, D, C)."""
    return _SUITS[suit.upper()][0]


@register.filter
def suit_colour(suit: str) -> str:
    return _SUITS[suit.upper()][1]


@register.simple_tag
def mini_cards(codes) -> str:
    """Cards written small, rank and suit in a line (a seat's own fill or discard): the
    hand shows them in full."""
    return mark_safe(" ".join(_mini_card(code) for code in codes))


@lru_cache(maxsize=64)
def _mini_card(code: str) -> str:
    face = card_face(code)
    return format_html(
        '<span class="mini-card card--{}" role="img" aria-label="{}" data-card="{}">{}{}</span>',
        face.colour,
        face.label,
        face.code,
        face.rank,
        face.symbol,
    )
