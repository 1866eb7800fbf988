"""The chat's fragments for one connection (``templates/game/chat.html``): a new line
for a page whose room may read it, the panel drawn again, the chat's error line."""

from __future__ import annotations

from django.template.loader import render_to_string

from game import chat_page
from game.models import Table
from game.players.identity import SeatOwner

TEMPLATE = "game/chat.html"


def line_for(table_id: int, owner: SeatOwner, fields: dict) -> str | None:
    """The line for this person's page, or None if their room may not read it (a player
    never reads the spectators' room) or the table has no chat for them."""
    table = Table.objects.filter(pk=table_id).first()
    me = None if table is None else chat_page.reader(table=table, owner=owner)
    if me is None or not chat_page.may_read(me.room, fields.get("room")):
        return None
    line = chat_page.line_shown(fields)
    return render_to_string(f"{TEMPLATE}#line", {"line": line, "chat": {"me": me.author}})


def panel_for(table_id: int, owner: SeatOwner) -> str | None:
    panel = _panel(table_id, owner)
    return None if panel is None else render_to_string(f"{TEMPLATE}#panel", {"chat": panel})


def error(message: str) -> str:
    return render_to_string(f"{TEMPLATE}#error", {"chat_error": message})


def _panel(table_id: int, owner: SeatOwner) -> chat_page.ChatPanel | None:
    table = Table.objects.filter(pk=table_id).first()
    return None if table is None else chat_page.chat_panel(table=table, owner=owner)
