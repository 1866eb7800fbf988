"""The analysis board's answers, worked out on the task queue (``manage.py review_worker``
runs them beside the reviews): one task per answer, which claims its row, works the answer
out from the board's notation (``answers``) and stores it, or the reason it could not be.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.utils import timezone
from django_tasks import task

from game.engine.board import BoardError
from learn.analysis_board import answers
from learn.models import BoardAnswer

logger = logging.getLogger(__name__)

# above the trainer's stock refill (-50), below nothing: a visitor is watching the page
PRIORITY = 0


@task(priority=PRIORITY)
def board_answer(answer_id: int) -> None:
    board_work(answer_id=answer_id)


def board_work(*, answer_id: int) -> bool:
    """Work out one answer if it is still waiting; whether this call did."""
    claimed = BoardAnswer.objects.filter(pk=answer_id, status=BoardAnswer.Status.QUEUED).update(
        status=BoardAnswer.Status.RUNNING
    )
    if not claimed:
        return False
    row = BoardAnswer.objects.get(pk=answer_id)
    found, error = None, ""
    try:
        found = work_out(kind=row.kind, notation=row.notation)
    except BoardError as refused:
        error = refused.reason[:300]
    except Exception:  # a bug: the page says the answer failed, the log says why
        logger.exception("board answer %s failed", row.key)
        error = "the answer could not be worked out"
    status = BoardAnswer.Status.FAILED if error else BoardAnswer.Status.DONE
    BoardAnswer.objects.filter(pk=answer_id).update(
        status=status, answer=found, error=error, finished_at=timezone.now()
    )
    return True


def work_out(*, kind: str, notation: str) -> dict:
    """The answer of ``kind`` for the board ``notation`` names."""
    replayed = answers.read(notation)
    if kind == BoardAnswer.Kind.EXPERT:
        return answers.expert_answer(answers.expert_view(replayed), settings.SMEAR_BOARD_EXPERT)
    return answers.exact_answer(replayed.board)
