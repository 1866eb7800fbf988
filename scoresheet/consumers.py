"""The read-only live link: sends the redrawn sheet to every watcher after each change.

Read-only by construction: the consumer never calls a service, it only fetches and
renders. The group message says which sheet changed and nothing else.
"""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import Http404
from django.template.loader import render_to_string

from scoresheet import selectors
from scoresheet.services import group_name

# a close code in the range the websocket spec leaves to applications
NO_SUCH_SHEET = 4404


def _sheet_id(token: str) -> int | None:
    try:
        return selectors.sheet_for_watch_token(token=token).pk
    except Http404:
        return None


def _render(token: str) -> str | None:
    try:
        sheet = selectors.sheet_for_watch_token(token=token)
    except Http404:
        return None
    view = selectors.sheet_view(sheet=sheet)
    context = {"view": view, "token": token, "sheet_data": selectors.page_data(view)}
    return render_to_string("scoresheet/watch.html#watched", context)


class WatchConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.token = self.scope["url_route"]["kwargs"]["token"]
        self.group = None
        sheet_id = await database_sync_to_async(_sheet_id)(self.token)
        if sheet_id is None:
            await self.close(code=NO_SUCH_SHEET)
            return
        # join the sheet's group before reading the sheet: a change saved after the read
        # is then heard (its redraw follows the first message), never lost
        self.group = group_name(sheet_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        html = await database_sync_to_async(_render)(self.token)
        if html is None:  # deleted meanwhile
            await self.close(code=NO_SUCH_SHEET)
            return
        await self.accept()
        # a watcher that reconnects may have missed changes: start from the sheet as it is
        await self.send(text_data=html)

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        # read-only: whatever a watcher sends is ignored
        return

    async def sheet_changed(self, event: dict) -> None:
        html = await database_sync_to_async(_render)(self.token)
        if html is None:
            await self.close(code=NO_SUCH_SHEET)
            return
        await self.send(text_data=html)
