"""What a round's points are worth in the match, as a table the solver can search.

A point is not always a point: a missed bid costs the whole bid, a side that did not
bid stops at target - 1, and only the bidder can win at the end of a round. The table
scores each (points we take, points the others take) pair in match terms, from the
view of one unit.
"""

from __future__ import annotations

from dataclasses import dataclass

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


def contract_utility(situation: Situation) -> Utility:
    """For the first trick, where search is dearest: make (or beat) the bid first, then a
    point or two more. Few distinct values make the zero-window tests cheap."""

    def value(ours: int, theirs: int) -> int:
        if situation.we_bid:
            return 0 if ours < situation.bid else 1 + min(ours - situation.bid, 2)
        return (2 if theirs < situation.bid else 0) + min(ours, 1)

    table = tuple(tuple(value(o, t) for t in range(MAX_POINTS)) for o in range(MAX_POINTS))
    return Utility(frozenset({situation.unit}), table)


def points_utility(unit: int) -> Utility:
    """The points we take: what a bidder can count on."""
    table = tuple(tuple(ours for _ in range(MAX_POINTS)) for ours in range(MAX_POINTS))
    return Utility(frozenset({unit}), table)


def decode(value: int) -> tuple[int, int, int]:
    """(match value, our points, their points) from a searched value."""
    match, rest = divmod(value, SCALE)
    return match, rest // 8, 7 - rest % 8
