"""smear-record/1: write a match, read it back, and replay it (shared/spec/record.md, and
shared/spec/variants.md for the table's ``rules``, naming trump and the discards)."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache
from typing import Any

from . import rules
from .cards import SUITS, card_code, cards_of, parse_card, parse_cards
from .rules import PASS
from .state import Deal, IllegalAction, MatchSetup, MatchState, RoundState
from .variants import DEFAULT_TARGET, HOUSE, Rules, RulesError, from_record

FORMAT = "smear-record/1"


class RecordError(ValueError):
    """A record that is malformed or breaks the rules; ``round``/``action`` locate it (0-based)."""

    def __init__(self, message: str, round: int | None = None, action: int | None = None):
        super().__init__(message)
        self.message = message
        self.round = round
        self.action = action

    def as_dict(self) -> dict[str, Any]:
        return {"error": self.message, "round": self.round, "action": self.action}


# --- Writing -----------------------------------------------------------------------


def write(match: MatchState) -> dict[str, Any]:
    setup = match.setup
    data = {
        "format": FORMAT,
        "players": setup.players,
        "teams": [list(unit) for unit in setup.teams],
        "target": setup.target,
    }
    if setup.rules != replace(HOUSE, target=setup.target):  # no rules: the house rules
        data["rules"] = setup.rules.to_record()
    data["rounds"] = [_write_round(state) for state in match.rounds]
    return data


def dumps(match: MatchState) -> str:
    return json.dumps(write(match))


def _codes(mask: int) -> list[str]:
    return [card_code(c) for c in cards_of(mask)]


def _write_round(state: RoundState) -> dict[str, Any]:
    deal = state.deal
    hidden = [card_code(c) for c in deal.pack] if deal.pack else _codes(deal.hidden)
    return {
        "dealer": deal.dealer,
        "hands": [_codes(hand) for hand in deal.hands],
        "hidden": hidden,
        "actions": [_write_action(seat, action) for seat, action in state.seated_history()],
    }


def _write_action(seat: int, action: int) -> dict[str, Any]:
    if action == PASS:
        return {"seat": seat, "pass": True}
    if rules.is_bid(action):
        return {"seat": seat, "bid": rules.bid_amount(action)}
    if rules.is_trump_action(action):
        return {"seat": seat, "trump": SUITS[rules.named_suit(action)]}
    if rules.is_discard(action):
        return {"seat": seat, "discard": _codes(rules.discarded(action))}
    return {"seat": seat, "play": card_code(action)}


# --- Reading -----------------------------------------------------------------------


def loads(text: str | bytes) -> Any:
    try:
        return json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise RecordError(f"not valid JSON: {error}") from None


def read(data: str | bytes | dict, legal_log: list[list[list[str]]] | None = None) -> MatchState:
    """The match a record describes, checked against the rules.

    Raises RecordError naming the first offending round and action. When ``legal_log``
    is given, it receives per round the sorted legal action codes before each action.
    """
    if isinstance(data, (str, bytes)):
        data = loads(data)
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {data.get('format')!r}")
    setup = _read_setup(data)
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise RecordError("rounds must be a list")
    first_dealer = _first_dealer(rounds, setup)
    match = MatchState(setup, first_dealer)
    for index, round_data in enumerate(rounds):
        match = _read_round(match, index, round_data, legal_log)
    return match


def _read_setup(data: dict) -> MatchSetup:
    players, teams = data.get("players"), data.get("teams")
    if not _is_int(players):
        raise RecordError("players must be a whole number")
    if not isinstance(teams, list) or not all(
        isinstance(unit, list) and all(_is_int(seat) for seat in unit) for unit in teams
    ):
        raise RecordError("teams must be a list of lists of seats")
    table = _read_rules(data)
    # without rules a record is the house rules at its own target, as before the variants
    target = data.get("target", table.target if "rules" in data else DEFAULT_TARGET)
    if not _is_int(target):
        raise RecordError("target must be a whole number")
    if "rules" in data and target != table.target:
        raise RecordError(f"rules: target is {table.target}, but the record says {target}")
    try:
        return MatchSetup(players, tuple(tuple(unit) for unit in teams), target, table)
    except ValueError as error:
        raise RecordError(str(error)) from None


def _read_rules(data: dict):
    if "rules" not in data:
        return HOUSE
    given = data["rules"]
    try:
        table = from_record(given)
    except RulesError as error:
        raise RecordError(f"rules: {error} (option {error.option})") from None
    if isinstance(given, dict):
        for option in ("players", "teams"):
            if option in given and given[option] != data.get(option):
                raise RecordError(f"rules: {option} differs from the record's (option {option})")
    return table


def _first_dealer(rounds: list, setup: MatchSetup) -> int:
    if rounds and isinstance(rounds[0], dict):
        dealer = rounds[0].get("dealer")
        if _is_int(dealer) and 0 <= dealer < setup.players:
            return dealer
    return 0  # a bad first dealer is reported by _read_round


def _read_round(match: MatchState, index: int, data: Any, legal_log: list | None) -> MatchState:
    if not isinstance(data, dict):
        raise RecordError("a round is a JSON object", index)
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise RecordError("actions must be a list", index)
    if match.is_terminal():
        raise RecordError("the match is already over", index, 0 if actions else None)
    if not match.needs_deal():
        raise RecordError(f"round {index - 1} is unfinished", index)
    try:
        match = match.start_round(_read_deal(data, match.setup.rules))
    except (IllegalAction, ValueError) as error:
        raise RecordError(str(error), index) from None
    masks: list[int] | None = None if legal_log is None else []
    seated = (_read_action(data, index, number) for number, data in enumerate(actions))
    try:
        state = match.round.replay(seated, legal_log=masks)
    except IllegalAction as error:
        raise RecordError(str(error), index, error.index) from None
    if legal_log is not None:
        legal_log.append([list(_sorted_codes(mask)) for mask in masks])
    return MatchState(match.setup, match.first_dealer, match.rounds[:-1] + (state,))


@lru_cache(maxsize=1 << 16)
def _sorted_codes(mask: int) -> tuple[str, ...]:
    """The actions of a legal-action mask as the replay prints them: codes, sorted as text.
    Legal sets repeat often across a file (about seven times each in 4-player play)."""
    codes, found = rules.ACTION_CODES, []
    while mask:
        lowest = mask & -mask
        found.append(codes[lowest.bit_length() - 1])
        mask ^= lowest
    found.sort()
    return tuple(found)


def _read_deal(data: dict, table: Rules) -> Deal:
    dealer, hands, hidden = data.get("dealer"), data.get("hands"), data.get("hidden")
    if not _is_int(dealer):
        raise ValueError("dealer must be a seat number")
    if not isinstance(hands, list) or not all(isinstance(hand, list) for hand in hands):
        raise ValueError("hands must be a list of lists of cards")
    if not isinstance(hidden, list):
        raise ValueError("hidden must be a list of cards")
    dealt = tuple(_read_cards(hand) for hand in hands)
    return Deal.of(dealer, dealt, _read_pack(hidden), rules=table)


def _read_cards(codes: list) -> int:
    mask = 0
    for c in parse_cards(codes):
        if mask >> c & 1:
            raise ValueError(f"{card_code(c)} is dealt twice")
        mask |= 1 << c
    return mask


def _read_pack(codes: list) -> list[int]:
    """The cards of a list of codes, in order, each once."""
    cards = parse_cards(codes)
    if len(set(cards)) != len(cards):
        _read_cards(codes)  # names the card dealt twice
    return cards


def _read_action(data: Any, round_index: int, number: int) -> tuple[int, int]:
    if data.__class__ is dict:  # the common case first, quickly: a known card played
        seat = data.get("seat")
        play = data.get("play")
        if play.__class__ is str and seat.__class__ is int and len(data) == 2:
            try:
                return seat, parse_card(play)
            except ValueError:
                pass  # told below
    return _read_any_action(data, round_index, number)


def _read_any_action(data: Any, round_index: int, number: int) -> tuple[int, int]:
    def fail(message: str) -> RecordError:
        return RecordError(message, round_index, number)

    if not isinstance(data, dict):
        raise fail("an action is a JSON object")
    seat = data.get("seat")
    if not _is_int(seat):
        raise fail("an action needs a seat number")
    kinds = [kind for kind in _ACTION_KINDS if kind in data]
    if len(kinds) != 1:
        raise fail("an action has exactly one of bid, pass, trump, discard or play")
    kind = kinds[0]
    value = data[kind]
    if kind == "pass":
        if value is not True:
            raise fail("pass must be true")
        return seat, PASS
    if kind == "bid":
        if not _is_int(value) or not 1 <= value <= rules.MOST_POINTS:
            raise fail(f"a bid is a whole number from 1 to {rules.MOST_POINTS}")
        return seat, rules.bid_action(value)
    if kind == "trump":
        if not isinstance(value, str) or value.upper() not in SUITS or len(value) != 1:
            raise fail("trump is a suit: S, H, D or C")
        return seat, rules.trump_action(SUITS.index(value.upper()))
    if kind == "discard":
        if not isinstance(value, list) or not all(isinstance(code, str) for code in value):
            raise fail("discard is a list of card codes")
        try:
            return seat, rules.discard_action(_read_cards(value))
        except ValueError as error:
            raise fail(str(error)) from None
    if not isinstance(value, str):
        raise fail("play must be a card code")
    try:
        return seat, parse_card(value)
    except ValueError as error:
        raise fail(str(error)) from None


_ACTION_KINDS = ("bid", "pass", "trump", "discard", "play")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- Replay ------------------------------------------------------------------------


def replay(data: str | bytes | dict) -> dict[str, Any]:
    """The replay command's output object for one record: its rounds and winner, or its error."""
    legal_log: list[list[list[str]]] = []
    try:
        match = read(data, legal_log)
    except RecordError as error:
        return error.as_dict()
    return {
        "rounds": [
            _round_summary(state, legal)
            for state, legal in zip(match.rounds, legal_log, strict=True)
        ],
        "winner": match.winner,
    }


def _round_summary(state: RoundState, legal: list[list[str]]) -> dict[str, Any]:
    result = state.result
    bidder = state.bidder_seat
    summary = {
        "legal": legal,
        "trump": SUITS[state.trump] if state.trump >= 0 else None,
        "points": result.points.by_name() if result else None,
        "raw": list(result.raw) if result else None,
        "match_after": list(result.match_after) if result else None,
        "bidder_unit": None if bidder is None else state.setup.unit_of[bidder],
        "bid": state.bid,
        "made": result.made if result else None,
    }
    if result is not None and result.redeal:
        summary["redeal"] = True
    return summary


def replay_lines(text: str) -> tuple[list[str], int]:
    """The replay command's output for a file's text: one JSON line per record, and how
    many records broke the rules."""
    lines, rejected = [], 0
    for chunk in split_records(text):
        result = replay(chunk)
        rejected += "error" in result
        lines.append(json.dumps(result))
    return lines, rejected


def split_records(text: str) -> list[str]:
    """One record per line (JSON Lines), or the whole text when it is a single JSON value."""
    stripped = text.strip()
    if not stripped:
        return []
    try:
        json.loads(stripped)
    except ValueError:
        return [line for line in text.splitlines() if line.strip()]
    return [stripped]
