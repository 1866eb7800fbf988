"""A trainer position: one seat's decision in a real match, and its analysis as data.

A position is a smear-record/1 prefix (the match so far; the last round's actions stop
at the decision) plus the seat to act. Its options (every legal action, priced by the
expert's sampled-deal analysis), themes and a rating hint are plain data, so a position
is written once as JSON and read back anywhere. Pure Python: no Django here.

The record holds every seat's true hand. A page must render ``AnalysedPosition.view()`` (what
the seat may see) and nothing else from the record.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
from dataclasses import asdict, dataclass
from functools import cached_property
from typing import Any

from game.bots.expert import AuctionOutcome
from game.engine import record as records
from game.engine.cards import HAND_SIZE, card_code, cards_of, parse_card
from game.engine.rules import (
    MAX_BID,
    MIN_BID,
    Phase,
    action_code,
    discarded,
    is_discard,
    parse_action_code,
)
from game.engine.state import MatchState
from game.engine.variants import Rules
from game.engine.view import SeatView

from .themes import THEMES

# "lead" includes the house rules' opening lead that sets trump; "trump" (the bidder names
# a suit) and "discard" (a seat's whole discard) come only at the full-deck tables
PHASES = ("auction", "trump", "discard", "lead", "follow")
CARD_PHASES = ("lead", "follow")
DEFAULT_RATING = 1500.0


class PositionError(ValueError):
    """A position that cannot be read or used; the message is for a person."""


def outcome_to_json(found: AuctionOutcome) -> dict[str, Any]:
    """The expert's auction outcome as a bank stores it: its fields by name."""
    return asdict(found)


def outcome_from_json(data: Any, code: str) -> AuctionOutcome:
    """An auction outcome read back from a bank, every share between 0 and 1."""
    if not isinstance(data, dict):
        raise PositionError(f"option {code}: the auction outcome is a JSON object")
    name = f"option {code} auction"

    def share(key: str, optional: bool = False) -> float | None:
        if optional and data.get(key) is None:
            return None
        return _number(data.get(key), f"{name} {key}", minimum=0.0, maximum=1.0)

    points = data.get("others_points")
    return AuctionOutcome(
        lead=share("lead"),
        outbid=share("outbid"),
        winning_bid=_number(
            data.get("winning_bid"), f"{name} winning_bid", minimum=MIN_BID, maximum=MAX_BID
        ),
        made=share("made", optional=True),
        others_made=share("others_made", optional=True),
        others_points=None
        if points is None
        else _number(points, f"{name} others_points", minimum=0.0),
    )


@dataclass(frozen=True)
class Option:
    """One legal action and what the analysis says it is worth to the acting seat's side."""

    code: str  # the action as records write it: "pass", "bid:3", "10H", "J1"
    value: float  # expected match value: how far we gain on the best opponent, in match points
    value_se: float  # its standard error over the sampled deals
    # expected round points, (our side, everyone else); None for a pass in an analysis
    # that did not search the rest of the auction
    points: tuple[float, float] | None
    made: float | None  # chance the bid is made; None when it does not apply
    # an auction action's outcome; None for card plays and for older analyses
    auction: AuctionOutcome | None = None
    # the standard error of the best option's value minus this one's, deal by deal on
    # the deals both were priced on (0 for the best); None in banks written before it
    margin_se: float | None = None

    def margin_error(self, best: Option) -> float:
        """The standard error of ``best``'s lead over this option (``best``: the
        analysis's best option, which ``margin_se`` is measured from): paired where the
        analysis gave it, else the two errors as if independent."""
        if self.margin_se is not None:
            return self.margin_se
        return math.hypot(best.value_se, self.value_se)

    def to_json(self) -> dict[str, Any]:
        data = {
            "code": self.code,
            "value": self.value,
            "value_se": self.value_se,
            "points": None if self.points is None else list(self.points),
            "made": self.made,
        }
        if self.auction is not None:  # absent, not null: card plays stay as they were
            data["auction"] = outcome_to_json(self.auction)
        if self.margin_se is not None:
            data["margin_se"] = self.margin_se
        return data

    @classmethod
    def from_json(cls, data: Any) -> Option:
        if not isinstance(data, dict):
            raise PositionError("an option is a JSON object")
        code = data.get("code")
        if not isinstance(code, str):
            raise PositionError("an option needs its action code")
        points = data.get("points")
        if points is not None:
            if not isinstance(points, list) or len(points) != 2:
                raise PositionError(f"option {code}: points are a pair (ours, theirs)")
            points = tuple(_number(p, f"option {code} points", minimum=0.0) for p in points)
        made = data.get("made")
        if made is not None:
            made = _number(made, f"option {code} made", minimum=0.0, maximum=1.0)
        auction = data.get("auction")  # banks written before the auction was searched lack it
        if auction is not None:
            auction = outcome_from_json(auction, code)
        margin_se = data.get("margin_se")  # banks written before it lack it
        if margin_se is not None:
            margin_se = _number(margin_se, f"option {code} margin_se", minimum=0.0)
        return cls(
            code=code,
            value=_number(data.get("value"), f"option {code} value"),
            value_se=_number(data.get("value_se"), f"option {code} value_se", minimum=0.0),
            points=points,
            made=made,
            auction=auction,
            margin_se=margin_se,
        )


@dataclass(frozen=True)
class AnalysedPosition:
    """One seat's decision: the record up to it, and the analysis of every legal action."""

    record: dict  # smear-record/1: the match so far, stopping at the decision
    seat: int
    phase: str
    options: tuple[Option, ...]  # every legal action, best first
    themes: tuple[str, ...]  # slugs of learn.core.themes.THEMES
    deals: int  # sampled deals behind the analysis
    line: tuple[tuple[int, str], ...]  # best line in one sampled deal, from the decision on
    # that sampled deal's hands at the decision: the seat's own is real, the rest sampled
    line_hands: tuple[tuple[str, ...], ...]
    prior_rating: float = DEFAULT_RATING  # a difficulty hint before anyone has tried it

    def __hash__(self) -> int:
        return hash(self.key)

    @cached_property
    def key(self) -> str:
        """Stable id: the first 16 hex digits of the SHA-1 of the canonical (record, seat)."""
        return position_key(self.record, self.seat)

    @property
    def players(self) -> int:
        return self.record["players"]

    @property
    def rules(self) -> Rules:
        """The table's rules, from the record (no ``rules`` there: the house rules)."""
        return self._match.setup.rules

    @property
    def preset(self) -> str:
        return self.rules.preset

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def margin(self) -> float:
        """How much better the best option is than the second best, in match value."""
        if len(self.options) < 2:
            return 0.0
        return self.options[0].value - self.options[1].value

    @property
    def tricks_done(self) -> int:
        """Tricks finished before the decision: 0 for the auction and all of trick one."""
        return len(self.view().trick_winners)

    @property
    def barred(self) -> int:
        """How many of the seat's cards it may not play here (0 before the tricks)."""
        if self.phase not in CARD_PHASES:
            return 0
        return self.view().hand.bit_count() - len(self.legal_codes())

    def option(self, code: str) -> Option:
        for option in self.options:
            if option.code == code:
                return option
        raise PositionError(f"{code!r} is not a legal choice here")

    @cached_property
    def _match(self) -> MatchState:
        return _replay(self.record)

    def match(self) -> MatchState:
        """The match up to the decision, every hand in it: for the engine, never a page."""
        return self._match

    def view(self) -> SeatView:
        """What the seat to act may see: its own hand, the auction, the cards played."""
        return self._match.view_for(self.seat)

    def legal_codes(self) -> tuple[str, ...]:
        """The choices on offer: the legal actions, or at a discard the discards the
        analysis priced (a hand of nine has too many to list, most of them plainly worse)."""
        if self.phase == "discard":
            return tuple(option.code for option in self.options)
        return tuple(action_code(action) for action in self.view().legal_actions())

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "record": copy.deepcopy(self.record),
            "seat": self.seat,
            "players": self.players,
            "phase": self.phase,
            "options": [option.to_json() for option in self.options],
            "themes": list(self.themes),
            "deals": self.deals,
            "line": [[seat, code] for seat, code in self.line],
            "line_hands": [list(hand) for hand in self.line_hands],
            "prior_rating": self.prior_rating,
        }

    @classmethod
    def from_json(cls, data: Any) -> AnalysedPosition:
        """A position from its JSON, checked against the rules; PositionError if malformed."""
        if not isinstance(data, dict):
            raise PositionError("a position is a JSON object")
        match = _replay(data.get("record"))
        record = records.write(match)  # canonical spelling, so the key is stable
        seat = _decision_seat(match, data.get("seat"))
        view = match.view_for(seat)
        phase = data.get("phase")
        if phase not in PHASES:
            raise PositionError(f"unknown phase {phase!r}: one of {', '.join(PHASES)}")
        if phase != phase_of(view):
            raise PositionError(f"the phase is {phase_of(view)!r}, not {phase!r}")
        position = cls(
            record=record,
            seat=seat,
            phase=phase,
            options=_read_options(data.get("options"), view),
            themes=_read_themes(data.get("themes")),
            deals=_read_deals(data.get("deals")),
            line=_read_line(data.get("line"), view),
            line_hands=_read_line_hands(data.get("line_hands"), view),
            prior_rating=_number(data.get("prior_rating", DEFAULT_RATING), "prior_rating"),
        )
        if "key" in data and data["key"] != position.key:
            raise PositionError(f"the key {data['key']!r} does not match the record and seat")
        return position


def position_key(record: dict, seat: int) -> str:
    canonical = json.dumps([record, seat], sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(canonical.encode()).hexdigest()[:16]


def phase_of(view: SeatView) -> str:
    if view.phase is Phase.TRUMP:
        return "trump"
    if view.phase is Phase.EXCHANGE:
        return "discard"
    if len(view.auction) < view.players:
        return "auction"
    return "follow" if view.current_trick else "lead"


# --- Reading -----------------------------------------------------------------------


def _replay(record: Any) -> MatchState:
    if not isinstance(record, dict):
        raise PositionError("the record is missing or is not a JSON object")
    try:
        return records.read(record)
    except records.RecordError as error:
        raise PositionError(f"the record is not valid: {error.message}{_where(error)}") from None
    except (TypeError, ValueError) as error:
        raise PositionError(f"the record is not valid: {error}") from None


def _where(error: records.RecordError) -> str:
    if error.round is None:
        return ""
    if error.action is None:
        return f" (round {error.round})"
    return f" (round {error.round}, action {error.action})"


def _decision_seat(match: MatchState, seat: Any) -> int:
    to_act = match.current_player()
    if to_act is None:
        raise PositionError("the record has no decision left: its last round is over")
    if not _is_int(seat):
        raise PositionError("seat must be a seat number")
    if seat != to_act:
        raise PositionError(f"seat {seat} is not to act: seat {to_act} is")
    return seat


def _read_options(data: Any, view: SeatView) -> tuple[Option, ...]:
    if not isinstance(data, list) or not data:
        raise PositionError("options must be a non-empty list")
    options = tuple(Option.from_json(item) for item in data)
    codes = [option.code for option in options]
    legal = {action_code(action) for action in view.legal_actions()}
    if view.phase is Phase.EXCHANGE:  # the candidates priced, not every legal discard
        _check_discards(codes, view)
    elif len(set(codes)) != len(codes) or set(codes) != legal:
        missing = sorted(legal - set(codes))
        extra = sorted(set(codes) - legal)
        raise PositionError(
            "options must be exactly the legal actions, once each"
            + (f"; missing {', '.join(missing)}" if missing else "")
            + (f"; not legal {', '.join(extra)}" if extra else "")
        )
    if any(option.auction is not None and not _is_call_code(option.code) for option in options):
        raise PositionError("only an auction action has an auction outcome")
    if any(a.value < b.value for a, b in zip(options, options[1:], strict=False)):
        raise PositionError("options must be in order, best first")
    return options


def _check_discards(codes: list[str], view: SeatView) -> None:
    """A discard's options: different discards, each one the seat's rule allows."""
    if len(set(codes)) != len(codes):
        raise PositionError("options must be different discards")
    rule = view.discard_rule
    for code in codes:
        try:
            action = parse_action_code(code)
        except ValueError:
            raise PositionError(f"{code!r} is not an action") from None
        if not is_discard(action) or action_code(action) != code:
            raise PositionError(f"{code!r} is not a discard: seat {view.seat} discards")
        cards = discarded(action)
        if not rule.allows(cards):
            raise PositionError(f"{code} is not a legal discard: {rule.why_not(cards, view.hand)}")


def _read_themes(data: Any) -> tuple[str, ...]:
    if not isinstance(data, list) or not all(isinstance(slug, str) for slug in data):
        raise PositionError("themes must be a list of theme names")
    unknown = [slug for slug in data if slug not in THEMES]
    if unknown:
        raise PositionError(f"unknown theme {', '.join(unknown)}")
    if len(set(data)) != len(data):
        raise PositionError("a theme is listed twice")
    return tuple(data)


def _read_deals(data: Any) -> int:
    if not _is_int(data) or data < 0:
        raise PositionError("deals must be a whole number, 0 or more")
    return data


def _read_line(data: Any, view: SeatView) -> tuple[tuple[int, str], ...]:
    if not isinstance(data, list):
        raise PositionError("line must be a list of [seat, action] pairs")
    line = []
    for step in data:
        if not (isinstance(step, list) and len(step) == 2 and _is_int(step[0])):
            raise PositionError("each step of the line is [seat, action]")
        seat, code = step
        if not 0 <= seat < view.players:
            raise PositionError(f"seat {seat} of the line is not at this table")
        if not isinstance(code, str) or not _is_action_code(code):
            raise PositionError(f"{code!r} in the line is not an action")
        line.append((seat, code))
    if line and line[0][0] != view.seat:
        raise PositionError("the line must start with the seat to act")
    return tuple(line)


def _read_line_hands(data: Any, view: SeatView) -> tuple[tuple[str, ...], ...]:
    if not isinstance(data, list) or not all(isinstance(hand, list) for hand in data):
        raise PositionError("line_hands must be a list of hands")
    if not data:
        return ()
    if not view.rules.is_house:
        raise PositionError("line_hands are kept for house-rules positions only")
    if len(data) != view.players:
        raise PositionError(f"line_hands needs one hand per seat: {view.players}")
    masks = [_read_hand(hand) for hand in data]
    played_by = view.played_by
    seen = 0
    for seat, mask in enumerate(masks):
        if mask & seen:
            raise PositionError("line_hands deal a card twice")
        seen |= mask
        if mask.bit_count() != HAND_SIZE - played_by[seat].bit_count():
            raise PositionError(f"seat {seat} of line_hands holds the wrong number of cards")
    if masks[view.seat] != view.hand:
        raise PositionError("line_hands must give the seat to act its own hand")
    if seen & ~(view.hand | view.unseen):
        raise PositionError("line_hands hold cards that are already played or not in the deck")
    return tuple(tuple(card_code(c) for c in cards_of(mask)) for mask in masks)


def _read_hand(codes: list) -> int:
    mask = 0
    for code in codes:
        try:
            card = parse_card(code)
        except ValueError:
            raise PositionError(f"{code!r} in line_hands is not a card") from None
        if mask >> card & 1:
            raise PositionError("line_hands deal a card twice")
        mask |= 1 << card
    return mask


def _is_action_code(code: str) -> bool:
    try:
        return action_code(parse_action_code(code)) == code
    except ValueError:
        return False


def _is_call_code(code: str) -> bool:
    """A bid or the pass: an auction action."""
    return code == "pass" or code.startswith("bid:")


def _number(
    value: Any, name: str, minimum: float | None = None, maximum: float | None = None
) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise PositionError(f"{name} must be a finite number")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise PositionError(f"{name} is out of range: {value}")
    return float(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
