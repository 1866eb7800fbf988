"""The lobby of a table with friends: its seats, who sits where and who may start."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.conf import settings
from django.urls import reverse

from game.bots import OFFERED_LEVELS
from game.engine import notation, variants
from game.models import Seat, Table

# --- Tables with friends: the lobby ---------------------------------------------------------


@dataclass(frozen=True)
class LobbySeat:
    number: int
    name: str | None  # None while the seat is empty
    bot_level: str | None
    team: str | None  # "A", "B", ... when some unit has partners
    is_you: bool
    is_host: bool

    @property
    def is_empty(self) -> bool:
        return self.name is None


@dataclass(frozen=True)
class LobbyView:
    """A table waiting for players: who sits where, and what the asker may do about it."""

    code: str
    status: str
    players: int
    target: int
    public: bool
    teams: tuple[str, ...]  # "Team A: seats 0 & 2", one a unit; empty for cutthroat
    path: str  # the table page: the share link is this made absolute
    share_url: str  # the share link from settings.SITE_URL, for renders without a request
    host_name: str
    seats: tuple[LobbySeat, ...]
    your_seat: int | None
    is_host: bool
    signed_in: bool
    bot_levels: tuple[str, ...]
    rules_lines: tuple[str, ...] = ()  # the game the table will play, at a glance
    rules_anchor: str = "house"

    @property
    def empty(self) -> int:
        return sum(1 for seat in self.seats if seat.is_empty)

    @property
    def ready(self) -> bool:
        return not self.empty

    @property
    def seats_words(self) -> str:
        """How full the table is, for the lobby's status line."""
        if self.ready:
            if self.is_host:
                return "Every seat is taken: start the match when you are ready."
            return f"Every seat is taken: waiting for {self.host_name} to start the match."
        verb = "is" if self.empty == 1 else "are"
        return f"Waiting for players: {self.empty} of {self.players} seats {verb} empty."

    is_lobby = True  # the template's switch between this and a table in play

    @property
    def closed(self) -> bool:
        return self.status == Table.Status.CLOSED

    @property
    def can_join(self) -> bool:
        return not self.closed and self.signed_in and self.your_seat is None and self.empty > 0

    @property
    def state_key(self) -> str:
        """Changes whenever the lobby does: a poller compares it to see a change."""
        seats = "|".join(f"{s.number}:{s.name or ''}:{s.bot_level or ''}" for s in self.seats)
        return f"{self.status}|{seats}"


def _team_letters(teams: list[list[int]]) -> dict[int, str] | None:
    if all(len(unit) == 1 for unit in teams):
        return None  # cutthroat: everyone for themselves
    return {seat: chr(ord("A") + u) for u, unit in enumerate(teams) for seat in unit}


def lobby_view(*, table: Table, seat_rows: list[Seat], your_seat: int | None, user_id) -> LobbyView:
    rows = {s.number: s for s in seat_rows}
    table_rules = replace(variants.from_record(table.rules), target=table.target)
    letters = _team_letters(table.teams)
    seats = tuple(
        LobbySeat(
            number=n,
            name=rows[n].display_name if n in rows else None,
            bot_level=rows[n].bot_level if n in rows else None,
            team=None if letters is None else letters[n],
            is_you=n == your_seat,
            is_host=n in rows and rows[n].user_id is not None and rows[n].user_id == table.host_id,
        )
        for n in range(table.players)
    )
    path = reverse("game:table", args=[table.code])
    teams = ()
    if letters is not None:
        teams = tuple(
            f"Team {chr(ord('A') + u)}: seats {' & '.join(str(s) for s in unit)}"
            for u, unit in enumerate(table.teams)
        )
    host_name = next((s.name for s in seats if s.is_host), None) or "someone who left"
    return LobbyView(
        code=table.code,
        status=table.status,
        players=table.players,
        target=table.target,
        public=table.public,
        teams=teams,
        path=path,
        share_url=settings.SITE_URL.rstrip("/") + path,
        host_name=host_name,
        seats=seats,
        your_seat=your_seat,
        is_host=user_id is not None and user_id == table.host_id,
        signed_in=user_id is not None,
        bot_levels=OFFERED_LEVELS,
        rules_lines=notation.rules_summary(table_rules),
        rules_anchor=table_rules.preset,
    )
