"""The analysis board as a short URL-safe string, read and written (docs/analysis-board.md).

    1~house~02.13~3~0.0~0~AS10SJSJ1KHQD.x.x.x~x~b2.p.p.p.AS

Nine fields split by ``~``: the notation's version, the rules (a preset and the options
that differ), the scoring units, the dealer, the match scores, the seat asking, the hands
(``x`` where not given), the pack (``x`` where not given) and the actions; and a tenth,
the asking seat's fill (the cards it drew from the pack), written only where given, so a
board of nine fields reads as it always did. Only letters,
digits and ``. - _ ~`` appear, so the string needs no escaping in a URL path or query.

``read`` checks the string's size and shape before anything else and raises
``BoardError`` (field ``notation``, or the board's own field) with a reason in words for
any string it cannot read; it never lets another exception out. What the position means
(a card in two hands, an illegal bid) is ``board.replay``'s to say.
"""

from __future__ import annotations

import re
from typing import Any

from .board import Board, BoardError
from .cards import CARD_CODES, SUITS, cards_of, parse_card
from .rules import (
    PASS,
    bid_action,
    bid_amount,
    discard_action,
    discarded,
    is_bid,
    is_card,
    is_discard,
    is_trump_action,
    named_suit,
    trump_action,
)
from .variants import OPTIONS, RulesError, from_record

VERSION = "1"
# the longest board: eight hands of six, the whole pack, every action of a round, and
# every option written out, fit well inside this
MAX_LENGTH = 1200
MAX_SCORE_DIGITS = 4
UNKNOWN = "x"
FIELDS = ("version", "rules", "teams", "dealer", "scores", "seat", "hands", "pack", "actions")
FILL = "fill"  # the tenth field, only where the asking seat's fill is given

_ALPHABET = re.compile(r"[A-Za-z0-9._~-]*")
# one card: a rank and a suit, or a joker (J1, J2); case-insensitive
_CARD = re.compile(r"(?:10|[2-9JQKA])[SHDC]|J[12]", re.IGNORECASE)
_NUMBER = re.compile(rf"-?[0-9]{{1,{MAX_SCORE_DIGITS}}}")


def write(board: Board) -> str:
    """The board's notation (``read`` gives the same board back)."""
    hands = ".".join(UNKNOWN if hand is None else _cards(cards_of(hand)) for hand in board.hands)
    pack = UNKNOWN if board.pack is None else _cards(board.pack)
    fields = (
        VERSION,
        write_rules(board.rules),
        ".".join("".join(map(str, unit)) for unit in board.teams),
        str(board.dealer),
        ".".join(map(str, board.scores)),
        str(board.seat),
        hands,
        pack,
        ".".join(_action(action) for _, action in board.actions),
    )
    if board.fill is not None:
        fields += (_cards(cards_of(board.fill)),)
    return "~".join(fields)


def write_rules(rules) -> str:
    """The notation's rules field alone: a preset and the options that differ."""
    return _rules(rules.to_record())


def write_action(action: int) -> str:
    """One action as the notation's actions field writes it (``b3``, ``p``, ``AS``)."""
    return _action(action)


def read(text: Any) -> Board:
    """The board a notation names. Raises BoardError with the reason in words."""
    try:
        return _read(text)
    except BoardError:
        raise
    except (ValueError, TypeError, KeyError, IndexError) as error:  # a reason in words still
        raise BoardError("notation", f"the board cannot be read: {error}") from None


def _read(text: Any) -> Board:
    if not isinstance(text, str):
        raise BoardError("notation", "a board is written as text")
    if len(text) > MAX_LENGTH:
        raise BoardError(
            "notation", f"the board is {len(text)} characters long; at most {MAX_LENGTH}"
        )
    if not _ALPHABET.fullmatch(text):
        bad = next(ch for ch in text if not _ALPHABET.fullmatch(ch))
        raise BoardError(
            "notation", f"{bad!r} is not used in a board: letters, digits and . - _ ~ only"
        )
    parts = text.split("~")
    if len(parts) not in (len(FIELDS), len(FIELDS) + 1):
        raise BoardError(
            "notation",
            f"a board has {len(FIELDS)} fields split by ~ ({', '.join(FIELDS)}), and a tenth, "
            f"the seat's {FILL}, where it is given; not {len(parts)}",
        )
    version, rules, teams, dealer, scores, seat, hands, pack, actions = parts[: len(FIELDS)]
    fill = parts[len(FIELDS)] if len(parts) > len(FIELDS) else UNKNOWN
    if version != VERSION:
        raise BoardError("notation", f"this is board notation {VERSION}, not {version!r}")
    return Board(
        rules=_read_rules(rules),
        teams=_read_teams(teams),
        dealer=_read_seat(dealer, "dealer"),
        scores=tuple(_read_number(score, "scores") for score in scores.split(".")),
        seat=_read_seat(seat, "seat"),
        hands=tuple(_read_hand(hand, index) for index, hand in enumerate(hands.split("."))),
        pack=None if pack.lower() == UNKNOWN else tuple(_read_cards(pack, "pack", "the pack")),
        actions=tuple((None, _read_action(code, index)) for index, code in enumerate(
            actions.split(".") if actions else ()
        )),
        fill=_read_fill(fill),
    )  # fmt: skip


# --- Writing ---------------------------------------------------------------------------


def _cards(cards) -> str:
    return "".join(CARD_CODES[c] for c in cards)


def _rules(record: str | dict[str, Any]) -> str:
    if isinstance(record, str):
        return record
    options = [record["preset"]]
    for name, value in record.items():
        if name == "preset":
            continue
        if isinstance(value, bool):
            value = int(value)
        values = value if isinstance(value, list) else [value]
        options.append("-".join([name, *map(str, values)]))
    return ".".join(options)


def _action(action: int) -> str:
    if action == PASS:
        return "p"
    if is_bid(action):
        return f"b{bid_amount(action)}"
    if is_trump_action(action):
        return "t" + SUITS[named_suit(action)]
    if is_discard(action):
        return "d" + _cards(cards_of(discarded(action)))
    if is_card(action):
        return CARD_CODES[action]
    raise BoardError("actions", f"no action {action!r}")


# --- Reading ---------------------------------------------------------------------------

_WHOLE_OPTIONS = ("jokers", "deal", "target")
_LIST_OPTIONS = ("bids", "points")


def _read_rules(text: str) -> Any:
    preset, *options = text.split(".")
    record: dict[str, Any] = {"preset": preset}
    for option in options:
        name, *values = option.split("-")
        if name not in OPTIONS:
            raise BoardError("rules", f"no rules option called {name!r}")
        if name in record:
            raise BoardError("rules", f"the option {name} is given twice")
        if not values or not all(values):
            raise BoardError("rules", f"the option {name} needs a value")
        if name in _LIST_OPTIONS:
            record[name] = [_whole(v, name) for v in values] if name == "bids" else values
        elif len(values) != 1:
            raise BoardError("rules", f"the option {name} takes one value")
        elif name == "jick":
            if values[0] not in ("0", "1"):
                raise BoardError("rules", "jick is 1 (played) or 0")
            record[name] = values[0] == "1"
        elif name in _WHOLE_OPTIONS:
            record[name] = _whole(values[0], name)
        else:
            record[name] = values[0]
    try:
        return from_record(record if options else preset)
    except RulesError as error:
        raise BoardError("rules", str(error)) from None


def _whole(text: str, name: str) -> int:
    if not text.isdigit() or len(text) > 3:
        raise BoardError("rules", f"{name} is a whole number, not {text!r}")
    return int(text)


def _read_teams(text: str) -> tuple[tuple[int, ...], ...]:
    units = text.split(".")
    if not all(unit.isdigit() for unit in units):
        raise BoardError("teams", f"teams are seat digits, a unit each between dots, not {text!r}")
    return tuple(tuple(int(seat) for seat in unit) for unit in units)


def _read_seat(text: str, field: str) -> int:
    if len(text) != 1 or not text.isdigit():
        raise BoardError(field, f"the {field} is one seat digit, not {text!r}")
    return int(text)


def _read_number(text: str, field: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise BoardError(
            field, f"a score is a whole number of at most {MAX_SCORE_DIGITS} digits, not {text!r}"
        )
    return int(text)


def _read_hand(text: str, seat: int) -> int | None:
    if text.lower() == UNKNOWN:
        return None
    mask = 0
    for c in _read_cards(text, "hands", f"seat {seat}'s hand"):
        if mask >> c & 1:
            raise BoardError("hands", f"{CARD_CODES[c]} is written twice in seat {seat}'s hand")
        mask |= 1 << c
    return mask


def _read_fill(text: str) -> int | None:
    if text.lower() == UNKNOWN:
        return None
    if not text:
        raise BoardError("fill", "the fill is the cards the seat drew, or x where not given")
    mask = 0
    for c in _read_cards(text, "fill", "the fill"):
        if mask >> c & 1:
            raise BoardError("fill", f"{CARD_CODES[c]} is written twice in the fill")
        mask |= 1 << c
    return mask


def _read_cards(text: str, field: str, where: str) -> list[int]:
    """The cards written one after another, e.g. ``AS10SJ1``."""
    cards, at = [], 0
    while at < len(text):
        found = _CARD.match(text, at)
        if found is None:
            raise BoardError(field, f"{text[at : at + 3]!r} in {where} is not a card")
        cards.append(parse_card(found.group()))
        at = found.end()
    return cards


def _read_action(code: str, index: int) -> int:
    kind, rest = code[:1].lower(), code[1:]
    where = f"action {index + 1}"
    if code.lower() == "p":
        return PASS
    if kind == "b" and rest.isdigit() and len(rest) == 1:
        try:
            return bid_action(int(rest))
        except ValueError as error:
            raise BoardError("actions", f"{where}: {error}") from None
    if kind == "t" and len(rest) == 1 and rest.upper() in SUITS:
        return trump_action(SUITS.index(rest.upper()))
    if kind == "d":
        mask = 0
        for c in _read_cards(rest, "actions", f"the discard of {where}"):
            if mask >> c & 1:
                raise BoardError("actions", f"{CARD_CODES[c]} is discarded twice in {where}")
            mask |= 1 << c
        return discard_action(mask)
    if _CARD.fullmatch(code):
        return parse_card(code)
    raise BoardError(
        "actions", f"{where}, {code!r}, is not p, bN, a trump tS, a discard dCARDS or a card"
    )
