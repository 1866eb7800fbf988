"""Reading the analysis board's stored answers: by their keys alone (``services.questions``)."""

from __future__ import annotations

import statistics

from game.engine.board import Replayed
from learn.analysis_board.presenters import (
    BoardPage,
    exact_shown,
    expert_shown,
    moment_of,
    sides_of,
)
from learn.analysis_board.services import questions
from learn.models import BoardAnswer

# how many of the latest answers of a kind and table size say how long the next will take
RECENT = 20
WAITING = (BoardAnswer.Status.QUEUED, BoardAnswer.Status.RUNNING)


def board_page(*, replayed: Replayed, notation: str) -> BoardPage:
    asked = questions(replayed)
    keys = [key for key in (asked.expert, asked.exact) if key]
    rows = {row.key: row for row in BoardAnswer.objects.filter(key__in=keys)}
    moment = moment_of(replayed)
    why_not = ""
    if asked.expert is None:
        if moment.to_act is None:
            why_not = "The round is over: nobody is to act."
        elif moment.to_act != moment.seat:
            why_not = (
                f"Seat {moment.to_act} is to act, not your seat: the expert answers when it "
                "is your turn."
            )
        else:
            why_not = f"The expert cannot answer: {moment.hand_unknown}."
    players = replayed.board.players
    expert = exact = None
    if asked.expert is not None:
        row = rows.get(asked.expert)
        expert = expert_shown(replayed, row, lately=_lately(row, players))
    if asked.exact is not None:
        row = rows.get(asked.exact)
        exact = exact_shown(replayed, row, lately=_lately(row, players))
    return BoardPage(
        notation=notation,
        moment=moment,
        expert=expert,
        expert_why_not=why_not,
        exact=exact,
        sides=sides_of(replayed),
    )


def _lately(row: BoardAnswer | None, players: int) -> float | None:
    """How long answers like ``row`` have taken lately, asked only while it waits."""
    if row is None or row.status not in WAITING:
        return None
    return recent_seconds(kind=row.kind, players=players)


def recent_seconds(*, kind: str, players: int) -> float | None:
    """The median seconds from asking to answer of the latest ``RECENT`` answers done of
    ``kind`` at a table of ``players``, the wait for a worker included; None before any."""
    spans = (
        BoardAnswer.objects.filter(
            kind=kind, players=players, status=BoardAnswer.Status.DONE, finished_at__isnull=False
        )
        .order_by("-finished_at")
        .values_list("created_at", "finished_at")[:RECENT]
    )
    seconds = [(finished - created).total_seconds() for created, finished in spans]
    return statistics.median(seconds) if seconds else None
