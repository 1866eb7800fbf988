"""A table's true match, rebuilt from its stored deals and actions, and the process-wide
cache of rebuilt matches.

Nothing about a table's cards is stored but its deals (``Round``) and its actions
(``ActionLog``): replaying them through the engine is the match. Replaying is most of
what a live move would cost, and every seat's page after a move needs the same match, so
each process keeps the matches it rebuilt, by table version (``Table.moves``).
"""

from __future__ import annotations

import copy
import itertools
import secrets
import threading

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


# MatchState is immutable, so threads may share it. The latest match of each table also
# lets the next version be built from it with only the moves stored since.
MATCHES_KEPT = 1024
_MATCHES: LRUCache[tuple, MatchState] = LRUCache(MATCHES_KEPT)
# table id -> identity, moves, match
_LATEST: LRUCache[int, tuple[tuple, int, MatchState]] = LRUCache(MATCHES_KEPT)
_MATCHES_LOCK = threading.Lock()  # a cachetools cache is not thread-safe
VERSION_FIELDS = ("code", "created", "target", "first_dealer", "status", "moves")


def match_for_table(table: Table, *, fresh: bool = False) -> MatchState:
    """The table's match: every stored deal and action replayed through the engine, or the
    replay already made for the table's current version.

    The version is read afresh (``table`` may be an object loaded before the last move)
    unless ``fresh`` says ``table`` was read just now, as a locked row or for one redraw.
    """
    if not fresh:
        table = Table.objects.only(*VERSION_FIELDS).get(pk=table.pk)
    key = _version_key(table)
    moves = key[3]
    with _MATCHES_LOCK:
        match = _MATCHES.get(key)
        if match is not None:
            return match
        latest = _LATEST.get(table.pk)
    since = latest[2] if latest and latest[0] == key[1] and latest[1] <= moves else None
    match = _replay(table, since)
    _remember(key, match)
    return match


def kept_match(table: Table) -> MatchState | None:
    """The match kept for ``table``'s version (a row read just now), or None: never a
    query or a replay."""
    with _MATCHES_LOCK:
        return _MATCHES.get(_version_key(table))


def match_stored(table: Table, match: MatchState) -> None:
    """A move has just been stored and made ``match``: once its transaction commits, that
    is the table's match at ``table``'s version, and every seat's redraw needs it.
    (Never before the commit: a rolled-back move's match would shadow the real one.)"""
    key = _version_key(table)
    transaction.on_commit(lambda: _remember(key, match))


# The rows a stored move left, kept for this process's redraws of that move: the move's
# announcement names them (this process's id and a token), so a redraw here reads nothing.
# Rows are kept as the service left them: nothing changes them after the commit.
PROCESS = secrets.token_hex(8)
SNAPSHOTS_KEPT = 256
_SNAPSHOTS: LRUCache[int, tuple[Table, list[Seat]]] = LRUCache(SNAPSHOTS_KEPT)
_TOKENS = itertools.count(1)


def rows_stored(table: Table, seats: list[Seat]) -> tuple[str, int]:
    """Keep ``table`` and ``seats`` (read under the table's lock and updated by the move)
    once the transaction commits; the name of the snapshot, for the announcement."""
    token = next(_TOKENS)
    transaction.on_commit(lambda: _keep_rows(token, table, seats))
    return (PROCESS, token)


def _keep_rows(token: int, table: Table, seats: list[Seat]) -> None:
    with _MATCHES_LOCK:
        _SNAPSHOTS[token] = (table, seats)
        _seen(table, seats)


# The newest rows of each table this process has read or stored (or advanced by a move
# another process announced): what the next such move advances.
ROWS_KEPT = 2048
_ROWS: LRUCache[int, tuple[Table, list[Seat]]] = LRUCache(ROWS_KEPT)


def _seen(table: Table, seats: list[Seat]) -> None:
    """Keep ``table``'s rows as its newest here, unless newer ones are kept (call with
    ``_MATCHES_LOCK`` held)."""
    kept = _ROWS.get(table.pk)
    if kept is not None and _identity(kept[0]) == _identity(table):
        if kept[0].moves > table.moves:
            return
    _ROWS[table.pk] = (table, seats)


def advanced_rows(table_id: int, moves: list[PublicMove]) -> tuple[Table, list[Seat]] | None:
    """The rows at the newest of ``moves`` (announced by other processes), made from the
    newest rows and match kept here by applying the moves from there on, in order; the
    match they make is kept. None when that cannot be done without a read: nothing kept,
    a move missing in between (a gap), a move that does not fit (another round, another
    index, the seats changed), or one that ends the round or the match (a deal is read).
    No query, ever: an event loop may call it."""
    target = max(move.before for move in moves) + 1
    by_version = {move.before: move for move in moves}
    with _MATCHES_LOCK:
        kept = _ROWS.get(table_id)
        if kept is None:
            return None
        table, seats = kept
        match = _MATCHES.get(_version_key(table))
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
    _remember(_version_key(table), match)
    with _MATCHES_LOCK:
        _seen(table, seats)
    return table, seats


def stand_ins(seats: list[Seat]) -> tuple[bool, ...]:
    """By seat number: whose seat a bot stands in for (a person away), as a move's
    announcement says it (``PublicMove.away``)."""
    return tuple(seat.away_since is not None for seat in sorted(seats, key=lambda s: s.number))


def stored_rows(snapshot) -> tuple[Table, list[Seat]] | None:
    """The rows a move stored by this process left, or None (another process's move, or
    one forgotten since)."""
    if not snapshot or snapshot[0] != PROCESS:
        return None
    with _MATCHES_LOCK:
        return _SNAPSHOTS.get(snapshot[1])


def read_rows(table_id: int) -> tuple[Table, list[Seat]] | None:
    """A table and its seats in one query (None when the table is gone), kept as its
    newest rows here."""
    seats = sql.seats_with_table(table_id)
    if not seats:
        table = Table.objects.filter(pk=table_id).first()
        return None if table is None else (table, [])
    table, seats = _one_table(seats)
    with _MATCHES_LOCK:
        _seen(table, seats)
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


def _version_key(table: Table) -> tuple:
    """Which match a table row stands for: the table (its id alone could be reused by a
    test database), then how far it has got."""
    return (table.pk, _identity(table), table.status, table.moves)


def _identity(table: Table) -> tuple:
    return (table.code, table.created, table.target, table.first_dealer)


def _remember(key: tuple, match: MatchState) -> None:
    table_id, identity, _, moves = key
    with _MATCHES_LOCK:
        _MATCHES[key] = match
        latest = _LATEST.get(table_id)
        if latest is None or latest[1] <= moves:
            _LATEST[table_id] = (identity, moves, match)


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
    # a full-deck table's fill deals from the top of the pack: ``hidden`` is in pack order
    ordered = not match.setup.rules.is_house
    for number, dealer, hands, hidden in sql.deals_from(table.pk, started):
        pack = tuple(parse_card(code) for code in hidden)
        deal = Deal(
            dealer,
            tuple(mask_of(parse_card(code) for code in hand) for hand in hands),
            mask_of(pack),
            pack if ordered else (),
        )
        match = match.start_round(deal)
        for seat, action in by_round.get(number, ()):
            match = match.apply(action, seat)
    return match
