"""The review of one finished round for one seat: the expert's analysis of each decision
the seat made, from what the seat could see at that moment, and a grade for the costly ones.

Pure, like the trainer's core: each decision is analysed as ``learn.core.analysis.assess``
does, which is given the seat's view and nothing else (the trainer's and the bots' guarantee),
and becomes a trainer ``AnalysedPosition`` (the record up to the decision, the seat, the analysis),
so that the review's sentences come from ``learn.core.explain`` and "Practise this" hands the
trainer exactly what the review shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Any

from game.bots.expert import ExpertBot
from game.engine.rules import Phase, action_code, is_discard
from game.engine.state import MatchState
from game.engine.view import SeatView
from learn.core import grades
from learn.core.analysis import Budget, described, position_at, price
from learn.core.positions import AnalysedPosition

# Thinking time per decision: up to 400 sampled deals (the trainer's bank uses 120), 0.8 s
# (1.2 s in the first trick; the opening lead 0.8 s times analysis.OPENING_BY_PLAYERS,
# 2 s at four players, 60 s at seven or eight). bench/review.py on this shared 2-core
# machine (load 2-3.5, December 2026): a 4-player round's review p50 0.9 s, p95 2.1 s;
# a whole match to 21 about 5 s; a 6-player round p50 3.5 s, p95 10 s.
REVIEW_BUDGET = Budget(analysis_ms=800.0, max_deals=400, opening_factor=1.0, first_trick_factor=1.5)


@dataclass(frozen=True)
class Moment:
    """One decision of the seat: the match just before it, and what the seat did."""

    index: int  # the action's place in the round
    before: MatchState  # finished rounds, then this round up to the decision
    action: int

    @property
    def view(self) -> SeatView:
        return self.before.view_for(self.before.current_player())


def moments(match: MatchState, number: int, seat: int) -> list[Moment]:
    """The seat's decisions in round ``number`` (0-based) of ``match``, a choice each: a
    forced move (one legal action) is no decision. The round must be over."""
    state = match.rounds[number]
    if not state.is_terminal():
        raise ValueError("a round is reviewed only once it is over")
    earlier = MatchState(match.setup, match.first_dealer, match.rounds[:number])
    before = earlier.start_round(state.deal)
    found = []
    for index, (actor, action) in enumerate(state.seated_history()):
        if actor == seat and has_choice(before):
            found.append(Moment(index, before, action))
        before = before.apply(action, actor)
    return found


def has_choice(match: MatchState) -> bool:
    """Whether the seat to act has more than one thing to do: a discard is one action,
    a choice only where some card may go or stay (the fill's discards are often forced)."""
    if match.round.phase() is Phase.EXCHANGE:
        rule = match.round.discard_rule()
        return rule.optional.bit_count() > rule.count - rule.must.bit_count() > 0
    return len(match.legal_actions()) > 1


@dataclass(frozen=True)
class Decision:
    """A reviewed decision: the trainer's position for it, what was played, its grade."""

    index: int
    chosen: str  # the action as records spell it
    position: AnalysedPosition
    cost: float  # match value lost against the best option (0 for the best)
    grade: str | None  # grades.INACCURACY, MISTAKE, BLUNDER, or None

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "chosen": self.chosen,
            "position": self.position.to_json(),
            "cost": self.cost,
            "grade": self.grade,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        return cls(
            index=data["index"],
            chosen=data["chosen"],
            position=AnalysedPosition.from_json(data["position"]),
            cost=data["cost"],
            grade=data["grade"],
        )


def grade(position: AnalysedPosition, chosen: str) -> tuple[float, str | None]:
    """What playing ``chosen`` cost against the best option, and its mark: the one verdict
    (``grades.verdict_of``) the review's page and the trainer's sentence also read."""
    judged = grades.verdict_of(position, chosen)
    return round(judged.cost, 3), judged.grade


def review_moment(moment: Moment, analyst: ExpertBot | None = None, seed: str = "") -> Decision:
    """Analyse one decision from the seat's view at that moment, and grade what was done.
    ``seed`` makes the sampled deals repeatable (the table, round and index, say)."""
    view = moment.view
    analyst = analyst or REVIEW_BUDGET.analyst(view)
    # analysis.assess, but the discard made is priced with those the expert would
    # consider, whatever it was
    also = (moment.action,) if is_discard(moment.action) else ()
    rng = Random(f"review/{seed}/{moment.index}")
    analysis, options = price(view, analyst, rng, also=also)
    assessment = described(view, analysis, options, analyst, rng)
    position = position_at(moment.before, view.seat, assessment)
    chosen = action_code(moment.action)
    cost, found = grade(position, chosen)
    return Decision(moment.index, chosen, position, cost, found)
