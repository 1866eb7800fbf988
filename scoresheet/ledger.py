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
of what it made, less every bid it missed. The standings, and who has won, are the
engine's match scoring (``game.engine.rules.settle_round``), so a sheet and a table of
one preset cannot disagree; the presets read their target, bids, points and who may go
out from the engine's rules values (``game.engine.variants.PRESETS``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from game.engine import notation, variants
from game.engine.rules import settle_round

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
    target: int = variants.DEFAULT_TARGET
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


def sheet_rules(table: variants.Rules, *, missed_bid: str) -> Rules:
    """The sheet's rules for a table's: its target, bids, points per hand and who may go
    out are the table's; only how a missed bid is written down is the sheet's own."""
    return Rules(
        target=table.target,
        points_per_hand=table.point_count,
        min_bid=table.min_bid,
        max_bid=table.max_bid,
        missed_bid=missed_bid,
        # going_out "bidder_only" caps the non-bidders; "bidder_first" lets any side out
        bidder_only_out=table.non_bidders_capped,
    )


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
        # the table's match scoring: a missed bid costs its full amount, whatever the
        # bidder took; with bidder_only_out the other sides stop at target - 1; the winner
        # is the bidder if it is at the target, else the one highest side at it
        scoring = settle_round(
            scores=tuple(standings),
            raw=hand.made,
            bidder_unit=hand.bidder,
            bid=hand.bid,
            target=rules.target,
            capped=rules.bidder_only_out,
        )
        entries = [0] * sides
        for side in range(sides):
            # the entry follows the standing: the cap holds the standing itself, so in
            # debt mode a side held back from above the cap owes the difference and
            # both modes keep equal standings
            change = scoring.match_after[side] - standings[side]
            standings[side] = scoring.match_after[side]
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
        at_target = tuple(standing >= rules.target for standing in standings)
        winner = scoring.winner
        rows.append(
            Row(
                index=index,
                hand=hand,
                made=scoring.made,
                entries=tuple(entries),
                debts=tuple(debts),
                totals=tuple(totals),
                standings=tuple(standings),
                at_target=at_target,
                # the match may be banked once it is decided: a tie at the top plays on
                bankable=winner is not None,
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
    table: variants.Rules | None = None  # the engine's rules value; None for custom


# How each preset's sheet writes down a missed bid: the sheet's own choice, not the
# table's (the standings are the same either way). The house game online shows minus the
# bid; seed 002's paper sheet, which every family preset keeps, enters 0 and owes the bid.
MISSED_BID = {"house": "negative"}
PAPER_SHEET = "debt"
MISSED_BID_SAID = {
    "negative": "a missed bid goes negative",
    "debt": "a missed bid is owed against the next points",
}


def preset_note(rules: Rules, points: Sequence[str]) -> str:
    """A preset in one line: its points and bids, how a miss is written, who may go out."""
    going_out = (
        "only the bidder goes out" if rules.bidder_only_out else "anyone goes out, the bidder first"
    )
    return (
        f"{rules.points_per_hand} points ({', '.join(points)}), "
        f"bids {rules.min_bid}–{rules.max_bid}, {MISSED_BID_SAID[rules.missed_bid]}, {going_out}"
    )


def preset_for(table: variants.Rules) -> Preset:
    """The sheet's preset for one of the engine's: the same rules value, read once."""
    rules = sheet_rules(table, missed_bid=MISSED_BID.get(table.preset, PAPER_SHEET))
    points = notation.point_names(table)
    return Preset(
        key=table.preset,
        label=notation.preset_name(table.preset),
        rules=rules,
        points=points,
        note=preset_note(rules, points),
        table=table,
    )


CUSTOM = Rules()

PRESETS: dict[str, Preset] = {
    **{key: preset_for(table) for key, table in variants.PRESETS.items()},
    "custom": Preset("custom", "Custom", CUSTOM, (), "your own points, bids and target"),
}
HOUSE_RULES = PRESETS["house"].rules
CLASSIC_FOUR_POINT = PRESETS["classic"].rules
SIX_HANDED = PRESETS["six_handed"].rules
SEVEN_POINT = PRESETS["seven_point"].rules


def point_names(preset_key: str, points_per_hand: int) -> tuple[str, ...]:
    """The named points of a preset's hand; a custom hand's points are numbered."""
    preset = PRESETS.get(preset_key)
    if preset and preset.points and len(preset.points) == points_per_hand:
        return preset.points
    return tuple(f"Point {n}" for n in range(1, points_per_hand + 1))
