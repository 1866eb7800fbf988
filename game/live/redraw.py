"""After a change: one redraw job per table in this process, shared by its connections.

Every connection hears of a change through its own group message. The first to ask
queues one job for the table; those that ask before it starts join it. The job reads the
table once, on one database connection, builds the public part once, draws the page
outside its seat parts once and each seat's own parts once (two tabs of one seat share
them). A job that has started reading is never joined: it may have read the table before
the change a later caller heard of. The job queued is the table owner's
(``game.live.store``), as are the parts the last job drew.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from channels.db import database_sync_to_async
from django.template.loader import render_to_string

from game import selectors
from game.live import db_retry, parts, store
from game.live.events import PublicMove
from game.models import Table
from game.players.identity import SeatOwner

TABLE_PARTIAL = "game/table.html#table"
ERROR_PARTIAL = "game/table.html#error"
NOTICE_TEMPLATE = "game/live_notice.html"


def table_html(table: Table, owner: SeatOwner, error: str | None = None) -> str:
    """The table partial for ``owner`` as the table stands now, with its version."""
    context = selectors.table_page_context(table=table, seat_owner=owner)
    return render_to_string(TABLE_PARTIAL, {**context, "error": error}) + version_html(table.moves)


def version_html(version: int) -> str:
    """The table's version (``Table.moves``) a live message was drawn at: the page asks
    for the table afresh when the versions it hears skip one (``static/game/live.js``)."""
    return f'<template id="live-version" data-version="{int(version)}"></template>'


def notice_html(*, interrupted: bool) -> str:
    """The page's notice that its server cannot reach the channel layer, or its end."""
    return render_to_string(NOTICE_TEMPLATE, {"interrupted": interrupted})


def error_html(message: str) -> str:
    """A reply that replaces only the table's message line."""
    return render_to_string(ERROR_PARTIAL, {"error": message})


@dataclass
class _Job:
    """The table's connections in this process waiting for the partial after a change;
    queued on the table's owner (``store.with_owner``) until it starts reading."""

    loop: asyncio.AbstractEventLoop
    waiting: set[SeatOwner] = field(default_factory=set)
    versions: list = field(default_factory=list)  # the version each change heard made (or None)
    moves: list = field(default_factory=list)  # and the move each carried (or None)
    task: asyncio.Task | None = None  # the job's run: every caller awaits it


async def after_change(
    table_id: int, owner: SeatOwner, version: int | None = None, move: PublicMove | None = None
) -> str | None:
    """The table partial for ``owner`` after a change was announced (``version``: the
    table's version a stored move made, ``move``: the plain move it carried); None when
    the table is gone."""
    loop = asyncio.get_running_loop()

    def join(table: store.TableOwner) -> _Job:
        job = table.job
        if job is None or job.loop is not loop:  # another loop's job: never to run here
            job = table.job = _Job(loop)
            # a task of its own: it finishes for everyone even if this connection goes
            # away; each caller's await holds it
            job.task = loop.create_task(_run(table_id, job))
        job.waiting.add(owner)
        job.versions.append(version)
        job.moves.append(move)
        return job

    job = store.with_owner(table_id, join)
    return (await asyncio.shield(job.task))[owner]


async def _run(table_id: int, job: _Job) -> dict[SeatOwner, str | None]:
    pages = _render_here(table_id, job)
    if pages is None:
        pages = await database_sync_to_async(db_retry.once_more(_render_job))(table_id, job)
    return pages


def _render_here(table_id: int, job: _Job) -> dict[SeatOwner, str | None] | None:
    """The job done on the event loop, without a hop to the database thread, when the
    table's store holds what it needs (``store.state_after``: a move stored in this
    process left its rows and its match, or the moves announced advance those kept here).
    None when it does not (the job is then the database thread's, as it stands). A table
    in play draws from its rows, its seats and its match alone; only a rematch's link
    (its code) reads more."""
    held = store.state_after(table_id, _heard(job), read=False)
    if held is None or held.table.rematch_id is not None:
        return None
    return _render_job(table_id, job, held=held)


def _render_job(
    table_id: int, job: _Job, *, held: store.Held | None = None
) -> dict[SeatOwner, str | None]:

    def close(table: store.TableOwner) -> list[SeatOwner]:
        # from here on the job is closed: a later caller queues a job of its own
        if table.job is job:
            table.job = None
        return list(job.waiting)

    owners = store.with_owner(table_id, close)
    held = held or store.state_after(table_id, _heard(job), read=True)
    if held is None:
        return dict.fromkeys(owners)
    table, seats, match = held
    contexts = selectors.table_page_contexts(
        table=table, seat_owners=owners, match=match, seat_rows=seats
    )
    version = version_html(table.moves)
    if match is None:  # a lobby: nothing in play to share
        return {o: render_to_string(TABLE_PARTIAL, c) + version for o, c in contexts.items()}
    # the page outside its seat parts once, from the public part every page is built on
    public = next(iter(contexts.values()))["t"].public
    drawings = parts.Drawings(store.kept_drawings(table))
    pages = parts.draw_each(TABLE_PARTIAL, {"t": public}, contexts, drawings)
    store.keep_drawings(table, drawings.kept())
    return {owner: None if html is None else html + version for owner, html in pages.items()}


def _heard(job: _Job) -> list[tuple[int | None, PublicMove | None]]:
    """What each caller of the job heard: the version its change made and its move."""
    return [
        (version, job.moves[n] if n < len(job.moves) else None)
        for n, version in enumerate(job.versions)
    ]
