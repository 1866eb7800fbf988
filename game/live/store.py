"""Each table's owner in this process: its rows, its match and its version.

Nothing about a table's cards is stored but its deals (``Round``) and its actions
(``ActionLog``): replaying them through the engine is the match. Replaying is most of
what a live move would cost, and every seat's page after a move needs the same match, so
each process keeps, per table, the matches it made by version (``Table.moves``) and the
rows it read or stored: the play service applies a move once to the match kept here, and
this process's redraws of that move draw from the match and rows it left.
"""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass, field
from typing import NamedTuple

from cachetools import LRUCache
from django.db import transaction

from game.engine import variants
from game.engine.cards import mask_of, parse_card
from game.engine.rules import parse_action_code
from game.engine.state import Deal, IllegalAction, MatchSetup, MatchState
from game.engine.variants import Rules
from game.live import sql
from game.live.events import PublicMove
from game.models import Seat, Table


def table_rules(table: Table) -> Rules:
    """The table's rules (``Table.rules`` holds what a record would: ``Rules.to_record()``)."""
    return variants.from_record(table.rules)


def rules_record(rules: Rules) -> str | dict:
    """What ``Table.rules`` keeps of ``rules``: the record's spelling, without the target
    (the table's own ``target`` column holds it)."""
    found = rules.to_record()
    if isinstance(found, str):
        return found
    found = {k: v for k, v in found.items() if k != "target"}
    return found if len(found) > 1 else found["preset"]


def table_setup(table: Table) -> MatchSetup:
    return MatchSetup(
        table.players,
        tuple(tuple(unit) for unit in table.teams),
        table.target,
        rules=table_rules(table),
    )


# One owner per table in this process, the way a game server keeps one actor per game:
# everything this process keeps of a table is its owner's. The table's identity, its newest
# rows (read, stored or advanced here), the rows each move stored here left (by the version
# it made), its matches by version (the newest of which the next version is built from
# with only the moves stored since), the public page built for its newest version (data:
# the next version's reuses what did not change, the last round's summary), the parts its
# last redraw drew (by their inputs: the next redraw draws only what changed), and the
# redraw job queued for it. A MatchState, a page and the rows kept are never changed, only
# replaced, so threads may share them. The owners are one cachetools LRU cache behind one
# lock (a cachetools cache is not thread-safe): the first of the live layer's three places
# of state (README, "One owner per table").
OWNERS_KEPT = 2048
VERSIONS_KEPT = 3  # a table's redraws and its next move need only its last versions
VERSION_FIELDS = ("code", "created", "target", "first_dealer", "status", "moves")


@dataclass
class TableOwner:
    identity: tuple | None  # _identity(table): a test database may give a table's id to another
    rows: tuple[Table, list[Seat]] | None = None
    stored: dict[int, tuple[Table, list[Seat]]] = field(default_factory=dict)
    matches: dict[tuple[str, int], MatchState] = field(default_factory=dict)  # (status, moves)
    latest: tuple[int, MatchState] | None = None  # (moves, match): the newest
    shown: int = 0  # the newest version a redraw here has drawn: never one behind it
    page: tuple[tuple, object] | None = None  # (page_key, the public page built for it)
    drawn: tuple[int, dict] = (-1, {})  # (version, the parts its redraw drew, by input)
    job: object | None = None  # the redraw job queued, not yet reading (game.live.redraw)

    def keep_match(self, status: str, moves: int, match: MatchState) -> None:
        self.matches[(status, moves)] = match
        _trim(self.matches, key=lambda version: version[1])
        if self.latest is None or self.latest[0] <= moves:
            self.latest = (moves, match)

    def keep_rows(self, table: Table, seats: list[Seat]) -> None:
        """Keep ``table``'s rows as its newest here, unless newer ones are kept."""
        if self.rows is None or self.rows[0].moves <= table.moves:
            self.rows = (table, seats)


_owners: LRUCache[int, TableOwner] = LRUCache(OWNERS_KEPT)
_owners_lock = threading.Lock()


def with_owner(table_id: int, act):
    """``act(owner)`` with the table's owner held alone (made for it if none is kept: it
    takes the table's identity from the first to name it), and what it returns."""
    with _owners_lock:
        owner = _owners.get(table_id)
        if owner is None:
            owner = _owners[table_id] = TableOwner(None)
        return act(owner)


def kept_page(table: Table):
    """The key and public page last built for the table here, or None."""
    owner = _kept(table.pk)
    return None if owner is None or owner.identity != _identity(table) else owner.page


def keep_page(table: Table, key: tuple, page) -> None:
    """Keep ``page`` as the table's public page for ``key``, unless one for a newer version
    is kept."""
    with _owners_lock:
        owner = _owner(table.pk, _identity(table))
        if owner.page is None or owner.page[0][1] <= key[1]:
            owner.page = (key, page)


def kept_drawings(table: Table) -> dict:
    """The parts the table's last redraw here drew, by their inputs (never changed)."""
    owner = _kept(table.pk)
    return {} if owner is None or owner.identity != _identity(table) else owner.drawn[1]


def keep_drawings(table: Table, drawn: dict) -> None:
    """Keep ``drawn``, the parts a redraw of the table's version drew, unless a redraw of
    a newer version has kept its own."""
    with _owners_lock:
        owner = _owner(table.pk, _identity(table))
        if owner.drawn[0] <= table.moves:
            owner.drawn = (table.moves, drawn)


def _trim(kept: dict, key) -> None:
    while len(kept) > VERSIONS_KEPT:
        del kept[min(kept, key=key)]


def _owner(table_id: int, identity: tuple) -> TableOwner:
    """The table's owner here, made afresh for a table of another identity (call with
    ``_owners_lock`` held)."""
    owner = _owners.get(table_id)
    if owner is not None and owner.identity is None:  # made by ``with_owner``
        owner.identity = identity
    if owner is None or owner.identity != identity:
        owner = _owners[table_id] = TableOwner(identity)
    return owner


def _kept(table_id: int) -> TableOwner | None:
    with _owners_lock:
        return _owners.get(table_id)


def match_for_table(table: Table, *, fresh: bool = False) -> MatchState:
    """The table's match: every stored deal and action replayed through the engine, or the
    replay already made for the table's current version.

    The version is read afresh (``table`` may be an object loaded before the last move)
    unless ``fresh`` says ``table`` was read just now, as a locked row or for one redraw.
    """
    if not fresh:
        table = Table.objects.only(*VERSION_FIELDS).get(pk=table.pk)
    with _owners_lock:
        owner = _owner(table.pk, _identity(table))
        match = owner.matches.get((table.status, table.moves))
        latest = owner.latest
    if match is not None:
        return match
    since = latest[1] if latest and latest[0] <= table.moves else None
    match = _replay(table, since)
    _remember(table.pk, _identity(table), table.status, table.moves, match)
    return match


def kept_match(table: Table) -> MatchState | None:
    """The match kept for ``table``'s version (a row read just now), or None: never a
    query or a replay."""
    owner = _kept(table.pk)
    if owner is None or owner.identity != _identity(table):
        return None
    return owner.matches.get((table.status, table.moves))


def move_stored(table: Table, seats: list[Seat], match: MatchState) -> int:
    """A move has just been stored, leaving ``table`` and ``seats`` (read under the table's
    lock and updated by the move) and making ``match``. Once its transaction commits the
    owner keeps them as the table's state at the version the move made, and every seat's
    redraw here draws from them without a read; that version is returned, for the
    announcement. (Never before the commit: a rolled-back move would shadow the real one.)"""
    transaction.on_commit(lambda: _keep_move(table, seats, match))
    return table.moves


def _keep_move(table: Table, seats: list[Seat], match: MatchState) -> None:
    with _owners_lock:
        owner = _owner(table.pk, _identity(table))
        owner.stored[table.moves] = (table, seats)
        _trim(owner.stored, key=lambda version: version)
        owner.keep_rows(table, seats)
        owner.keep_match(table.status, table.moves, match)


class Held(NamedTuple):
    """A table as a redraw draws it: its rows and its match (None: nothing dealt yet)."""

    table: Table
    seats: list[Seat]
    match: MatchState | None


def state_after(
    table_id: int, heard: list[tuple[int | None, PublicMove | None]], *, read: bool
) -> Held | None:
    """The table after the changes a redraw heard of (each: the version a stored move made,
    the plain move it carried), as the redraw is to draw it, never behind what a redraw
    here has drawn already.

    Without ``read``: never a query (an event loop calls it), and None when one is needed:
    the rows a move stored here left, or those kept advanced by the moves announced, and
    the match kept for them. With ``read``: what is not held is read (None: the table is
    gone)."""
    rows = _rows_heard(table_id, heard)
    if not read:
        match = None if rows is None else kept_match(rows[0])
        if match is None:
            return None
    else:
        rows = rows or read_rows(table_id)
        if rows is None:
            return None
        match = match_for_table(rows[0], fresh=True) if rows[0].dealt else None
    table, seats = rows
    with _owners_lock:
        owner = _owner(table.pk, _identity(table))
        owner.shown = max(owner.shown, table.moves)
    return Held(table, seats, match)


def _rows_heard(table_id: int, heard: list[tuple[int | None, PublicMove | None]]):
    """The rows of the newest change heard, when every one was a move stored here or a
    plain move (which advances the rows kept here), unless a redraw here has drawn a newer
    version; else None (read them)."""
    if not heard:
        return None
    stored, moves = [], []
    for version, move in heard:
        rows = stored_rows(table_id, version)
        if rows is not None:
            stored.append(rows)
        elif move is not None:
            moves.append(move)
        else:
            return None  # a change that names no rows here and carries no move
    rows = max(stored, key=lambda r: r[0].moves) if stored else None
    if moves and (rows is None or max(m.before for m in moves) >= rows[0].moves):
        rows = advanced_rows(table_id, moves)
    if rows is None:
        return None
    owner = _kept(table_id)
    return None if owner is not None and rows[0].moves < owner.shown else rows


def stored_rows(table_id: int, version: int | None) -> tuple[Table, list[Seat]] | None:
    """The rows a move stored by this process left at ``version``, or None (another
    process's move, a change that is no move, or one forgotten since)."""
    owner = None if version is None else _kept(table_id)
    return None if owner is None else owner.stored.get(version)


def advanced_rows(table_id: int, moves: list[PublicMove]) -> tuple[Table, list[Seat]] | None:
    """The rows at the newest of ``moves`` (announced by other processes), made from the
    newest rows and match kept here by applying the moves from there on, in order; the
    match they make is kept. None when that cannot be done without a read: nothing kept,
    a move missing in between (a gap), a move that does not fit (another round, another
    index, the seats changed), or one that ends the round or the match (a deal is read).
    No query, ever: an event loop may call it."""
    target = max(move.before for move in moves) + 1
    by_version = {move.before: move for move in moves}
    with _owners_lock:
        owner = _owners.get(table_id)
        kept = None if owner is None else owner.rows
        if kept is None:
            return None
        table, seats = kept
        match = owner.matches.get((table.status, table.moves))
    if table.moves >= target:  # already here (stored or read since)
        return kept if table.moves == target else None
    if match is None or table.status != Table.Status.PLAYING:
        return None
    away = stand_ins(seats)
    for version in range(table.moves, target):
        move = by_version.get(version)
        if move is None or move.away != away:
            return None
        if (move.round, move.index) != (len(match.rounds) - 1, len(match.round.history)):
            return None
        try:
            match = match.apply(parse_action_code(move.code), move.seat)
        except (IllegalAction, ValueError):
            return None
        if match.is_terminal() or match.needs_deal():
            return None
    table = copy.copy(table)
    table.moves = target
    seats = [copy.copy(seat) for seat in seats]
    for seat in seats:
        seat.table = table
    with _owners_lock:
        owner = _owner(table.pk, _identity(table))
        owner.keep_match(table.status, table.moves, match)
        owner.keep_rows(table, seats)
    return table, seats


def stand_ins(seats: list[Seat]) -> tuple[bool, ...]:
    """By seat number: whose seat a bot stands in for (a person away), as a move's
    announcement says it (``PublicMove.away``)."""
    return tuple(seat.away_since is not None for seat in sorted(seats, key=lambda s: s.number))


def read_rows(table_id: int) -> tuple[Table, list[Seat]] | None:
    """A table and its seats in one query (None when the table is gone), kept as its
    newest rows here."""
    seats = sql.seats_with_table(table_id)
    if not seats:
        table = Table.objects.filter(pk=table_id).first()
        return None if table is None else (table, [])
    table, seats = _one_table(seats)
    with _owners_lock:
        _owner(table.pk, _identity(table)).keep_rows(table, seats)
    return table, seats


def locked_rows(table_id: int) -> tuple[Table, list[Seat]]:
    """The table row, locked until the transaction ends, and its seats in seat order: one
    query."""
    seats = sql.locked_seats_with_table(table_id)
    if not seats:  # a table in play always has its seats: this one is not in play
        return Table.objects.select_for_update().get(pk=table_id), []
    return _one_table(seats)


def _one_table(seats: list[Seat]) -> tuple[Table, list[Seat]]:
    table = seats[0].table
    for seat in seats:
        seat.table = table
    return table, seats


def finished_match_for_table(table: Table) -> MatchState:
    """The match cut to its finished rounds: an unfinished round's hands are never shown."""
    match = match_for_table(table)
    rounds = tuple(r for r in match.rounds if r.is_terminal())
    return MatchState(match.setup, match.first_dealer, rounds)


def _identity(table: Table) -> tuple:
    return (table.code, table.created, table.target, table.first_dealer)


def _remember(table_id: int, identity: tuple, status: str, moves: int, match: MatchState) -> None:
    with _owners_lock:
        _owner(table_id, identity).keep_match(status, moves, match)


def _replay(table: Table, since: MatchState | None = None) -> MatchState:
    """Replay the table's deals and actions, or only those stored after ``since`` (an
    earlier version of the same table's match: actions are only ever appended)."""
    match = since or MatchState(table_setup(table), table.first_dealer)
    started = len(match.rounds)
    current = started - 1  # the round in progress in ``since``, if any
    done = len(match.round.history) if started else 0
    by_round: dict[int, list[tuple[int, int]]] = {}
    first = max(current, 0)
    for number, _, seat, code in sql.actions_from(table.pk, first, done):
        by_round.setdefault(number, []).append((seat, parse_action_code(code)))
    for seat, action in by_round.get(current, ()):
        match = match.apply(action, seat)
    if since is not None and not match.needs_deal() and not any(n > current for n in by_round):
        return match  # still in the same round: no deal to read
    for number, dealer, hands, hidden in sql.deals_from(table.pk, started):
        deal = Deal.of(  # ``hidden`` is in pack order, top first
            dealer,
            (mask_of(parse_card(code) for code in hand) for hand in hands),
            (parse_card(code) for code in hidden),
            rules=match.setup.rules,
        )
        match = match.start_round(deal)
        for seat, action in by_round.get(number, ()):
            match = match.apply(action, seat)
    return match
