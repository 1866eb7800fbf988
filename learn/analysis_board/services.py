"""Asking the analysis board for its answers: the only code that writes a ``BoardAnswer``
outside its task.

An answer already worked out (or waiting) for the same question is found by its key and
never worked out again; a new one is queued on the task queue within the visitor's budget
(``SMEAR_BOARD_ANSWERS_PER_HOUR`` new answers an hour, ``WAITING_PER_VISITOR`` waiting at
once): past it, ``TooManyAnswers`` in words, which the views answer with a 429.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from game.engine import board_notation
from game.engine.board import Replayed, hand_unknown
from learn.analysis_board import answers, tasks
from learn.models import BoardAnswer
from smearsite.kernel import TooMany, ratelimit

WAITING_PER_VISITOR = 4
# an answer waiting this long lost its worker (killed mid-answer): asking again requeues it
STALE_AFTER = timedelta(minutes=5)


class TooManyAnswers(TooMany):
    pass


@dataclass(frozen=True)
class Questions:
    """The answers a board asks for: the expert's (when the seat asking is to act and the
    board knows its hand) and the exact table (when every card is known), by key."""

    expert: str | None
    exact: str | None


def questions(replayed: Replayed) -> Questions:
    board = replayed.board
    view = answers.seat_view(replayed)
    asks_expert = view.legal and not hand_unknown(replayed)
    expert = answers.view_key(view, settings.SMEAR_BOARD_EXPERT) if asks_expert else None
    exact = answers.exact_key(_notation(replayed)) if board.every_card_known else None
    return Questions(expert, exact)


def _notation(replayed: Replayed) -> str:
    return board_notation.write(replayed.board)


def visitor_key(address: str) -> str:
    return hashlib.sha256(f"board:{address}".encode()).hexdigest()[:32]


def board_ask(*, replayed: Replayed, address: str) -> list[BoardAnswer]:
    """The board's answers, queued where they are not found; TooManyAnswers past the
    visitor's budget (nothing is stored then)."""
    asked = questions(replayed)
    wanted = [(BoardAnswer.Kind.EXPERT, asked.expert), (BoardAnswer.Kind.EXACT, asked.exact)]
    wanted = [(kind, key) for kind, key in wanted if key is not None]
    found = {row.key: row for row in BoardAnswer.objects.filter(key__in=[k for _, k in wanted])}
    for row in found.values():
        _keep_going(row)
    new = [(kind, key) for kind, key in wanted if key not in found]
    if new:
        _within_budget(address, len(new))
    visitor = visitor_key(address)
    notation = _notation(replayed)
    players = replayed.board.players
    for kind, key in new:
        found[key] = _queue(kind=kind, key=key, notation=notation, visitor=visitor, players=players)
    return [found[key] for _, key in wanted]


def _within_budget(address: str, count: int) -> None:
    visitor = visitor_key(address)
    waiting = BoardAnswer.objects.filter(
        requested_by=visitor, status__in=(BoardAnswer.Status.QUEUED, BoardAnswer.Status.RUNNING)
    ).count()
    if waiting + count > WAITING_PER_VISITOR:
        raise TooManyAnswers(
            f"You have {waiting} answers being worked out already: wait until they are "
            "done, then ask again."
        )
    limit = settings.SMEAR_BOARD_ANSWERS_PER_HOUR
    for _ in range(count):
        if not ratelimit.allow("board-answer", address, limit=limit, per_s=3600):
            raise TooManyAnswers(
                f"The board works out at most {limit} new answers an hour for one "
                "connection, and you have had them: boards already answered still open "
                "at once. Try a new one later."
            )


def _queue(*, kind: str, key: str, notation: str, visitor: str, players: int) -> BoardAnswer:
    try:
        with transaction.atomic():
            row = BoardAnswer.objects.create(
                key=key, kind=kind, notation=notation, requested_by=visitor, players=players
            )
            tasks.board_answer.enqueue(row.pk)
    except IntegrityError:  # asked at the same moment by another request
        return BoardAnswer.objects.get(key=key)
    return row


def _keep_going(row: BoardAnswer) -> None:
    """Queue again an answer whose worker died (waiting past all patience)."""
    if row.finished or row.created_at > timezone.now() - STALE_AFTER:
        return
    with transaction.atomic():
        if (
            BoardAnswer.objects.filter(pk=row.pk, created_at=row.created_at)
            .exclude(status__in=(BoardAnswer.Status.DONE, BoardAnswer.Status.FAILED))
            .update(status=BoardAnswer.Status.QUEUED, created_at=timezone.now())
        ):
            tasks.board_answer.enqueue(row.pk)
