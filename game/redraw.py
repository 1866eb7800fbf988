"""After a change: one redraw job per table in this process, shared by its connections.

Every connection hears of a change through its own group message. The first to ask
queues one job for the table; those that ask before it starts join it. The job reads the
table once, on one database connection, builds the public part once, draws the page
outside its seat parts once and each seat's own parts once (two tabs of one seat share
them). A job that has started reading is never joined: it may have read the table before
the change a later caller heard of.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from channels.db import database_sync_to_async
from django.core.exceptions import SynchronousOnlyOperation
from django.template.loader import render_to_string

from game import selectors, store
from game.engine.state import MatchState
from game.events import PublicMove
from game.models import Table
from game.players.identity import SeatOwner
from game.templatetags import tables

TABLE_PARTIAL = "game/table.html#table"
ERROR_PARTIAL = "game/table.html#error"


def table_html(table: Table, owner: SeatOwner, error: str | None = None) -> str:
    """The table partial for ``owner`` as the table stands now."""
    context = selectors.table_page_context(table=table, seat_owner=owner)
    return render_to_string(TABLE_PARTIAL, {**context, "error": error})


def error_html(message: str) -> str:
    """A reply that replaces only the table's message line."""
    return render_to_string(ERROR_PARTIAL, {"error": message})


@dataclass
class _Job:
    """The table's connections in this process waiting for the partial after a change."""

    loop: asyncio.AbstractEventLoop
    waiting: dict[SeatOwner, asyncio.Future] = field(default_factory=dict)
    snapshots: list = field(default_factory=list)  # what each announcement heard named
    moves: list = field(default_factory=list)  # and the move each carried (or None)


_queued: dict[int, _Job] = {}  # table id -> a job that has not started reading
_queued_lock = threading.Lock()  # the event loop adds to a job, the database thread starts it
_running: set[asyncio.Task] = set()
# table id -> the most moves a redraw here has shown: a snapshot behind it is never drawn
_shown_moves: OrderedDict[int, int] = OrderedDict()
SHOWN_KEPT = 4096


async def after_change(
    table_id: int, owner: SeatOwner, snapshot=None, move: PublicMove | None = None
) -> str | None:
    """The table partial for ``owner`` after a change was announced (``snapshot``: the
    rows the announcement named, ``move``: the plain move it carried); None when the
    table is gone."""
    loop = asyncio.get_running_loop()
    with _queued_lock:
        job = _queued.get(table_id)
        new = job is None or job.loop is not loop  # another loop's job: never to run here
        if new:
            job = _queued[table_id] = _Job(loop)
        if owner not in job.waiting:
            job.waiting[owner] = loop.create_future()
        job.snapshots.append(tuple(snapshot) if snapshot else None)
        job.moves.append(move)
        future = job.waiting[owner]
    if new:
        # a task of its own: it finishes for everyone even if this connection goes away
        task = loop.create_task(_run(table_id, job))
        _running.add(task)
        task.add_done_callback(_running.discard)
    return await asyncio.shield(future)


async def _run(table_id: int, job: _Job) -> None:
    try:
        pages = _render_here(table_id, job)
        if pages is None:
            pages = await database_sync_to_async(_render_job)(table_id, job)
    except Exception as error:
        for future in job.waiting.values():
            if not future.done():
                future.set_exception(error)
        return
    for owner, future in job.waiting.items():
        if not future.done():
            future.set_result(pages[owner])


def _render_here(table_id: int, job: _Job) -> dict[SeatOwner, str | None] | None:
    """The job done on the event loop, without a hop to the database thread, when it needs
    no database: a move stored in this process left its rows and its match, or the moves
    announced advance those kept here. None when it does (the job is then the database
    thread's, as it stands)."""
    rows = _rows_heard(table_id, job)
    if rows is None or not rows[0].dealt or rows[0].rematch_id is not None:
        return None  # a rematch's code is read from the database
    match = store.kept_match(rows[0])
    if match is None:
        return None
    try:
        return _render_job(table_id, job, rows=rows, match=match)
    except SynchronousOnlyOperation:  # a query after all: Django refuses it on the loop
        return None


def _render_job(
    table_id: int, job: _Job, *, rows=None, match: MatchState | None = None
) -> dict[SeatOwner, str | None]:
    with _queued_lock:
        # from here on the job is closed: a later caller queues a job of its own
        if _queued.get(table_id) is job:
            del _queued[table_id]
        owners = list(job.waiting)
    rows = rows or _rows_heard(table_id, job) or store.read_rows(table_id)
    if rows is None:
        return dict.fromkeys(owners)
    table, seats = rows
    with _queued_lock:
        _shown_moves[table_id] = max(_shown_moves.get(table_id, 0), table.moves)
        _shown_moves.move_to_end(table_id)
        while len(_shown_moves) > SHOWN_KEPT:
            _shown_moves.popitem(last=False)
    if match is None and table.dealt:
        match = store.match_for_table(table, fresh=True)
    contexts = selectors.table_page_contexts(
        table=table, seat_owners=owners, match=match, seat_rows=seats
    )
    if match is None:  # a lobby: nothing in play to share
        return {owner: render_to_string(TABLE_PARTIAL, c) for owner, c in contexts.items()}
    # the page outside its seat parts once, from the public part every page is built on
    public = next(iter(contexts.values()))["t"].public
    return tables.draw_each(TABLE_PARTIAL, {"t": public}, contexts)


def _rows_heard(table_id: int, job: _Job):
    """The rows of the newest change the job's callers heard of, when every one of them
    heard of a change stored here or of a plain move (which advances the rows kept here);
    else None (read them)."""
    if not job.snapshots:
        return None
    stored, moves = [], []
    for n, snapshot in enumerate(job.snapshots):
        rows = store.stored_rows(snapshot)
        move = job.moves[n] if n < len(job.moves) else None
        if rows is not None:
            stored.append(rows)
        elif move is not None:
            moves.append(move)
        else:
            return None  # a change that names no rows here and carries no move
    rows = max(stored, key=lambda r: r[0].moves) if stored else None
    if moves and (rows is None or max(m.before for m in moves) >= rows[0].moves):
        rows = store.advanced_rows(table_id, moves)
    if rows is None:
        return None
    with _queued_lock:
        behind = rows[0].moves < _shown_moves.get(table_id, 0)
    return None if behind else rows
