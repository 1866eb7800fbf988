"""How actions and cards are written and said: the one copy of the game's words.

Codes are what the game record and the site's forms use (``bid:3``, ``pass``, ``10H``,
``J1``); words are what a person reads ("bid 3", "10 of hearts", "joker").
"""

from __future__ import annotations

from .cards import CARD_CODES, JOKER_1, RANK_OF, RANKS, SUIT_NAMES, SUIT_OF, SUITS, cards_of
from .rules import (
    PASS,
    action_code,
    bid_amount,
    is_discard,
    is_trump_action,
    named_suit,
    parse_action_code,
)
from .variants import Rules

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
    """An auction call or the naming of trump as a person says it: ``pass``, ``bid 3``,
    ``spades``; a discard as ``discard 3``."""
    if is_trump_action(a):
        return suit_name(named_suit(a))
    if is_discard(a):
        return f"discard {(a & ((1 << 64) - 1)).bit_count()}"
    return "pass" if a == PASS else f"bid {bid_amount(a)}"


def point_label(kind: str) -> str:
    return POINT_LABELS[kind]


def point_word(kind: str) -> str:
    """A point's word, at the house rules (``point_label``) or a full-deck table
    (``POINT_NAMES``): "High", "Joker", "Jick"."""
    return POINT_LABELS.get(kind) or POINT_NAMES[kind]


# --- The table's rules in words ------------------------------------------------------

PRESET_NAMES = {
    "house": "House rules",
    "classic": "Classic four-point",
    "six_handed": "Six-handed",
    "seven_point": "Seven-point",
}
POINT_NAMES = {
    "high": "High",
    "low": "Low",
    "jack": "Jack",
    "jick": "Jick",
    "joker_high": "High joker",
    "joker_low": "Low joker",
    "jokers": "Joker",
    "game": "Game",
}
FOLLOW_SAID = {
    "house": "follow suit, or play trump or a joker; a trump lead must be answered with trump",
    "trump_any_time": "follow suit or trump, even holding the suit led; any card when void",
    "schmier": "follow suit while you can (no trumping while holding the suit led)",
}
EXCHANGE_SAID = {
    "none": "no discard",
    "discard_to_six": "every seat discards down to six, keeping its trumps",
    "discard_and_fill": (
        "every seat but the dealer throws its non-trumps and is filled up to six from the "
        "pack; the dealer takes the rest and discards to six, keeping every point card"
    ),
    "dealer_takes_pack": "the dealer takes the pack and discards to six, keeping every point card",
}


# the exchange in a few words, for a choice of game
EXCHANGE_BRIEF = {
    "discard_to_six": "discard to six",
    "discard_and_fill": "discard and fill",
    "dealer_takes_pack": "the dealer takes the pack",
}


def listed(words: list[str] | tuple[str, ...]) -> str:
    """``a, b and c`` in a sentence; ``nothing`` for none."""
    if len(words) < 2:
        return "".join(words) or "nothing"
    return ", ".join(words[:-1]) + " and " + words[-1]


def preset_name(name: str) -> str:
    return PRESET_NAMES.get(name, name)


def preset_brief(table: Rules) -> str:
    """A game in one line, for a choice among them: its name, who plays, the deal, its
    extra cards, how trump is set and the exchange."""
    low, high = min(table.players), max(table.players)
    seats = f"{low} to {high}" if high > low else str(low)
    parts = [f"{seats} players", f"{table.deal} cards"]
    if not table.is_house:
        extras = [f"{table.jokers} joker{'s' * (table.jokers != 1)}"] if table.jokers else []
        extras += ["the jick"] if table.jick else []
        parts += [" and ".join(extras)] if extras else []
    parts.append("the bidder names trump" if table.names_trump else "the first card led sets trump")
    if table.exchange in EXCHANGE_BRIEF:
        parts.append(EXCHANGE_BRIEF[table.exchange])
    return f"{preset_name(table.preset)}: {', '.join(parts)}"


def point_names(table: Rules) -> tuple[str, ...]:
    """Each point a round of this table holds, in the order they are told: ``Joker 1`` and
    ``Joker 2`` where one ``jokers`` point is counted per joker."""
    said = []
    for name in table.points:
        if name == "jokers" and table.jokers > 1:
            said += [f"Joker {n}" for n in range(1, table.jokers + 1)]
        else:
            said.append(POINT_NAMES[name])
    return tuple(said)


def rules_summary(table: Rules) -> tuple[str, ...]:
    """The table's rules at a glance, a short line each, in plain words."""
    lines = [preset_name(table.preset)]
    if table.is_house:
        lines.append("6 cards each from a deck cut for the table, two jokers")
    else:
        extras = [f"{table.jokers} joker{'s' * (table.jokers != 1)}"] if table.jokers else []
        extras += ["the jick"] if table.jick else []
        lines.append(
            f"{table.deal} cards each from the full deck"
            + (f" with {' and '.join(extras)}" if extras else "")
        )
    lines.append(
        f"bids {table.min_bid} to {table.max_bid}, for {table.point_count} points: "
        + ", ".join(point_names(table))
    )
    lines.append(
        "the dealer must bid if everyone passes"
        if table.dealer_must_open
        else "if everyone passes, the same dealer deals again"
    )
    lines.append(
        "the first card led sets trump" if not table.names_trump else "the bidder names trump"
    )
    if table.exchange != "none":
        lines.append(EXCHANGE_SAID[table.exchange])
    lines.append(FOLLOW_SAID[table.follow])
    lines.append(
        f"to {table.target}; only the bidder can go out"
        if table.non_bidders_capped
        else f"to {table.target}; anyone can go out, the bidder first"
    )
    return tuple(lines)
