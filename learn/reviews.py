"""Reviews of a player's own rounds: asking for one, reading it, and practising a decision.

Services and the review page's model. The work itself runs on the task queue
(``learn.tasks``). Only a finished round is ever reviewed: the round must be among the
table's finished rounds (``store.finished_match_for_table``) before anything is stored or
shown, and the review is the asker's own seat's alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from game import store
from game.identity import SeatOwner
from game.models import Table
from learn import review as core_review
from learn import tasks
from learn.core import explain, explain_family, grades
from learn.core import positions as core_positions
from learn.models import Learner, Position, Review, RoundReview
from learn.selectors import PositionPage, core_position_page, option_label
from smearsite.kernel import DomainError, NotFound, Refused

# reviews one person may have waiting or running at once: the workers are shared
WAITING_PER_PERSON = 3


class ReviewError(DomainError):
    pass


class TooManyReviews(ReviewError, Refused):
    pass


class NoSuchRound(ReviewError, NotFound):
    pass


class NoSuchDecision(ReviewError, NotFound):
    pass


def finished_rounds(table: Table) -> int:
    return len(store.finished_match_for_table(table).rounds)


def review_request(
    *, table: Table, seat: int, number: int, owner: SeatOwner | None = None
) -> RoundReview:
    """The review of ``seat``'s decisions in round ``number`` (0-based), queued once: a
    second request finds the first (and queues it again only if its worker died). A new
    review is refused while ``owner`` has ``WAITING_PER_PERSON`` unfinished ones."""
    if not 0 <= number < finished_rounds(table):
        raise NoSuchRound("That round is not over, so it cannot be reviewed yet.")
    found = review_for(table=table, seat=seat, number=number)
    if found is not None:
        review_keep_going(review=found)
        return found
    asker = owner.person_key if owner is not None else ""
    waiting = RoundReview.objects.filter(requested_by=asker).exclude(status=RoundReview.Status.DONE)
    if asker and waiting.count() >= WAITING_PER_PERSON:
        raise TooManyReviews(
            f"You have {WAITING_PER_PERSON} reviews waiting already: ask again once one is done."
        )
    try:
        with transaction.atomic():
            review = RoundReview.objects.create(
                table=table,
                round=number,
                seat=seat,
                requested_by=asker,
                enqueued_at=timezone.now(),
            )
            tasks.review_enqueue(review.pk)
        return review
    except IntegrityError:
        review = RoundReview.objects.get(table=table, round=number, seat=seat)
    review_keep_going(review=review)
    return review


def review_keep_going(*, review: RoundReview) -> None:
    """Queue the review again if it is stale (its worker died or its task was lost)."""
    if tasks.stale_reviews().filter(pk=review.pk).exists():
        tasks.review_enqueue(review.pk)


def review_for(*, table: Table, seat: int, number: int) -> RoundReview | None:
    return RoundReview.objects.filter(table=table, round=number, seat=seat).first()


# --- Practise this ----------------------------------------------------------------------


def review_practise(*, learner: Learner, review: RoundReview, index: int) -> Position:
    """Put a reviewed decision into the learner's practice queue: the trainer's position,
    theirs alone, due at once, then spaced like any missed position."""
    data = next((d for d in review.decisions if d["index"] == index), None)
    if data is None:
        raise NoSuchDecision("That decision is not in the review.")
    core = core_positions.Position.from_json(data["position"])
    now = timezone.now()
    with transaction.atomic():
        position, _ = Position.objects.get_or_create(
            key=core.key,
            defaults={
                "data": core.to_json(),
                "phase": core.phase,
                "players": core.players,
                "preset": core.preset,
                "theme_tags": Position.tags_for(core.themes),
                "tricks": core.tricks_done,
                "barred": core.barred,
                "rating": core.prior_rating,
                "owner": learner,
            },
        )
        queued, created = Review.objects.select_for_update().get_or_create(
            learner=learner, position=position, defaults={"due_at": now, "missed_at": now}
        )
        if not created:
            queued.due_at, queued.solved_at = now, None
            queued.save(update_fields=["due_at", "solved_at"])
    return position


# --- The page ---------------------------------------------------------------------------


@dataclass(frozen=True)
class OptionShown:
    code: str
    label: str
    value: float
    cost: float  # against the best option, unrounded: shown through grades.points alone
    is_best: bool
    is_chosen: bool
    tied: bool  # one of several options showing the best value: "level", not "best"

    @property
    def value_text(self) -> str:
        return grades.points(self.value, signed=True).replace("-", "\u2212")

    @property
    def cost_text(self) -> str:
        return grades.points(self.cost)

    @property
    def tag(self) -> str:
        """ "best" for the one best option, "level" for each of several that tie."""
        return "level" if self.tied else "best" if self.is_best else ""


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
    options: tuple[OptionShown, ...]
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
        decisions=tuple(_shown(core_review.Decision.from_json(d)) for d in review.decisions),
    )


def _shown(decision: core_review.Decision) -> DecisionShown:
    position = decision.position
    best = position.best
    tied = len(explain.level_with_best(position)) > 1
    options = tuple(
        OptionShown(
            code=o.code,
            label=option_label(o.code),
            value=o.value,
            cost=max(0.0, best.value - o.value),
            is_best=o.code == best.code,
            is_chosen=o.code == decision.chosen,
            tied=tied and grades.level(o.value, best.value),
        )
        for o in position.options
    )
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
        explanation=tuple(_explained(position)(position, decision.chosen)),
        deals=position.deals,
        page=core_position_page(position),
    )


def _explained(position: core_positions.Position):
    """The explanation in the words of the position's game (explain_family: full deck)."""
    return explain.explain if position.rules.is_house else explain_family.explain
