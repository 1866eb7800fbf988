"""The review page's model: each reviewed decision as the seat saw it, its options' match
values, what the choice made cost and the trainer's explanation of it.

Built from each decision's position (``learn.round_review.decisions``) alone, through the
seat's view: no stored row and no hidden card reaches the template.
"""

from __future__ import annotations

from dataclasses import dataclass

from learn.core import grades
from learn.models import RoundReview
from learn.presenters import (
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
    cost_text: str  # the chosen option's row's figure: a header and its table agree
    grade: str | None
    grade_label: str
    options: tuple[OptionRow, ...]
    explanation: tuple[str, ...]  # the trainer's paragraphs for the choice made
    deals: int
    page: PositionPage  # the position as the seat saw it: hand, auction, tricks

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
    best = position.best
    options = option_rows(position, decision.chosen)
    chosen = next(o for o in options if o.is_chosen)
    return DecisionShown(
        index=decision.index,
        phase=position.phase,
        chosen=option_label(decision.chosen),
        chosen_code=decision.chosen,
        best=option_label(best.code),
        cost_text=chosen.cost_text,
        grade=decision.grade,
        grade_label=grades.LABELS.get(decision.grade, ""),
        options=options,
        explanation=explanation(position, decision.chosen),
        deals=position.deals,
        page=core_position_page(position),
    )
