"""What a table's chat panel shows whoever looks: read only (``game.services.chat`` writes).

Players read the players' room; spectators read both rooms and talk in their own. A
table where one person plays bots has nobody to read a line, so it has no chat unless
someone watches; a table with friends (a hosted one) has it from its lobby on.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.models import ChatLine, Seat, Table
from game.players.identity import SeatOwner
from game.services.chat import MAX_CHARS, PHRASES, REACTIONS, Speaker, speaker_for

SHOWN = 50  # the lines a page opens with


@dataclass(frozen=True)
class LineShown:
    id: int
    room: str
    author: str
    name: str
    text: str

    @property
    def from_spectator(self) -> bool:
        return self.room == ChatLine.Room.SPECTATORS


@dataclass(frozen=True)
class ChatPanel:
    code: str
    on: bool
    room: str  # where this person talks
    me: str  # their author tag: their own lines are not offered for muting
    host: bool  # may turn the chat on or off
    lines: tuple[LineShown, ...]
    # a visitor with no session yet: their first line posts (which starts one), not the socket
    post_first: bool = False
    max_chars: int = MAX_CHARS

    @property
    def phrases(self) -> list[tuple[str, str]]:
        return list(PHRASES.items())

    @property
    def reactions(self) -> list[tuple[str, str]]:
        return list(REACTIONS.items())

    @property
    def watching(self) -> bool:
        return self.room == ChatLine.Room.SPECTATORS


def may_read(reader_room: str, line_room: str) -> bool:
    """Players never read the spectators' room; spectators read both."""
    return line_room == ChatLine.Room.PLAYERS or reader_room == ChatLine.Room.SPECTATORS


def line_shown(fields: dict) -> LineShown:
    return LineShown(**{name: fields[name] for name in ("id", "room", "author", "name", "text")})


def reader(*, table: Table, owner: SeatOwner, seats: list[Seat] | None = None) -> Speaker | None:
    """Where ``owner`` talks at ``table``, or None where nobody would read their line."""
    seats = list(table.seats.all()) if seats is None else seats
    speaker = speaker_for(table, seats, owner)
    people = sum(1 for seat in seats if not seat.bot_level)
    # a hosted table is for friends: its chat is there while the lobby fills
    alone = people < 2 and table.host_id is None
    if speaker.room == ChatLine.Room.PLAYERS and alone:
        return None
    return speaker


def chat_panel(*, table: Table, owner: SeatOwner) -> ChatPanel | None:
    """The panel for ``owner`` at ``table``, or None where nobody would read a line."""
    speaker = reader(table=table, owner=owner)
    if speaker is None:
        return None
    rooms = [ChatLine.Room.PLAYERS]
    if speaker.room == ChatLine.Room.SPECTATORS:
        rooms.append(ChatLine.Room.SPECTATORS)
    newest = ChatLine.objects.filter(table=table, room__in=rooms).order_by("-pk")[:SHOWN]
    lines = tuple(
        LineShown(line.pk, line.room, line.author, line.name, line.text)
        for line in reversed(list(newest))
    )
    return ChatPanel(
        code=table.code,
        on=table.chat_on,
        room=speaker.room,
        me=speaker.author,
        host=owner.user_id is not None and owner.user_id == table.host_id,
        lines=lines,
        post_first=owner.user_id is None and not owner.session_key,
    )
