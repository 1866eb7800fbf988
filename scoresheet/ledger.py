"""The score sheet's rules: hands in, rows out. Pure Python, no Django, no I/O.

A hand is what the table writes down once a hand of Smear is over: which side bid,
how much, and how many points each side made. ``tally`` folds the hands, in order,
into one row per hand: what each side enters on the sheet, the bid debt it carries,
its running total and its standing, and whether the match may be banked.

Two ways of charging a missed bid:

- ``"debt"`` (a paper sheet that takes only whole numbers from 0 up): the bidder enters
  0 and owes its bid; a side that owes pays the debt from its next points before it
  enters anything. Entries are never negative.
- ``"negative"`` (the online house rules): the bidder enters minus its bid.

Either way a side's *standing* (its total less its debt) is the same number: the sum
of what it made, less every bid it missed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

MISSED_BID_MODES = ("debt", "negative")
MIN_SIDES = 2
MAX_SIDES = 8


class ImpossibleHand(ValueError):
    """A hand that cannot have happened under the rules; ``index`` is its place in the list."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(f"hand {index}: {reason}")
        self.index = index
        self.reason = reason


@dataclass(frozen=True)
class Rules:
    target: int = 21
    points_per_hand: int = 4
    min_bid: int = 2
    max_bid: int = 4
    missed_bid: str = "debt"
    # non-bidding sides stop at target - 1, so only the bidder can reach the target
    bidder_only_out: bool = False

    def __post_init__(self) -> None:
        for name in ("target", "points_per_hand", "min_bid", "max_bid"):
            value = getattr(self, name)
            if not _is_int(value) or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, not {value!r}")
        if self.min_bid > self.max_bid:
            raise ValueError(f"min_bid {self.min_bid} is above max_bid {self.max_bid}")
        if self.max_bid > self.points_per_hand:
            raise ValueError(
                f"max_bid {self.max_bid} is more than the {self.points_per_hand} points "
                "a hand holds"
            )
        if self.missed_bid not in MISSED_BID_MODES:
            raise ValueError(f"missed_bid is one of {MISSED_BID_MODES}, not {self.missed_bid!r}")
        if not isinstance(self.bidder_only_out, bool):
            raise ValueError(f"bidder_only_out must be True or False, not {self.bidder_only_out!r}")

    @property
    def bids(self) -> range:
        return range(self.min_bid, self.max_bid + 1)


@dataclass(frozen=True)
class Hand:
    bidder: int  # the bidding side, counted from 0
    bid: int
    made: tuple[int, ...]  # the points each side made in the hand, one int per side

    def __post_init__(self) -> None:
        # accept a list for made, but keep the hand hashable and immutable
        object.__setattr__(self, "made", tuple(self.made))


@dataclass(frozen=True)
class Row:
    """The sheet after one hand: every tuple holds one int (or bool) per side."""

    index: int
    hand: Hand
    made: bool  # did the bidder make its bid
    entries: tuple[int, ...]  # what each side writes on the sheet for this hand
    debts: tuple[int, ...]  # bid debt still owed after this hand (always 0 in negative mode)
    totals: tuple[int, ...]  # the sum of the entries so far
    standings: tuple[int, ...]  # totals less debts: what each side really has
    at_target: tuple[bool, ...]
    bankable: bool
    winner: int | None


@dataclass(frozen=True)
class Tally:
    sides: int
    rules: Rules
    rows: tuple[Row, ...] = field(default_factory=tuple)

    @property
    def last(self) -> Row | None:
        return self.rows[-1] if self.rows else None

    @property
    def entries(self) -> tuple[int, ...]:
        return self.rows[-1].entries if self.rows else (0,) * self.sides

    @property
    def debts(self) -> tuple[int, ...]:
        return self.rows[-1].debts if self.rows else (0,) * self.sides

    @property
    def totals(self) -> tuple[int, ...]:
        return self.rows[-1].totals if self.rows else (0,) * self.sides

    @property
    def standings(self) -> tuple[int, ...]:
        return self.rows[-1].standings if self.rows else (0,) * self.sides

    @property
    def at_target(self) -> tuple[bool, ...]:
        return self.rows[-1].at_target if self.rows else (False,) * self.sides

    @property
    def bankable(self) -> bool:
        """May the match be banked now: some side is at the target and the winner is decided."""
        return self.rows[-1].bankable if self.rows else False

    @property
    def winner(self) -> int | None:
        """The side that banking the match now would award, or None."""
        return self.rows[-1].winner if self.rows else None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_hand(hand: Hand, *, index: int, sides: int, rules: Rules) -> None:
    """Raise ImpossibleHand (a ValueError naming ``index``) unless the hand could happen."""
    if not isinstance(hand, Hand):
        raise ImpossibleHand(index, f"expected a Hand, not {hand!r}")
    if not _is_int(hand.bidder) or not 0 <= hand.bidder < sides:
        raise ImpossibleHand(index, f"bidder {hand.bidder!r} is not a side 0 to {sides - 1}")
    if not _is_int(hand.bid) or hand.bid not in rules.bids:
        raise ImpossibleHand(
            index, f"a bid is {rules.min_bid} to {rules.max_bid}, not {hand.bid!r}"
        )
    if len(hand.made) != sides:
        raise ImpossibleHand(
            index, f"made has {len(hand.made)} numbers for a sheet of {sides} sides"
        )
    for side, points in enumerate(hand.made):
        if not _is_int(points) or points < 0:
            raise ImpossibleHand(
                index, f"side {side} made {points!r}: points are whole numbers from 0 up"
            )
    if sum(hand.made) > rules.points_per_hand:
        raise ImpossibleHand(
            index,
            f"the sides made {sum(hand.made)} points, more than the "
            f"{rules.points_per_hand} a hand holds",
        )


def _decide(
    standings: tuple[int, ...], bidder: int, target: int
) -> tuple[tuple[bool, ...], bool, int | None]:
    """Who is at the target, and whether the match is decided (bankable, winner)."""
    at_target = tuple(standing >= target for standing in standings)
    if not any(at_target):
        return at_target, False, None
    # both sides at the target on the same hand: the bidding side wins
    if at_target[bidder]:
        return at_target, True, bidder
    best = max(standings)
    leaders = [side for side, standing in enumerate(standings) if standing == best]
    if len(leaders) > 1:
        # a tie for the lead leaves the match open until a later hand breaks it
        return at_target, False, None
    return at_target, True, leaders[0]


def tally(hands: Iterable[Hand], sides: int, rules: Rules | None = None) -> Tally:
    """Fold the hands, in order, into the rows of the sheet."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, not {rules!r}")
    if not _is_int(sides) or not MIN_SIDES <= sides <= MAX_SIDES:
        raise ValueError(f"a sheet has {MIN_SIDES} to {MAX_SIDES} sides, not {sides!r}")
    return _fold((), list(hands), sides, rules)


def edit(sheet: Tally, index: int, hand: Hand) -> Tally:
    """The sheet with hand ``index`` replaced: the rows before it stand, the fold resumes there."""
    if not 0 <= index < len(sheet.rows):
        raise IndexError(f"no hand {index} on a sheet of {len(sheet.rows)} hands")
    hands = [row.hand for row in sheet.rows]
    hands[index] = hand
    return _fold(sheet.rows[:index], hands[index:], sheet.sides, sheet.rules)


def _fold(kept: tuple[Row, ...], hands: list[Hand], sides: int, rules: Rules) -> Tally:
    """Carry on from the last kept row, one hand at a time."""
    last = kept[-1] if kept else None
    totals = list(last.totals) if last else [0] * sides
    debts = list(last.debts) if last else [0] * sides
    standings = list(last.standings) if last else [0] * sides
    rows = list(kept)
    for index, hand in enumerate(hands, start=len(kept)):
        check_hand(hand, index=index, sides=sides, rules=rules)
        made = hand.made[hand.bidder] >= hand.bid
        entries = [0] * sides
        for side in range(sides):
            if side == hand.bidder and not made:
                # a missed bid costs its full amount, whatever the bidder took
                change = -hand.bid
            else:
                change = hand.made[side]
            after = standings[side] + change
            if rules.bidder_only_out and side != hand.bidder:
                # the cap holds the standing itself: in debt mode a side held back from
                # above the cap owes the difference, so both modes keep equal standings
                after = min(after, rules.target - 1)
            change = after - standings[side]
            standings[side] = after
            if rules.missed_bid == "negative":
                entries[side] = change
            elif change < 0:
                # nothing goes on the sheet: the shortfall is owed against later points
                debts[side] -= change
            else:
                # points pay off what the side owes before any of them are entered
                paid = min(debts[side], change)
                debts[side] -= paid
                entries[side] = change - paid
            totals[side] += entries[side]
        at_target, bankable, winner = _decide(tuple(standings), hand.bidder, rules.target)
        rows.append(
            Row(
                index=index,
                hand=hand,
                made=made,
                entries=tuple(entries),
                debts=tuple(debts),
                totals=tuple(totals),
                standings=tuple(standings),
                at_target=at_target,
                bankable=bankable,
                winner=winner,
            )
        )
    return Tally(sides=sides, rules=rules, rows=tuple(rows))


def made_from_takers(takers: Sequence[int | None], *, sides: int) -> tuple[int, ...]:
    """Add up a hand point by point: ``takers`` names the side that took each point, or None."""
    made = [0] * sides
    for taker in takers:
        if taker is None:
            continue
        if not _is_int(taker) or not 0 <= taker < sides:
            raise ValueError(f"{taker!r} is not a side 0 to {sides - 1}")
        made[taker] += 1
    return tuple(made)


# --- Presets ---------------------------------------------------------------------


@dataclass(frozen=True)
class Preset:
    key: str
    label: str
    rules: Rules
    points: tuple[str, ...]  # the points of a hand, in the order the table counts them
    note: str = ""


HOUSE_RULES = Rules(
    target=21,
    points_per_hand=6,
    min_bid=1,
    max_bid=6,
    missed_bid="negative",
    bidder_only_out=True,
)
CLASSIC_FOUR_POINT = Rules(target=21, points_per_hand=4, min_bid=2, max_bid=4, missed_bid="debt")
SIX_HANDED = Rules(target=21, points_per_hand=6, min_bid=3, max_bid=6, missed_bid="debt")
SEVEN_POINT = Rules(target=21, points_per_hand=7, min_bid=2, max_bid=7, missed_bid="debt")
CUSTOM = Rules()

PRESETS: dict[str, Preset] = {
    preset.key: preset
    for preset in (
        Preset(
            "house",
            "House rules",
            HOUSE_RULES,
            ("High", "Low", "Jack", "Joker 1", "Joker 2", "Game"),
            "6 points, bids 1–6, a missed bid goes negative, only the bidder goes out",
        ),
        Preset(
            "classic",
            "Classic four-point",
            CLASSIC_FOUR_POINT,
            ("High", "Low", "Jack", "Game"),
            "4 points, bids 2–4, a missed bid is owed against the next points",
        ),
        Preset(
            "six_handed",
            "Six-handed",
            SIX_HANDED,
            ("High", "Low", "Jack", "Jick", "Joker", "Game"),
            "6 points, bids 3–6, a missed bid is owed against the next points",
        ),
        Preset(
            "seven_point",
            "Seven-point",
            SEVEN_POINT,
            ("High", "Low", "Jack", "Jick", "High joker", "Low joker", "Game"),
            "7 points, bids 2–7, a missed bid is owed against the next points",
        ),
        Preset("custom", "Custom", CUSTOM, (), "your own points, bids and target"),
    )
}


def point_names(preset_key: str, points_per_hand: int) -> tuple[str, ...]:
    """The named points of a preset's hand; a custom hand's points are numbered."""
    preset = PRESETS.get(preset_key)
    if preset and preset.points and len(preset.points) == points_per_hand:
        return preset.points
    return tuple(f"Point {n}" for n in range(1, points_per_hand + 1))
