"""What a round's points are worth in the match, as a table the solver can search.

A point is not always a point: a missed bid costs the whole bid, a side that did not
bid stops at target - 1, and only the bidder can win at the end of a round.

``standing_value`` is what the expert plays for: how far the round moves us against the
best of our opponents (with two units, simply our gain minus theirs). Counting every
opponent's points against us, as ``match_value`` does, makes a five-way cutthroat table
look hopeless whatever we do: four opponents take most of the points between them, but
each of them is only one rival. ``match_value`` stays as the frozen expert-v1's measure.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb

from game.engine import rules
from game.engine.solver import MAX_POINTS, Utility

# Winning the match now, in points: worth more than any single round's swing.
WIN_VALUE = 12
# Each table entry is scaled and given a tie-break so that the searched value also says
# how many points each side took: value = match_value * SCALE + ours * 8 + (7 - theirs).
SCALE = 64


@dataclass(frozen=True)
class Situation:
    """The match around one round, from one unit's seat."""

    unit: int
    bidder_unit: int | None  # None during the auction
    bid: int
    scores: tuple[int, ...]
    target: int
    sizes: tuple[int, ...] = ()  # seats in each unit; () for one seat each

    @property
    def seats(self) -> tuple[int, ...]:
        return self.sizes or (1,) * len(self.scores)

    @property
    def we_bid(self) -> bool:
        return self.bidder_unit == self.unit


def match_value(situation: Situation, ours: int, theirs: int) -> int:
    """Our gain minus the others' gain in match points, with the match end counted."""
    s = situation
    our_score = s.scores[s.unit]
    their_best = max((score for u, score in enumerate(s.scores) if u != s.unit), default=0)
    if s.we_bid:
        made = rules.bid_made(points=ours, bid=s.bid)
        ours_gain = rules.bidder_gain(points=ours, bid=s.bid)
        theirs_gain = max(0, rules.capped_gain(score=their_best, points=theirs, target=s.target))
        bonus = WIN_VALUE if made and our_score + ours >= s.target else 0
    else:
        made = rules.bid_made(points=theirs, bid=s.bid)
        theirs_gain = rules.bidder_gain(points=theirs, bid=s.bid)
        ours_gain = max(0, rules.capped_gain(score=our_score, points=ours, target=s.target))
        bidder_score = s.scores[s.bidder_unit] if s.bidder_unit is not None else their_best
        bonus = -WIN_VALUE if made and bidder_score + theirs >= s.target else 0
    return ours_gain - theirs_gain + bonus


def standing_value(situation: Situation, bidder_points: int, defender_points: int) -> float:
    """How far the round moves our lead over the best opponent (negative: behind), with
    the match end counted. The defenders' points are shared by seat: the search treats
    them as one side, so it cannot say which defender took which."""
    s = situation
    seats = s.seats
    defender_seats = sum(n for u, n in enumerate(seats) if u != s.bidder_unit)
    shares = [
        0.0 if u == s.bidder_unit else defender_points * n / defender_seats
        for u, n in enumerate(seats)
    ]
    return _standing(s, bidder_points, shares)


def split_standing_value(situation: Situation, bidder_points: int, defender_points: int) -> float:
    """``standing_value`` with the points of two lone defenders (a cutthroat table of
    three) dealt between them as if each point were as likely to go to either, rather
    than shared evenly: the lead over the best opponent is not linear in their shares,
    and an even share is not how a round ends (elsewhere, ``standing_value``)."""
    s = situation
    defenders = [u for u in range(len(s.scores)) if u != s.bidder_unit]
    if len(defenders) != 2 or any(s.seats[u] != 1 for u in defenders):
        return standing_value(s, bidder_points, defender_points)
    first, second = defenders
    value = 0.0
    for taken in range(defender_points + 1):
        shares = [0.0] * len(s.scores)
        shares[first], shares[second] = taken, defender_points - taken
        chance = comb(defender_points, taken) / 2**defender_points
        value += chance * _standing(s, bidder_points, shares)
    return value


def _standing(s: Situation, bidder_points: int, shares: list[float]) -> float:
    """``standing_value`` with each defending unit's points given (``shares``)."""
    after = []
    for unit, score in enumerate(s.scores):
        if unit == s.bidder_unit:
            gain = rules.bidder_gain(points=bidder_points, bid=s.bid)
        else:
            gain = max(0, rules.capped_gain(score=score, points=shares[unit], target=s.target))
        after.append(score + gain)
    value = _lead(after, s.unit) - _lead(s.scores, s.unit)
    if rules.bid_made(points=bidder_points, bid=s.bid) and after[s.bidder_unit] >= s.target:
        value += WIN_VALUE if s.we_bid else -WIN_VALUE
    return value


def _lead(scores, unit: int) -> float:
    return scores[unit] - max((score for u, score in enumerate(scores) if u != unit), default=0)


def steps_per_point(situation: Situation) -> int:
    """Table entries are whole numbers: shares of the defenders' points need quarters."""
    return 1 if len(situation.scores) == 2 else 4


def standing_utility(situation: Situation, with_points: bool = True) -> Utility:
    """``standing_value`` as a table for the search, the bidder's unit against every
    other unit: the defenders share one aim, to hold the bidder to less than the bid.
    ``with_points`` also encodes both sides' points (``decode``) as in ``utility_for``.
    The table is made monotone (more points never hurt the side that takes them), which
    the search needs; at a cutthroat table that means a defender does not play to keep
    points from a fellow defender."""
    s = situation
    steps = steps_per_point(s)
    others = frozenset(u for u in range(len(s.scores)) if u != s.bidder_unit)
    side = frozenset({s.unit}) if s.we_bid else others

    def entry(mine: int, other: int) -> int:
        bidder, defenders = (mine, other) if s.we_bid else (other, mine)
        return round(standing_value(s, bidder, defenders) * steps)

    table = _monotone([[entry(a, b) for b in range(MAX_POINTS)] for a in range(MAX_POINTS)])
    scale, detail = (SCALE, 1) if with_points else (1, 0)
    return Utility(
        side,
        tuple(
            tuple(table[a][b] * scale + detail * (a * 8 + (7 - b)) for b in range(MAX_POINTS))
            for a in range(MAX_POINTS)
        ),
    )


def _monotone(table: list[list[int]]) -> list[list[int]]:
    """The least table above ``table`` that rises with a, then the most below it that
    falls with b (a running maximum down the rows, then a running minimum along them)."""
    size = len(table)
    for a in range(1, size):
        table[a] = [max(x, y) for x, y in zip(table[a], table[a - 1], strict=True)]
    for row in table:
        for b in range(1, size):
            row[b] = min(row[b], row[b - 1])
    return table


def utility_for(situation: Situation, with_points: bool = True) -> Utility:
    """The match value of each round outcome. ``with_points`` also encodes both sides'
    points in each value (see ``decode``); without it the values are coarser, so the
    search prunes more, which is what a bot in a hurry wants."""
    scale, detail = (SCALE, 1) if with_points else (1, 0)
    table = tuple(
        tuple(
            match_value(situation, ours, theirs) * scale + detail * (ours * 8 + (7 - theirs))
            for theirs in range(MAX_POINTS)
        )
        for ours in range(MAX_POINTS)
    )
    return Utility(frozenset({situation.unit}), table)


def contract_utility(situation: Situation, defenders_together: bool = False) -> Utility:
    """For the first trick, where search is dearest: make (or beat) the bid first, then a
    point or two more. Few distinct values make the zero-window tests cheap.
    ``defenders_together``: as in ``standing_utility``, every unit but the bidder's
    searches as one side, whose points are "ours" when we defend."""

    def value(ours: int, theirs: int) -> int:
        if situation.we_bid:
            return 0 if ours < situation.bid else 1 + min(ours - situation.bid, 2)
        return (2 if theirs < situation.bid else 0) + min(ours, 1)

    table = tuple(tuple(value(o, t) for t in range(MAX_POINTS)) for o in range(MAX_POINTS))
    side = frozenset({situation.unit})
    if defenders_together and not situation.we_bid:
        side = frozenset(u for u in range(len(situation.scores)) if u != situation.bidder_unit)
    return Utility(side, table)


@cache
def leader_utility(unit: int) -> Utility:
    """The most points for ``unit``, then the fewest for the rest: what a leader plays for
    when nothing else is known yet (``decode`` reads both sides' points back)."""
    table = tuple(
        tuple(ours * 8 + (7 - theirs) for theirs in range(MAX_POINTS)) for ours in range(MAX_POINTS)
    )
    return Utility(frozenset({unit}), table)


def points_utility(unit: int) -> Utility:
    """The points we take: what a bidder can count on."""
    table = tuple(tuple(ours for _ in range(MAX_POINTS)) for ours in range(MAX_POINTS))
    return Utility(frozenset({unit}), table)


def decode(value: int, steps: int = 1) -> tuple[float, int, int]:
    """(match value, the maximising side's points, the other side's) from a searched value
    of a detailed table (``steps`` as ``steps_per_point`` gave it)."""
    match, rest = divmod(value, SCALE)
    return match / steps if steps > 1 else match, rest // 8, 7 - rest % 8
