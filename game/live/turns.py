"""Whose turn it is at a table, as the bots' timetable needs to know it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from game.engine.view import SeatView
from game.live import presence, sql, store
from game.models import Table


@dataclass(frozen=True)
class Turn:
    """Whose turn it is at a table, and what that seat may know to choose its move."""

    round: int
    index: int  # actions already made this round
    seat: int
    bot_level: str | None
    away: bool  # a person for whom a bot stands in
    since: datetime  # when the turn began: the last stored move, or the table's creation
    abandoned: bool  # every person has been away a long while: nobody to play for
    someone_here: bool  # a person at the table is not away: their bots are served first
    view: SeatView  # the acting seat's own view, for whoever chooses its move
    legal: tuple[int, ...]
    # a person's away countdown began then (``presence.countdown_from``); None: their
    # page is here and has not shown them the turn yet
    countdown_from: datetime | None = None

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.round, self.index, self.seat)


def abandoned(seat_rows) -> bool:
    """Every person at the table has been away for SMEAR_ABANDONED_AFTER_S: its bots stop
    and it waits for the first of them to come back."""
    people = [seat for seat in seat_rows if not seat.bot_level]
    away = [seat.away_since for seat in people if seat.away_since is not None]
    if not people or len(away) < len(people):
        return False
    gone_s = (timezone.now() - max(away)).total_seconds()
    return gone_s >= settings.SMEAR_ABANDONED_AFTER_S


def table_turn(*, table_id: int) -> Turn | None:
    """The turn of a table in play, or None when nobody is to act."""
    rows = store.read_rows(table_id)
    if rows is None or rows[0].status != Table.Status.PLAYING:
        return None
    table, seat_rows = rows
    match = store.match_for_table(table, fresh=True)
    seat_number = match.current_player()
    if seat_number is None:
        return None
    seats = {seat.number: seat for seat in seat_rows}
    last_move = sql.last_move_at(table.pk)
    view = match.view_for(seat_number)
    since = last_move or table.created
    acting = seats[seat_number]
    return Turn(
        round=len(match.rounds) - 1,
        index=len(match.round.history),
        seat=seat_number,
        bot_level=seats[seat_number].bot_level,
        away=seats[seat_number].away_since is not None,
        since=since,
        abandoned=abandoned(seats.values()),
        someone_here=any(not s.bot_level and s.away_since is None for s in seats.values()),
        view=view,
        legal=tuple(match.legal_actions()),
        countdown_from=presence.countdown_from(
            since=since,
            version=table.moves,
            shown_version=acting.shown_version,
            shown_at=acting.shown_at,
            heard_at=acting.heard_at,
        ),
    )
