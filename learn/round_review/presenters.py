"""The review page's model: each reviewed decision as the seat saw it, its options, what
the choice made cost and the trainer's explanation of it.

Built from each decision's position (``learn.round_review.decisions``) alone, through the
seat's view: no stored row and no hidden card reaches the template. Each decision is judged
here again by the one verdict (``learn.core.grades.verdict_of``) that the explanation's
sentence reads too, so a heading, the page's count and the decision's own text agree
(a review stored before the rule changed is shown by today's rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine.notation import listed
from learn.analysis_board.links import analysis_link
from learn.core import grades
from learn.models import RoundReview
from learn.presenters import (
    Explained,
    OptionRow,
    PositionPage,
    core_position_page,
    explanation,
    option_label,
    option_rows,
)
from learn.round_review import decisions


@dataclass(frozen=True)
class DecisionShown:
    index: int
    phase: str
    chosen: str  # its label
    chosen_code: str
    best: str
    verdict: grades.Verdict  # the one judgement of the choice: heading, count and text
    options: tuple[OptionRow, ...]
    explanation: Explained  # the trainer's paragraphs for the choice made, and details
    deals: int
    page: PositionPage  # the position as the seat saw it: hand, auction, tricks
    board: str = ""  # the position on the analysis board, as the seat saw it (its notation)

    @property
    def grade(self) -> str | None:
        """The mark (inaccuracy, mistake, blunder), or None."""
        return self.verdict.grade

    @property
    def label(self) -> str:
        """The heading's word: "Mistake", "Too close to call", "Best", ..."""
        return self.verdict.label

    @property
    def kind(self) -> str:
        return self.verdict.kind

    @property
    def cost_text(self) -> str:
        """The chosen option's row's figure: a heading and its table agree."""
        return next(o for o in self.options if o.is_chosen).cost_text

    @property
    def has_points(self) -> bool:
        return any(o.ours is not None for o in self.options)

    @property
    def has_made(self) -> bool:
        return any(o.made is not None for o in self.options)

    @property
    def thin(self) -> bool:
        return grades.is_thin(self.deals)

    @property
    def min_deals(self) -> int:
        return grades.MIN_DEALS


@dataclass(frozen=True)
class ReviewPage:
    status: str
    done: int
    total: int | None
    decisions: tuple[DecisionShown, ...]

    @property
    def finished(self) -> bool:
        return self.status == RoundReview.Status.DONE

    @property
    def marked(self) -> int:
        return sum(d.grade is not None for d in self.decisions)

    @property
    def summary(self) -> str:
        """The count, by the same verdicts as the headings: "2 of your 5 decisions are
        marked: 1 mistake and 1 inaccuracy." """
        total = len(self.decisions)
        counts = [
            (step, sum(d.grade == step.grade for d in self.decisions))
            for step in reversed(grades.SCALE)
            if step.grade in grades.MARKS
        ]
        parts = [f"{n} {step.label.lower()}{'s' * (n != 1)}" for step, n in counts if n]
        noun = f"decision{'s' * (total != 1)}"
        if not parts:
            text = f"None of your {total} {noun} is marked"
        else:
            are = "is" if self.marked == 1 else "are"
            text = f"{self.marked} of your {total} {noun} {are} marked: {listed(parts)}"
        unmarked = [
            (label, sum(d.kind == kind for d in self.decisions))
            for kind, label in (("noise", "too close to call"), ("thin", "not graded"))
        ]
        also = [f"{n} {label}" for label, n in unmarked if n]
        return text + (f" ({', '.join(also)})" if also else "") + "."


def review_page(*, review: RoundReview) -> ReviewPage:
    """What the review page shows: from each decision's position, its options and the
    trainer's explanation of the choice made (only the seat's view is read)."""
    return ReviewPage(
        status=review.status,
        done=review.done,
        total=review.total,
        decisions=tuple(_shown(decisions.Decision.from_json(d)) for d in review.decisions),
    )


def _shown(decision: decisions.Decision) -> DecisionShown:
    position = decision.position
    hand = position.view().hand if position.phase == "discard" else None
    return DecisionShown(
        index=decision.index,
        phase=position.phase,
        chosen=option_label(decision.chosen, hand),
        chosen_code=decision.chosen,
        best=option_label(position.best.code, hand),
        verdict=grades.verdict_of(position, decision.chosen),
        options=option_rows(position, decision.chosen),
        explanation=explanation(position, decision.chosen),
        deals=position.deals,
        page=core_position_page(position),
        board=analysis_link(position),
    )
