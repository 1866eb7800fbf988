"""The table's rules as one value: the presets of the Smear family and their options.

The contract is ``shared/spec/variants.md``. A ``Rules`` value names every option; the
engine, the bots, the trainer, the score sheet and the rules page all read it, and
nothing else names a variant. A record carries it as a preset's name, or as an object
with ``preset`` and the options that differ from it (``to_record`` / ``from_record``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from .cards import LOW_RANK

# every point a table may play, in the order they are told
POINT_NAMES = ("high", "low", "jack", "jick", "joker_high", "joker_low", "jokers", "game")
HOUSE_POINTS = ("high", "low", "jack", "jokers", "game")

OPTION_VALUES = {
    "deck": ("house", "full"),
    "all_pass": ("dealer_opens", "redeal"),
    "trump": ("first_lead", "bidder_names"),
    "exchange": ("none", "discard_to_six", "discard_and_fill", "dealer_takes_pack"),
    "follow": ("house", "trump_any_time", "schmier"),
    "high_low": ("house", "ace_two"),
    "going_out": ("bidder_only", "bidder_first"),
}
DEALS = (6, 9)
TARGETS = (5, 100)
# the score a match is played to unless the table says otherwise
DEFAULT_TARGET = 21
# the most points a table can play: high, low, jack, jick, two jokers and game
MOST_POINTS = 7


class RulesError(ValueError):
    """Rules that are unknown or contradictory; ``option`` names the one at fault."""

    def __init__(self, option: str, message: str):
        super().__init__(message)
        self.option = option


@dataclass(frozen=True)
class Rules:
    """Every option of a table (``shared/spec/variants.md``), with the preset it came from.

    ``players`` lists the seat counts the table may have; ``layouts`` is ``"any"`` (any
    partition of the seats) or ``"sides"`` (every seat for itself, or two sides of
    alternating seats).
    """

    preset: str
    players: tuple[int, ...]
    layouts: str
    deck: str
    jokers: int
    jick: bool
    deal: int
    bids: tuple[int, int]
    all_pass: str
    trump: str
    exchange: str
    follow: str
    points: tuple[str, ...]
    high_low: str
    going_out: str
    target: int = DEFAULT_TARGET
    # derived: how many points a round holds
    point_count: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "bids", tuple(self.bids))
        object.__setattr__(self, "points", tuple(self.points))
        object.__setattr__(self, "players", tuple(self.players))
        check(self)
        count = sum(self.jokers if name == "jokers" else 1 for name in self.points)
        object.__setattr__(self, "point_count", count)

    # --- what the options imply -------------------------------------------------------

    @property
    def is_house(self) -> bool:
        """Seed 000's card game: the functional deck, its jokers and its follow rule."""
        return self.deck == "house"

    @property
    def names_trump(self) -> bool:
        return self.trump == "bidder_names"

    @property
    def min_bid(self) -> int:
        return self.bids[0]

    @property
    def max_bid(self) -> int:
        return self.bids[1]

    @property
    def dealer_must_open(self) -> bool:
        return self.all_pass == "dealer_opens"

    @property
    def non_bidders_capped(self) -> bool:
        return self.going_out == "bidder_only"

    def allows_players(self, players: int) -> bool:
        return players in self.players

    def allows_layout(self, players: int, teams: tuple[tuple[int, ...], ...]) -> bool:
        """Whether ``teams`` (already a partition of the seats) is a layout this table takes."""
        if self.layouts == "any" or all(len(unit) == 1 for unit in teams):
            return True
        sides = (tuple(range(0, players, 2)), tuple(range(1, players, 2)))
        return players % 2 == 0 and sorted(map(tuple, teams)) == sorted(sides)

    def describe_layouts(self, players: int) -> str:
        if self.layouts == "any":
            return "any teams"
        if players % 2:
            return "every seat for itself"
        return "every seat for itself, or two sides of alternating seats"

    def to_record(self) -> str | dict[str, Any]:
        """The record's ``rules``: the preset's name, or its name and the options that differ."""
        base = PRESETS[self.preset]
        changed = {
            f.name: _plain(getattr(self, f.name))
            for f in fields(self)
            if f.init and f.name not in ("preset", "players", "layouts")
            and getattr(self, f.name) != getattr(base, f.name)
        }  # fmt: skip
        return {"preset": self.preset, **changed} if changed else self.preset

    def with_options(self, **options: Any) -> Rules:
        """These rules with some options changed, the points and the bids following the
        jokers and the jick unless they are given too (``shared/spec/variants.md``)."""
        return from_record({"preset": self.preset, **_changes(self), **options})


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _changes(rules: Rules) -> dict[str, Any]:
    found = rules.to_record()
    return {} if isinstance(found, str) else {k: v for k, v in found.items() if k != "preset"}


# --- Consistency -----------------------------------------------------------------------


def check(rules: Rules) -> None:
    """Raise RulesError naming the first option that is out of range or contradicts another."""
    for option, allowed in OPTION_VALUES.items():
        value = getattr(rules, option)
        if value not in allowed:
            raise RulesError(option, f"{option} is one of {_listed(allowed)}, not {value!r}")
    if rules.jokers not in (0, 1, 2) or isinstance(rules.jokers, bool):
        raise RulesError("jokers", f"jokers is 0, 1 or 2, not {rules.jokers!r}")
    if not isinstance(rules.jick, bool):
        raise RulesError("jick", f"jick is true or false, not {rules.jick!r}")
    if rules.deal not in DEALS or isinstance(rules.deal, bool):
        raise RulesError("deal", f"deal is 6 or 9 cards, not {rules.deal!r}")
    if not _whole(rules.target) or rules.target < 1:
        raise RulesError("target", f"target is a whole number, not {rules.target!r}")
    if rules.is_house:
        _check_house_cards(rules)
    else:
        _check_full_deck(rules)
    _check_points(rules)
    _check_bids(rules)


# what the house deck always plays: seed 000's whole card game
_HOUSE_CARDS = {
    "jokers": 2, "jick": False, "deal": 6, "trump": "first_lead", "exchange": "none",
    "follow": "house", "high_low": "house",
}  # fmt: skip


def _check_house_cards(rules: Rules) -> None:
    for option, value in _HOUSE_CARDS.items():
        if getattr(rules, option) != value:
            raise RulesError(
                option, f"{option} {getattr(rules, option)!r} does not go with the house deck"
            )
    if set(rules.points) - set(HOUSE_POINTS):
        raise RulesError("points", "the house deck plays high, low, jack, jokers and game")


def _check_full_deck(rules: Rules) -> None:
    for option, house_only in (("trump", "first_lead"), ("follow", "house"), ("high_low", "house")):
        if getattr(rules, option) == house_only:
            raise RulesError(option, f"{option} {house_only!r} is played with the house deck only")
    exchanges = (
        ("discard_to_six", "discard_and_fill") if rules.deal == 9 else ("none", "dealer_takes_pack")
    )
    if rules.exchange not in exchanges:
        raise RulesError(
            "exchange",
            f"a deal of {rules.deal} cards plays {_listed(exchanges)}, not {rules.exchange!r}",
        )
    if rules.exchange == "discard_and_fill" and rules.jokers != 2:
        raise RulesError(
            "jokers", "discard and fill plays both jokers, so its fill never runs short"
        )
    deck = 52 + rules.jokers
    for players in rules.players:
        if players * rules.deal > deck:
            raise RulesError(
                "players", f"{players} hands of {rules.deal} need more than {deck} cards"
            )
        if rules.exchange == "discard_and_fill" and deck - players * rules.deal < 6 * (players - 1):
            raise RulesError("players", f"the fill would run short at {players} players")


def _check_points(rules: Rules) -> None:
    points = rules.points
    if not points or len(set(points)) != len(points):
        raise RulesError("points", "points is a list of different point names")
    unknown = [name for name in points if name not in POINT_NAMES]
    if unknown:
        raise RulesError("points", f"no point called {unknown[0]!r}: {_listed(POINT_NAMES)}")
    if "jick" in points and not rules.jick:
        raise RulesError("points", "a jick point needs a table that plays the jick")
    if ("joker_high" in points or "joker_low" in points) and rules.jokers != 2:
        raise RulesError("points", "joker_high and joker_low need two jokers")
    if "jokers" in points and (not rules.jokers or {"joker_high", "joker_low"} & set(points)):
        raise RulesError(
            "points", "jokers needs jokers in the deck, and no joker_high or joker_low"
        )


def _check_bids(rules: Rules) -> None:
    bids = rules.bids
    count = sum(rules.jokers if name == "jokers" else 1 for name in rules.points)
    if len(bids) != 2 or not all(_whole(b) for b in bids) or not 1 <= bids[0] <= bids[1] <= count:
        raise RulesError(
            "bids", f"bids is [min, max] with 1 <= min <= max <= {count}, not {list(bids)}"
        )


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _listed(values) -> str:
    return ", ".join(str(v) for v in values)


# --- The presets -----------------------------------------------------------------------

HOUSE = Rules(
    preset="house",
    players=tuple(sorted(LOW_RANK)),
    layouts="any",
    deck="house",
    jokers=2,
    jick=False,
    deal=6,
    bids=(1, 6),
    all_pass="dealer_opens",
    trump="first_lead",
    exchange="none",
    follow="house",
    points=HOUSE_POINTS,
    high_low="house",
    going_out="bidder_only",
)
_FAMILY = {
    "layouts": "sides",
    "deck": "full",
    "all_pass": "redeal",
    "trump": "bidder_names",
    "follow": "trump_any_time",
    "high_low": "ace_two",
    "going_out": "bidder_first",
}
CLASSIC = replace(
    HOUSE, preset="classic", players=(2, 3, 4, 5), jokers=0, deal=9, bids=(2, 4),
    exchange="discard_to_six", points=("high", "low", "jack", "game"), **_FAMILY,
)  # fmt: skip
SIX_HANDED = replace(
    HOUSE, preset="six_handed", players=(6,), jokers=1, jick=True, deal=6, bids=(3, 6),
    exchange="dealer_takes_pack", points=("high", "low", "jack", "jick", "jokers", "game"),
    **_FAMILY,
)  # fmt: skip
SEVEN_POINT = replace(
    HOUSE, preset="seven_point", players=(4,), jokers=2, jick=True, deal=9, bids=(2, 7),
    exchange="discard_and_fill",
    points=("high", "low", "jack", "jick", "joker_high", "joker_low", "game"), **_FAMILY,
)  # fmt: skip
PRESETS = {rules.preset: rules for rules in (HOUSE, CLASSIC, SIX_HANDED, SEVEN_POINT)}


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError("preset", f"no preset called {name!r}: {_listed(PRESETS)}") from None


# --- Reading a record's rules ------------------------------------------------------------

# the options a record's rules object may set (players and teams are the record's own)
OPTIONS = (
    "deck", "jokers", "jick", "deal", "bids", "all_pass", "trump", "exchange", "follow",
    "points", "high_low", "going_out", "target",
)  # fmt: skip


def from_record(value: Any) -> Rules:
    """The rules a record's ``rules`` names: a preset's name, or an object with ``preset``
    and the options that differ. The points and the highest bid follow the jokers and the
    jick unless the object sets them too. Raises RulesError naming the option at fault."""
    if isinstance(value, str):
        return preset(value)
    if not isinstance(value, dict):
        raise RulesError("rules", "rules is a preset's name or an object with a preset")
    name = value.get("preset")
    if not isinstance(name, str):
        raise RulesError("preset", "rules needs a preset: " + _listed(PRESETS))
    base = preset(name)
    changes = {}
    for option, given in value.items():
        if option in ("preset", "players", "teams"):
            continue  # players and teams are the record's own: record.py checks them
        if option not in OPTIONS:
            raise RulesError(option, f"no rules option called {option!r}")
        changes[option] = _read_option(option, given)
    changed = {k: v for k, v in changes.items() if v != getattr(base, k)}
    if base.is_house and set(changed) - {"target", "bids", "all_pass", "going_out"}:
        option = next(iter(sorted(set(changed) - {"target", "bids", "all_pass", "going_out"})))
        raise RulesError(option, f"the house preset takes no {option} option")
    if "target" in changes and not TARGETS[0] <= changes["target"] <= TARGETS[1]:
        raise RulesError(
            "target", f"target is {TARGETS[0]} to {TARGETS[1]}, not {changes['target']}"
        )
    derived = _derived(base, changes)
    try:
        return replace(base, **derived)
    except TypeError as error:  # pragma: no cover - every option was read above
        raise RulesError("rules", str(error)) from None


def _read_option(option: str, given: Any) -> Any:
    if option in ("bids", "points"):
        if not isinstance(given, list):
            raise RulesError(option, f"{option} is a list")
        if option == "points" and not all(isinstance(n, str) for n in given):
            raise RulesError(option, "points is a list of point names")
        return tuple(given)
    if option == "jick":
        if not isinstance(given, bool):
            raise RulesError(option, "jick is true or false")
        return given
    if option in ("jokers", "deal", "target"):
        if not _whole(given):
            raise RulesError(option, f"{option} is a whole number")
        return given
    if not isinstance(given, str):
        raise RulesError(option, f"{option} is one of {_listed(OPTION_VALUES[option])}")
    return given


def _derived(base: Rules, changes: dict[str, Any]) -> dict[str, Any]:
    """The options to set: the changes, with the points and the highest bid following the
    jokers and the jick where the changes do not set them."""
    derived = dict(changes)
    jokers = changes.get("jokers", base.jokers)
    jick = changes.get("jick", base.jick)
    if "points" not in changes and (jokers, jick) != (base.jokers, base.jick):
        derived["points"] = _points_for(base.points, jokers=jokers, jick=jick)
    if "bids" not in changes and "points" in derived:
        count = sum(jokers if name == "jokers" else 1 for name in derived["points"])
        derived["bids"] = (min(base.bids[0], count), count)
    return derived


def _points_for(points: tuple[str, ...], *, jokers: int, jick: bool) -> tuple[str, ...]:
    kept = {name for name in points if name not in ("jick", "joker_high", "joker_low", "jokers")}
    if jick:
        kept.add("jick")
    if jokers == 1:
        kept.add("jokers")
    elif jokers == 2:
        kept |= {"joker_high", "joker_low"}
    return tuple(name for name in POINT_NAMES if name in kept)
