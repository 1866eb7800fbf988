"""Reading the analysis board's stored answers: by their keys alone (``services.questions``)."""

from __future__ import annotations

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
    return BoardPage(
        notation=notation,
        moment=moment,
        expert=None if asked.expert is None else expert_shown(replayed, rows.get(asked.expert)),
        expert_why_not=why_not,
        exact=None if asked.exact is None else exact_shown(replayed, rows.get(asked.exact)),
        sides=sides_of(replayed),
    )
