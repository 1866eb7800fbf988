"""The table's live connection: it only translates. A move comes in as a small JSON
message and goes to the play service; every change goes out as the table partial,
rendered for this connection's own seat (or as a spectator sees it) by ``game.live.redraw``.
The group message that announces a change carries no cards.
"""

from __future__ import annotations

import asyncio
import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from game.errors import TableError
from game.live import chat_html, db_retry, events, hearing, presence, redraw
from game.models import Table
from game.players import identity
from game.services import chat, play
from smearsite.kernel import MAX_DIGITS, BadNumber, code_guard, normal_code, request_int
from smearsite.kernel.ratelimit import TokenBucket

NOT_ALLOWED = 4403  # close codes in the range the websocket spec leaves to applications
MAX_MESSAGE_CHARS = 512
MAX_INDEX = 10**MAX_DIGITS
BURST, RATE_PER_S = events.BURST, events.RATE_PER_S  # per session: its sockets' budget


def _find_table(scope: dict, code: str) -> Table | None:
    """The table, unless this connection's address or session has missed too many codes
    (smearsite.kernel.code_guard): a socket is no way around the pages' pace."""
    if not code_guard.scope_may_look_up(scope):
        return None
    table = Table.objects.filter(code=normal_code(code)).first()
    if table is None:
        code_guard.scope_missed(scope)
    return table


class TableConsumer(AsyncWebsocketConsumer):
    # no channel of its own: its process hears the table once for all its connections
    # (game.live.hearing). A layer alias that names no layer spares each handshake a
    # SUBSCRIBE, and a handshake while Redis is down its failure.
    channel_layer_alias = "none: table connections hear through game.live.hearing"

    async def connect(self) -> None:
        self.owner = identity.scope_owner(self.scope)
        self.listening = False
        # the changes heard wait for the first message: the table as it was read
        self.opened = asyncio.Event()
        self.bucket_key = self._session_key()
        budgets = events.LINK.budgets
        self.bucket = (
            budgets.join(self.bucket_key) if self.bucket_key else TokenBucket(BURST, RATE_PER_S)
        )
        table = await database_sync_to_async(db_retry.once_more(_find_table))(
            self.scope, self.scope["url_route"]["kwargs"]["code"]
        )
        if table is None:
            await self.close(code=NOT_ALLOWED)
            return
        self.table_id = table.pk
        # hear the table's changes before reading the table: a change stored after the
        # read is then heard (its redraw follows the first message), never lost
        await hearing.join(self.table_id, self, self.table_changed)
        self.listening = True
        events.connections_live_on(asyncio.get_running_loop())
        try:
            html = await database_sync_to_async(db_retry.once_more(redraw.table_html))(
                table, self.owner
            )
            await self.accept()
            # a connection that drops and comes back starts again from the table as it is
            await self.send(text_data=html)
            if not hearing.layer_up():
                await self.send(text_data=redraw.notice_html(interrupted=True))
        except BaseException:
            await self._stop_listening()  # never a handler that holds up the table's changes
            raise
        self.opened.set()
        await database_sync_to_async(db_retry.once_more(self._returned))()

    def _session_key(self) -> str | None:
        """Whose messages share one rate limit: the user's, else the session's (the
        connection limits are ``smearsite.guards.websockets.ConnectionLimits``)."""
        if self.owner.user_id is not None:
            return f"user-{self.owner.user_id}"
        session = self.scope.get("session")
        return self.owner.session_key or getattr(session, "session_key", None)

    def _returned(self) -> None:
        play.table_seat_back(table_id=self.table_id, seat_owner=self.owner)
        play.table_opened(table_id=self.table_id)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "bucket_key", None):  # None: never connected, or no session
            events.LINK.budgets.leave(self.bucket_key)
            self.bucket_key = None
        await self._stop_listening()

    async def _stop_listening(self) -> None:
        if getattr(self, "listening", False):
            self.listening = False
            self.opened.set()  # a change heard meanwhile goes nowhere, and holds up nothing
            await hearing.leave(self.table_id, self)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if not self.bucket.take():
            await self.send(text_data=redraw.error_html("Too many messages: wait a moment."))
            return
        message, problem = parse_move(text_data)
        if problem:
            await self.send(text_data=redraw.error_html(problem))
            return
        if "chat" in message:
            refusal = await database_sync_to_async(self._say)(message["chat"])
            if refusal:
                await self.send(text_data=refusal)
            return
        if message.get("back"):
            await database_sync_to_async(db_retry.once_more(self._returned))()
            return
        if "sync" in message:
            await self._answer_heartbeat(message["sync"])
            return
        if "shown" in message:
            await database_sync_to_async(db_retry.once_more(presence.seat_shown))(
                table_id=self.table_id, owner=self.owner, version=message["shown"]
            )
            return
        refusal = await database_sync_to_async(db_retry.once_more(self._play))(
            message["action"], message["index"]
        )
        if refusal:
            await self.send(text_data=refusal)

    async def _answer_heartbeat(self, version: int | None) -> None:
        """The page's heartbeat, or its ask after a gap in the versions it heard: the table
        if it stands at another version, and whether live updates are interrupted (the
        reply tells the page its connection is alive)."""
        html = await database_sync_to_async(db_retry.once_more(self._table_unless_at))(version)
        if html:
            await self.send(text_data=html)
        await self.send(text_data=redraw.notice_html(interrupted=not hearing.layer_up()))

    def _table_unless_at(self, version: int | None) -> str:
        presence.seat_heard(table_id=self.table_id, owner=self.owner)
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None or table.moves == version:
            return ""
        return redraw.table_html(table, self.owner)

    def _play(self, action: str, index: int | None) -> str | None:
        """The table as it stands with the refusal in it, or None once the move is stored
        (its announcement redraws every seat)."""
        try:
            play.table_play(
                table_id=self.table_id, seat_owner=self.owner, action=action, index=index
            )
        except TableError as refused:
            table = Table.objects.filter(pk=self.table_id).first()
            if table is None:
                return redraw.error_html(str(refused))
            return redraw.table_html(table, self.owner, str(refused))
        return None

    def _say(self, said: dict) -> str | None:
        """The chat's refusal as the chat's error line, or None once the line is stored
        (its announcement shows it to every page that may read it)."""
        try:
            chat.chat_say(table_id=self.table_id, owner=self.owner, **said)
        except chat.ChatRefused as refused:
            return chat_html.error(str(refused))
        return chat_html.error("")

    async def table_changed(self, event: dict) -> None:
        """A change of the table, as this process heard it (``game.live.hearing``)."""
        await self.opened.wait()
        if not self.listening:
            return
        if event.get("type") == events.TABLE_CHAT:
            await self._chat_heard(event)
            return
        if event.get("type") == hearing.LIVE_STATUS:
            await self.send(text_data=redraw.notice_html(interrupted=not event["up"]))
            return
        move = events.PublicMove.heard(event.get("move"))
        html = await redraw.after_change(self.table_id, self.owner, event.get("version"), move)
        if not self.listening:  # the connection closed meanwhile
            return
        if html is None:
            await self.close(code=NOT_ALLOWED)
            return
        await self.send(text_data=html)

    async def _chat_heard(self, event: dict) -> None:
        """A line said at the table (shown only to a room that may read it), or its chat
        turned on or off (the panel drawn again)."""
        if "line" in event:
            html = await database_sync_to_async(chat_html.line_for)(
                self.table_id, self.owner, event["line"]
            )
        else:
            html = await database_sync_to_async(chat_html.panel_for)(self.table_id, self.owner)
        if html and self.listening:
            await self.send(text_data=html)


def parse_move(text: str | None) -> tuple[dict, str | None]:
    """``{"action": "AS", "index": 12}``, ``{"back": true}``, a chat line:
    ``{"chat": "well bid"}`` or ``{"say": "gg"}`` (a quick phrase or reaction), the page's
    heartbeat ``{"sync": 41}`` or its turn shown ``{"shown": 41}`` (the table's version it
    shows); the problem, if any, in words."""
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
    for asked in ("sync", "shown"):  # the page's heartbeat; its turn shown (presence)
        if asked in message:
            version = message[asked]
            if asked == "sync" and version is None:  # a page that has heard no version
                return {"sync": None}, None
            if not isinstance(version, int) or isinstance(version, bool) or version < 0:
                return {}, "A table's version is a whole number."
            return {asked: version}, None
    if "chat" in message or "say" in message:
        text, saying = message.get("chat"), message.get("say")
        if not isinstance(text, str | None) or not isinstance(saying, str | None):
            return {}, "Say something in words."
        return {"chat": {"text": text, "saying": saying}}, None
    action, index = message.get("action"), message.get("index")
    if not isinstance(action, str) or not action:
        return {}, "Say which bid, pass or card to play."
    if isinstance(index, str):
        try:
            index = request_int(index, name="move's index")
        except BadNumber as forged:
            return {}, str(forged)
    if index is not None and (
        not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < MAX_INDEX
    ):
        return {}, f"The move's index must be a whole number of at most {MAX_DIGITS} digits."
    return {"action": action, "index": index}, None
