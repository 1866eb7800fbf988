"""The review of a player's own rounds: asking for one, and practising a decision of it.

The only code that writes a ``RoundReview`` outside its worker. The work itself runs on
the task queue (``learn.round_review.tasks``). Only a finished round is ever reviewed: the
round must be among the table's finished rounds (``selectors.finished_rounds``) before
anything is stored, and the review is the asker's own seat's alone.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from game.models import Table
from game.players.identity import SeatOwner
from learn.core import positions as core_positions
from learn.models import Learner, MissedPosition, PracticePosition, RoundReview
from learn.round_review import tasks
from learn.round_review.selectors import finished_rounds, review_for
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
    """Queue the review again if it is stale (its worker died or its task was lost): for
    someone who asks for it again. The workers resume stale reviews on their own."""
    tasks.review_resume(review.pk)


# --- Practise this ----------------------------------------------------------------------


def review_practise(*, learner: Learner, review: RoundReview, index: int) -> PracticePosition:
    """Put a reviewed decision into the learner's practice queue: the trainer's position,
    theirs alone, due at once, then spaced like any missed position."""
    data = next((d for d in review.decisions if d["index"] == index), None)
    if data is None:
        raise NoSuchDecision("That decision is not in the review.")
    core = core_positions.AnalysedPosition.from_json(data["position"])
    now = timezone.now()
    with transaction.atomic():
        position, _ = PracticePosition.objects.get_or_create(
            key=core.key,
            defaults={
                "data": core.to_json(),
                "phase": core.phase,
                "players": core.players,
                "preset": core.preset,
                "theme_tags": PracticePosition.tags_for(core.themes),
                "tricks": core.tricks_done,
                "barred": core.barred,
                "rating": core.prior_rating,
                "owner": learner,
            },
        )
        queued, created = MissedPosition.objects.select_for_update().get_or_create(
            learner=learner, position=position, defaults={"due_at": now, "missed_at": now}
        )
        if not created:
            queued.due_at, queued.solved_at = now, None
            queued.save(update_fields=["due_at", "solved_at"])
    return position
