"""Reads of the review of a player's own rounds: which rounds may be reviewed, and the
review of one. Selectors only read."""

from __future__ import annotations

from game.live import store
from game.models import Table
from learn.models import RoundReview


def finished_rounds(table: Table) -> int:
    return len(store.finished_match_for_table(table).rounds)


def review_for(*, table: Table, seat: int, number: int) -> RoundReview | None:
    return RoundReview.objects.filter(table=table, round=number, seat=seat).first()
