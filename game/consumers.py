"""The table's live connection: moves come in as small JSON messages, and every change
goes out as the table partial, rendered for this connection's own seat (or as a
spectator sees it). The group message that announces a change carries no cards.

Thin: services store moves, selectors build what a seat may see.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from dataclasses import dataclass, field

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils.html import escape

from game import live, owners, selectors, services
from game.engine.state import MatchState
from game.models import Table
from game.selectors import SeatOwner

NOT_ALLOWED = 4403  # close codes in the range the websocket spec leaves to applications
MAX_MESSAGE_CHARS = 512
# per connection: a burst of this many messages, refilled at RATE_PER_S
BURST = 8
RATE_PER_S = 4.0


class TokenBucket:
    def __init__(self, burst: int, rate_per_s: float) -> None:
        self.burst, self.rate = burst, rate_per_s
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def _render(table_id: int, owner: SeatOwner, error: str | None = None) -> str | None:
    return _render_table(Table.objects.get(pk=table_id), owner, error)


def _render_table(
    table: Table, owner: SeatOwner, error: str | None = None, match: MatchState | None = None
) -> str | None:
    context = selectors.table_page_context(table=table, seat_owner=owner, match=match)
    if context is None:
        return None
    return render_to_string("game/table.html#table", {**context, "error": error})


# --- After a change: one render job per table in this process --------------------------------


@dataclass
class _RenderJob:
    """The table's connections in this process waiting for the partial after a change."""

    loop: asyncio.AbstractEventLoop
    waiting: dict[SeatOwner, asyncio.Future] = field(default_factory=dict)


_queued: dict[int, _RenderJob] = {}  # table id -> a job that has not started reading
_queued_lock = threading.Lock()  # the event loop adds to a job, the database thread starts it
_running: set[asyncio.Task] = set()


async def render_after_change(table_id: int, owner: SeatOwner) -> str | None:
    """The table partial for ``owner`` as the table stands after a change was announced.

    Every connection hears of a change through its own group message. The first to ask
    queues one job for the table; those that ask before it starts join it. The job reads
    the table once, on one database connection, and renders once per seat (two tabs of
    one seat share a render). A job that has started reading is never joined: it may have
    read the table before the change this caller heard of.
    """
    loop = asyncio.get_running_loop()
    with _queued_lock:
        job = _queued.get(table_id)
        new = job is None or job.loop is not loop  # another loop's job: never to run here
        if new:
            job = _queued[table_id] = _RenderJob(loop)
        if owner not in job.waiting:
            job.waiting[owner] = loop.create_future()
        future = job.waiting[owner]
    if new:
        # a task of its own: it finishes for everyone even if this connection goes away
        task = loop.create_task(_run_render_job(table_id, job))
        _running.add(task)
        task.add_done_callback(_running.discard)
    return await asyncio.shield(future)


async def _run_render_job(table_id: int, job: _RenderJob) -> None:
    try:
        pages = await database_sync_to_async(_render_job)(table_id, job)
    except Exception as error:
        for future in job.waiting.values():
            if not future.done():
                future.set_exception(error)
        return
    for owner, future in job.waiting.items():
        if not future.done():
            future.set_result(pages[owner])


def _render_job(table_id: int, job: _RenderJob) -> dict[SeatOwner, str | None]:
    with _queued_lock:
        # from here on the job is closed: a later caller queues a job of its own
        if _queued.get(table_id) is job:
            del _queued[table_id]
        owners = list(job.waiting)
    table = Table.objects.prefetch_related("seats").filter(pk=table_id).first()
    if table is None:
        return dict.fromkeys(owners)
    match = selectors.match_for_table(table, fresh=True) if table.dealt else None
    return {owner: _render_table(table, owner, match=match) for owner in owners}


def _find_table(code: str) -> int | None:
    return Table.objects.filter(code=code.upper()).values_list("pk", flat=True).first()


def error_fragment(message: str) -> str:
    """A reply that replaces only the table's message line."""
    return f'<p id="table-error" class="message message--error" role="alert">{escape(message)}</p>'


class TableConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.owner = owners.scope_owner(self.scope)
        self.table_id = await database_sync_to_async(_find_table)(
            self.scope["url_route"]["kwargs"]["code"]
        )
        self.group = None
        html = self.table_id and await database_sync_to_async(_render)(self.table_id, self.owner)
        if not html:
            await self.close(code=NOT_ALLOWED)
            return
        self.group = live.table_group(self.table_id)
        self.bucket = TokenBucket(BURST, RATE_PER_S)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # a connection that drops and comes back starts again from the table as it is
        await self.send(text_data=html)
        await database_sync_to_async(self._returned)()

    def _returned(self) -> None:
        services.table_seat_back(table_id=self.table_id, seat_owner=self.owner)
        live.wake_bots(table_id=self.table_id)

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if not self.bucket.take():
            await self.send(text_data=error_fragment("Too many messages: wait a moment."))
            return
        message, problem = parse_move(text_data)
        if problem:
            await self.send(text_data=error_fragment(problem))
            return
        if message.get("back"):
            await database_sync_to_async(self._returned)()
            return
        error = await database_sync_to_async(self._play)(message["action"], message["index"])
        if error:
            html = await database_sync_to_async(_render)(self.table_id, self.owner, error)
            await self.send(text_data=html or error_fragment(error))

    def _play(self, action: str, index: int | None) -> str | None:
        try:
            match = services.table_play(
                table_id=self.table_id, seat_owner=self.owner, action=action, index=index
            )
        except services.TableError as refused:
            return str(refused)
        live.wake_bots_after_move(table_id=self.table_id, next_seat=match.current_player())
        return None

    async def table_changed(self, event: dict) -> None:
        html = await render_after_change(self.table_id, self.owner)
        if html is None:
            await self.close(code=NOT_ALLOWED)
            return
        await self.send(text_data=html)


def parse_move(text: str | None) -> tuple[dict, str | None]:
    """``{"action": "AS", "index": 12}`` or ``{"back": true}``; the problem, if any, in words."""
    if text is None:
        return {}, "Send text messages only."
    if len(text) > MAX_MESSAGE_CHARS:
        return {}, "That message is too long."
    try:
        message = json.loads(text)
    except ValueError:
        return {}, "That message is not JSON."
    if not isinstance(message, dict):
        return {}, "That message is not a JSON object."
    if message.get("back") is True:
        return {"back": True}, None
    action, index = message.get("action"), message.get("index")
    if not isinstance(action, str) or not action:
        return {}, "Say which bid, pass or card to play."
    if isinstance(index, str) and index.isdigit():
        index = int(index)
    if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
        return {}, "The move's index must be a whole number."
    return {"action": action, "index": index}, None
