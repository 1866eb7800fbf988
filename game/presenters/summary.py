"""A finished round summed up: each point, the card that won it and how it went (as the
engine scores it), and each side's score before and after."""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import notation, rules
from game.engine.view import PublicView
from game.presenters.pieces import side_letters, unit_names

# how a point went to its side (``rules.ScoringCard.by``), in the page's words
POINT_VERBS = {"capture": "taken by", "deal": "dealt to", "play": "played by"}


@dataclass(frozen=True)
class PointLine:
    label: str  # "High", "Low", "Jack", "Joker", "Game"
    card: str | None  # the card that scored, where there is one
    unit: int | None
    names: str  # who took it, or "nobody"
    verb: str = "taken by"  # how it went (``POINT_VERBS``)
    side: str | None = None  # the unit's letter, where some unit has partners


@dataclass(frozen=True)
class ScoreLine:
    unit: int
    names: str
    before: int
    raw: int
    after: int
    game_total: int
    bidder: bool
    capped: bool  # a non-bidder held at target - 1
    side: str | None = None  # the unit's letter, where some unit has partners


@dataclass(frozen=True)
class RoundSummary:
    number: int
    bidder_name: str | None  # None in a redealt round
    bid: int | None
    made: bool | None
    trump: str | None
    points: tuple[PointLine, ...]
    scores: tuple[ScoreLine, ...]
    redeal: bool = False  # everyone passed: the same dealer deals again
    dealer_name: str = ""


def round_summary(number: int, view: PublicView, names: dict[int, str]) -> RoundSummary:
    """A finished round's points and score changes, from its public view: the points as
    the round's scoring event tells them (``events.RoundScored``), every card of them played
    face up (a discard never is: it scores for nobody)."""
    result = view.result
    if result.redeal:
        return RoundSummary(
            number=number,
            bidder_name=None,
            bid=None,
            made=None,
            trump=None,
            points=(),
            scores=(),
            redeal=True,
            dealer_name=names[view.dealer],
        )

    def who(unit: int | None) -> str:
        return "nobody" if unit is None else unit_names(names, view.teams[unit])

    letters = side_letters(view.teams)

    def letter(unit: int | None) -> str | None:
        return None if letters is None or unit is None else letters[unit]

    taken = view.taken
    scored = view.round_scored.points
    if view.rules.is_house:
        labels = [notation.point_label(p.kind) for p in scored]
    else:  # named as the table names them (``notation.point_names``)
        labels = notation.point_names(view.rules)
    lines = tuple(
        PointLine(
            label,
            notation.card(p.card),
            p.unit,
            who(p.unit),
            POINT_VERBS[p.by],
            letter(p.unit),
        )
        for label, p in zip(labels, scored, strict=True)
    )
    gains = rules.score_gains(
        scores=view.scores,
        raw=result.raw,
        after=result.match_after,
        bidder_unit=result.bidder_unit,
        captured=taken,
        target=view.target,
    )
    scores = tuple(
        ScoreLine(
            unit=g.unit,
            names=unit_names(names, view.teams[g.unit]),
            before=g.before,
            raw=g.raw,
            after=g.after,
            game_total=g.game_total,
            bidder=g.bidder,
            capped=g.capped and view.rules.non_bidders_capped,
            side=letter(g.unit),
        )
        for g in gains
    )
    return RoundSummary(
        number=number,
        bidder_name=names[view.bidder],
        bid=result.bid,
        made=result.made,
        trump=notation.suit_letter(view.trump),
        points=lines,
        scores=scores,
        dealer_name=names[view.dealer],
    )
