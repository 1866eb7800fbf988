"""Talk at a table: the players' chat, the spectators' chat apart, quick phrases and
reactions. The only code that writes chat lines.

A seated person talks in the players' room; anyone else who may watch the table talks in
the spectators' room, which the players never see. A line is at most ``MAX_CHARS``
characters of plain text (the page escapes it), a person may say ``RATE`` lines every
``RATE_S`` seconds at a table, and the host may turn the chat off. Nothing of it enters
the game record; a table keeps its last ``KEPT`` lines and they go with it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from game.errors import TableError
from game.live import events
from game.models import ChatLine, Seat, Table
from game.players.identity import SeatOwner
from game.players.profiles import profile_display_name

MAX_CHARS = 200
RATE, RATE_S = 10, 10
KEPT = 200
# what a tap says: the quick phrases, then the reactions
PHRASES = {
    "hi": "Hi all!",
    "gl": "Good luck!",
    "nice": "Nice play!",
    "bid": "Well bid!",
    "oops": "Oops!",
    "thanks": "Thanks!",
    "gg": "Good game!",
}
REACTIONS = {"thumbs": "👍", "laugh": "😂", "wow": "😮", "clap": "👏", "sad": "😢"}
SAYINGS = {**PHRASES, **REACTIONS}
TOO_FAST = f"You are talking fast: at most {RATE} lines in {RATE_S} seconds. Wait a moment."
CHAT_OFF = "The host turned the chat off at this table."


class ChatRefused(TableError):
    """A line the chat does not take; nothing was stored."""


@dataclass(frozen=True)
class Speaker:
    """Who talks, as the table shows them: their room, their name, and a tag that tells
    people apart (for muting) without saying who they are."""

    room: str
    author: str
    name: str


def speaker_for(table: Table, seats: list[Seat], owner: SeatOwner) -> Speaker:
    seat = owner.seat_in(seats)
    if seat is not None:
        return Speaker(ChatLine.Room.PLAYERS, f"seat-{seat.number}", seat.display_name)
    digest = hashlib.sha256(f"{table.pk}/{owner.person_key}".encode()).hexdigest()[:10]
    name = profile_display_name(user_id=owner.user_id) if owner.user_id else "A guest"
    return Speaker(ChatLine.Room.SPECTATORS, f"watcher-{digest}", f"{name} (watching)")


def clean_text(text: object) -> str:
    """The line as it is kept: whitespace folded, within ``MAX_CHARS``; refused if empty."""
    if not isinstance(text, str):
        raise ChatRefused("Say something in words.")
    folded = " ".join(text.split())
    if not folded:
        raise ChatRefused("Say something first.")
    if len(folded) > MAX_CHARS:
        raise ChatRefused(f"That line is too long: at most {MAX_CHARS} characters.")
    return folded


def chat_say(
    *, table_id: int, owner: SeatOwner, text: object = None, saying: str | None = None
) -> ChatLine:
    """Say ``text``, or one of the ``SAYINGS`` by its key, at the table; the line is
    announced to the table's connections once stored. ``ChatRefused`` changes nothing."""
    line = SAYINGS.get(saying) if saying is not None else clean_text(text)
    if line is None:
        raise ChatRefused("That is not one of the quick phrases.")
    if owner.user_id is None and not owner.session_key:
        raise ChatRefused("Open the table first: the chat needs your session.")
    with transaction.atomic():
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise ChatRefused("There is no such table.")
        if not table.chat_on:
            raise ChatRefused(CHAT_OFF)
        speaker = speaker_for(table, list(table.seats.all()), owner)
        # the lines the speaker said in the last RATE_S seconds: a sliding window, the
        # same in every server process
        since = timezone.now() - timedelta(seconds=RATE_S)
        recent = ChatLine.objects.filter(table=table, author=speaker.author, said_at__gt=since)
        if recent.count() >= RATE:
            raise ChatRefused(TOO_FAST)
        said = ChatLine.objects.create(
            table=table, room=speaker.room, author=speaker.author, name=speaker.name, text=line
        )
        _forget_old(table)
        shown = line_fields(said)
        transaction.on_commit(lambda: events.chat_said(table_id=table_id, line=shown))
    return said


def line_fields(line: ChatLine) -> dict:
    """What a connection is told of a line: all the page shows, nothing more."""
    return {
        "id": line.pk,
        "room": line.room,
        "author": line.author,
        "name": line.name,
        "text": line.text,
    }


def _forget_old(table: Table) -> None:
    old = ChatLine.objects.filter(table=table).order_by("-pk").values_list("pk", flat=True)
    stale = list(old[KEPT : KEPT + 50])
    if stale:
        ChatLine.objects.filter(pk__in=stale).delete()


def chat_switch(*, table_id: int, owner: SeatOwner, on: bool) -> Table:
    """The host turns the table's chat on or off."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise ChatRefused("There is no such table.")
        if owner.user_id is None or owner.user_id != table.host_id:
            raise ChatRefused("Only the table's host can turn the chat on or off.")
        if table.chat_on != on:
            table.chat_on = on
            table.save(update_fields=["chat_on"])
            transaction.on_commit(lambda: events.chat_switched(table_id=table_id, on=on))
    return table
