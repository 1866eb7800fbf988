"""A table's true match, rebuilt from its stored deals and actions, and the process-wide
cache of rebuilt matches.

Nothing about a table's cards is stored but its deals (``Round``) and its actions
(``ActionLog``): replaying them through the engine is the match. Replaying is most of
what a live move would cost, and every seat's page after a move needs the same match, so
each process keeps the matches it rebuilt, by table version (``Table.moves``).
"""

from __future__ import annotations

import itertools
import secrets
import threading
from collections import OrderedDict

from django.db import transaction

from game.engine.cards import mask_of, parse_card
from game.engine.rules import parse_action_code
from game.engine.state import Deal, MatchSetup, MatchState
from game.models import ActionLog, Round, Seat, Table


def table_setup(table: Table) -> MatchSetup:
    return MatchSetup(table.players, tuple(tuple(unit) for unit in table.teams), table.target)


# MatchState is immutable, so threads may share it. The latest match of each table also
# lets the next version be built from it with only the moves stored since.
_MATCHES: OrderedDict[tuple, MatchState] = OrderedDict()
_LATEST: dict[int, tuple[tuple, int, MatchState]] = {}  # table id -> identity, moves, match
_MATCHES_LOCK = threading.Lock()
MATCHES_KEPT = 1024
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
            _MATCHES.move_to_end(key)
            return match
        latest = _LATEST.get(table.pk)
    since = latest[2] if latest and latest[0] == key[1] and latest[1] <= moves else None
    match = _replay(table, since)
    _remember(key, match)
    return match


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
_SNAPSHOTS: OrderedDict[int, tuple[Table, list[Seat]]] = OrderedDict()
_TOKENS = itertools.count(1)
SNAPSHOTS_KEPT = 256


def rows_stored(table: Table, seats: list[Seat]) -> tuple[str, int]:
    """Keep ``table`` and ``seats`` (read under the table's lock and updated by the move)
    once the transaction commits; the name of the snapshot, for the announcement."""
    token = next(_TOKENS)
    transaction.on_commit(lambda: _keep_rows(token, table, seats))
    return (PROCESS, token)


def _keep_rows(token: int, table: Table, seats: list[Seat]) -> None:
    with _MATCHES_LOCK:
        _SNAPSHOTS[token] = (table, seats)
        while len(_SNAPSHOTS) > SNAPSHOTS_KEPT:
            _SNAPSHOTS.popitem(last=False)


def stored_rows(snapshot) -> tuple[Table, list[Seat]] | None:
    """The rows a move stored by this process left, or None (another process's move, or
    one forgotten since)."""
    if not snapshot or snapshot[0] != PROCESS:
        return None
    with _MATCHES_LOCK:
        return _SNAPSHOTS.get(snapshot[1])


def read_rows(table_id: int) -> tuple[Table, list[Seat]] | None:
    """A table and its seats in one query (None when the table is gone)."""
    seats = list(Seat.objects.select_related("table").filter(table_id=table_id))
    if not seats:
        table = Table.objects.filter(pk=table_id).first()
        return None if table is None else (table, [])
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
    identity = (table.code, table.created, table.target, table.first_dealer)
    return (table.pk, identity, table.status, table.moves)


def _remember(key: tuple, match: MatchState) -> None:
    table_id, identity, _, moves = key
    with _MATCHES_LOCK:
        _MATCHES[key] = match
        _MATCHES.move_to_end(key)
        while len(_MATCHES) > MATCHES_KEPT:
            _MATCHES.popitem(last=False)
        if table_id not in _LATEST or _LATEST[table_id][1] <= moves:
            _LATEST[table_id] = (identity, moves, match)
        while len(_LATEST) > MATCHES_KEPT:
            del _LATEST[next(iter(_LATEST))]


def _replay(table: Table, since: MatchState | None = None) -> MatchState:
    """Replay the table's deals and actions, or only those stored after ``since`` (an
    earlier version of the same table's match: actions are only ever appended)."""
    match = since or MatchState(table_setup(table), table.first_dealer)
    started = len(match.rounds)
    current = started - 1  # the round in progress in ``since``, if any
    done = len(match.round.history) if started else 0
    by_round: dict[int, list[tuple[int, int]]] = {}
    logs = ActionLog.objects.filter(table=table, round__gte=max(current, 0)).order_by(
        "round", "index"
    )
    for number, index, seat, code in logs.values_list("round", "index", "seat", "action"):
        if number == current and index < done:
            continue
        by_round.setdefault(number, []).append((seat, parse_action_code(code)))
    for seat, action in by_round.get(current, ()):
        match = match.apply(action, seat)
    if since is not None and not match.needs_deal() and not any(n > current for n in by_round):
        return match  # still in the same round: no deal to read
    deals = Round.objects.filter(table=table, number__gte=started).order_by("number")
    for number, dealer, hands, hidden in deals.values_list("number", "dealer", "hands", "hidden"):
        deal = Deal(
            dealer,
            tuple(mask_of(parse_card(code) for code in hand) for hand in hands),
            mask_of(parse_card(code) for code in hidden),
        )
        match = match.start_round(deal)
        for seat, action in by_round.get(number, ()):
            match = match.apply(action, seat)
    return match
