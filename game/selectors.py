"""Selectors: read game data, never write it.

What a page shows is built by ``game.presenters`` from rows read here and the table's
match (``game.live.store``): every seat's page from the table's public part plus that seat's
own SeatView, so it cannot show another seat's cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, OuterRef, Subquery
from django.utils import timezone

from game.engine import notation
from game.engine.state import MatchState
from game.live import store
from game.live.turns import abandoned
from game.models import ActionLog, Seat, Table
from game.players.identity import SeatOwner
from game.presenters import lobby_page, replay_page, table_page
from smearsite.kernel import normal_code


def table_by_code(code: str) -> Table | None:
    """The table with ``code`` (as typed: it is normalised here), or None."""
    return Table.objects.filter(code=normal_code(code)).first()


def seat_number_for(table: Table, owner: SeatOwner) -> int | None:
    seat = owner.seat_in(table.seats.all())
    return None if seat is None else seat.number


def table_page_context(
    *, table: Table, seat_owner: SeatOwner, match: MatchState | None = None
) -> dict:
    """The context of the ``game/table.html#table`` partial for whoever asks. The page and
    every live update render from this. ``match``, when given, is the table's match as
    just read (one read serves every seat that redraws after a move).

    ``t`` is a ``LobbyView`` while the table waits for players, a ``TableView`` for a
    seated person, and a ``SpectatorView`` (public information only) for anyone else.
    """
    return table_page_contexts(table=table, seat_owners=[seat_owner], match=match)[seat_owner]


def table_page_contexts(
    *, table: Table, seat_owners, match: MatchState | None = None, seat_rows=None
) -> dict[SeatOwner, dict]:
    """``table_page_context`` for several askers at once: the table's public part is
    built once and shared by every seat's page. ``seat_rows``, when given, are the
    table's seats as just read."""
    seat_rows = list(table.seats.all()) if seat_rows is None else seat_rows
    if not table.dealt:
        return {owner: {"t": _lobby_view(table, seat_rows, owner)} for owner in seat_owners}
    match = match or store.match_for_table(table)
    public = public_page(table=table, seat_rows=seat_rows, match=match)
    return {
        owner: {"t": page_for(public=public, match=match, seat=owner.seat_in(seat_rows))}
        for owner in seat_owners
    }


def _lobby_view(table: Table, seat_rows: list[Seat], owner: SeatOwner) -> lobby_page.LobbyView:
    mine = owner.seat_in(seat_rows)
    return lobby_page.lobby_view(
        table=table,
        seat_rows=seat_rows,
        your_seat=None if mine is None else mine.number,
        user_id=owner.user_id,
    )


def public_page(
    *, table: Table, seat_rows: list[Seat], match: MatchState | None = None
) -> table_page.PublicPage:
    """The part of a table in play that every seat and spectator sees alike: built once
    for each version of the table (kept by its owner, ``game.live.store``), from the page
    of the version before where it can."""
    key = _page_key(table, seat_rows)
    kept = store.kept_page(table)
    if kept is not None and kept[0] == key:
        return kept[1]
    match = match or store.match_for_table(table)
    rematch_code = None
    if table.rematch_id is not None:
        rematch_code = Table.objects.filter(pk=table.rematch_id).values_list("code", flat=True)[0]
    page = table_page.public_page(
        table=table,
        seat_rows=seat_rows,
        match=match,
        rematch_code=rematch_code,
        before=None if kept is None else kept[1],
    )
    store.keep_page(table, key, page)
    return page


def _page_key(table: Table, seat_rows: list[Seat]) -> tuple:
    """What a table's public page shows besides its match: its version, what its seats
    show (a name, a level, a stand-in change no version) and whether it is abandoned (the
    clock's doing)."""
    return (
        table.status,
        table.moves,
        table.rematch_id,
        tuple((s.number, s.display_name, s.bot_level, s.away_since is None) for s in seat_rows),
        abandoned(seat_rows),
    )


def page_for(
    *, public: table_page.PublicPage, match: MatchState, seat: Seat | None
) -> table_page.TableView | table_page.SpectatorView:
    """A seated person's page, or a spectator's for anyone else: the share code is the
    capability, so whoever reached the table by its code may watch it, public information
    only (a guessed code shows no more than that)."""
    if seat is None:
        return table_page.SpectatorView(public=public)
    return table_page.TableView(public=public, view=match.round.view_for(seat.number))


def table_view_for(
    *, table: Table, seat_owner: SeatOwner, match: MatchState | None = None
) -> table_page.TableView | None:
    """What the owner's seat may see of the table, or None when they have no seat here."""
    page = table_page_context(table=table, seat_owner=seat_owner, match=match)["t"]
    return page if isinstance(page, table_page.TableView) else None


def finished_match(*, table: Table) -> MatchState:
    """The table's match cut to its finished rounds: a round in progress is never shown."""
    return store.finished_match_for_table(table)


def round_replay(*, table: Table, number: int) -> replay_page.RoundReplay | None:
    """A finished round laid out trick by trick (None when there is no such finished round)."""
    match = store.finished_match_for_table(table)
    if not 0 <= number < len(match.rounds):
        return None
    names = {s.number: s.display_name for s in table.seats.all()}
    return replay_page.round_replay(match=match, number=number, names=names)


# --- The lists of tables ------------------------------------------------------------------


@dataclass(frozen=True)
class TableListing:
    game: str  # the game it plays, in words
    code: str
    players: int
    taken: int
    target: int
    public: bool
    status: str
    status_label: str
    host_name: str

    @property
    def free(self) -> int:
        return self.players - self.taken


def _with_counts(tables):
    host_seat = Seat.objects.filter(table=OuterRef("pk"), user_id=OuterRef("host_id"))
    return tables.annotate(
        taken=Count("seats"), host_name=Subquery(host_seat.values("display_name")[:1])
    )


def _listing(t: Table) -> TableListing:
    return TableListing(
        game=notation.preset_name(store.table_rules(t).preset),
        code=t.code,
        players=t.players,
        taken=t.taken,
        target=t.target,
        public=t.public,
        status=t.status,
        status_label=t.get_status_display(),
        host_name=t.host_name or "someone who left",
    )


def open_public_tables(*, limit: int = 50) -> list[TableListing]:
    """Public tables waiting in the lobby with a seat free, newest first."""
    tables = _with_counts(Table.objects.filter(public=True, status=Table.Status.LOBBY))
    tables = tables.filter(taken__lt=F("players")).order_by("-created")
    return [_listing(t) for t in tables[:limit]]


def tables_for_user(*, user_id: int, limit: int = 20) -> list[TableListing]:
    """The tables a signed-in user sits at that are not over, newest first."""
    mine = Seat.objects.filter(user_id=user_id).values("table_id")
    tables = _with_counts(
        Table.objects.filter(pk__in=mine).exclude(
            status__in=(Table.Status.FINISHED, Table.Status.CLOSED)
        )
    ).order_by("-created")
    return [_listing(t) for t in tables[:limit]]


def table_for_code(code: str) -> Table | None:
    return Table.objects.filter(code=normal_code(code)).first()


def turn_age_ms(*, table: Table) -> int:
    """Milliseconds since the table's last stored move (or its start): how long the turn
    on it has run."""
    last = (
        ActionLog.objects.filter(table=table)
        .order_by("-round", "-index")
        .values_list("created", flat=True)
        .first()
    )
    return max(0, int((timezone.now() - (last or table.created)).total_seconds() * 1000))
