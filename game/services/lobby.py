"""Tables with friends, before the start.

A table made for friends waits in the lobby: a Seat row is a taken seat (a person or a
bot), an empty seat has no row. Every change locks the table row first, so two people
reaching for the last seat, or joining twice at once, are served one after the other.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from game import events
from game.bots import SEATED_LEVELS
from game.engine import rules, variants
from game.engine.variants import Rules
from game.errors import TableError
from game.models import Seat, Table
from game.players.identity import SeatOwner
from game.players.profiles import profile_display_name
from game.services.play import deal_first_round, new_table


def _changed(table: Table) -> None:
    events.announce(events.TableChanged(table.pk))


def _locked_lobby(table_id: int) -> Table:
    """The table, locked until the transaction ends; refuses one that is no longer waiting."""
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise TableError("there is no such table")
    if table.status == Table.Status.CLOSED:
        raise TableError("the host closed this table")
    if table.status != Table.Status.LOBBY:
        raise TableError("the match has already started: seats can no longer change")
    return table


def _check_host(table: Table, host: SeatOwner) -> None:
    if host.user_id is None or host.user_id != table.host_id:
        raise TableError("only the host can do that")


def _check_seat_number(table: Table, seat: object) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < table.players:
        raise TableError(f"this table has seats 0 to {table.players - 1} only")
    return seat


def table_create_lobby(
    *,
    host_user: AbstractBaseUser,
    players: int,
    teams: list[list[int]],
    target: int = rules.DEFAULT_TARGET,
    public: bool = False,
    table_rules: Rules = variants.HOUSE,
) -> Table:
    """A table waiting for friends: the host takes seat 0; nothing is dealt until the
    host starts it."""
    if host_user is None or not host_user.is_authenticated:
        raise TableError("sign in to host a table")
    with transaction.atomic():
        draft = new_table(
            players,
            teams,
            target,
            status=Table.Status.LOBBY,
            host_id=host_user.pk,
            public=public,
            rules=table_rules,
        )
        Seat.objects.create(
            table=draft,
            number=0,
            user_id=host_user.pk,
            display_name=profile_display_name(user_id=host_user.pk),
        )
        _changed(draft)
    return draft


def table_join(*, table_id: int, owner: SeatOwner, seat: int | None = None) -> Seat:
    """Seat a signed-in person: in ``seat`` if given and free, else in the first free seat.
    One seat per person per table."""
    if owner.user_id is None:
        raise TableError("sign in to take a seat")
    with transaction.atomic():
        table = _locked_lobby(table_id)
        taken = {s.number: s for s in table.seats.all()}
        mine = next((s for s in taken.values() if s.user_id == owner.user_id), None)
        if mine is not None:
            raise TableError(f"you already have a seat at this table (seat {mine.number})")
        if seat is None:
            seat = next((n for n in range(table.players) if n not in taken), None)
            if seat is None:
                raise TableError("the table is full")
        else:
            seat = _check_seat_number(table, seat)
            if seat in taken:
                raise TableError(f"seat {seat} is taken by {taken[seat].display_name}")
        try:
            with transaction.atomic():  # the unique seat number is the last guard
                joined = Seat.objects.create(
                    table=table,
                    number=seat,
                    user_id=owner.user_id,
                    display_name=profile_display_name(user_id=owner.user_id),
                )
        except IntegrityError:
            raise TableError(f"seat {seat} was just taken") from None
        _changed(table)
    return joined


def table_leave(*, table_id: int, owner: SeatOwner) -> int:
    """Give up one's seat while the table waits in the lobby; the seat number left."""
    with transaction.atomic():
        table = _locked_lobby(table_id)
        mine = next(
            (s for s in table.seats.all() if s.user_id and s.user_id == owner.user_id), None
        )
        if mine is None:
            raise TableError("you have no seat at this table")
        if table.host_id == owner.user_id:
            raise TableError("the host keeps their seat: start the match or let it be")
        number = mine.number
        mine.delete()
        _changed(table)
    return number


def table_free_seat(*, table_id: int, host: SeatOwner, seat: int) -> None:
    """The host asks the person in ``seat`` to leave it (someone who went quiet, or the wrong
    friend); the seat is empty again. Never the host's own seat."""
    with transaction.atomic():
        table = _locked_lobby(table_id)
        _check_host(table, host)
        seat = _check_seat_number(table, seat)
        current = table.seats.filter(number=seat).first()
        if current is None or current.bot_level:
            raise TableError(f"seat {seat} has nobody to ask to leave")
        if current.user_id == table.host_id:
            raise TableError("the host keeps their seat: close the table instead")
        current.delete()
        _changed(table)


def table_close(*, table_id: int, host: SeatOwner) -> None:
    """The host gives up on a table before it starts: everyone at it is told, and nobody
    can join it any more."""
    with transaction.atomic():
        table = _locked_lobby(table_id)
        _check_host(table, host)
        table.status = Table.Status.CLOSED
        table.save(update_fields=["status"])
        _changed(table)


def table_set_bot(*, table_id: int, host: SeatOwner, seat: int, level: str | None) -> Seat | None:
    """The host seats a bot of ``level`` in an empty seat (or changes a bot's level), or
    with ``level=None`` takes a bot out, leaving the seat empty again."""
    with transaction.atomic():
        table = _locked_lobby(table_id)
        _check_host(table, host)
        seat = _check_seat_number(table, seat)
        current = table.seats.filter(number=seat).first()
        if current is not None and not current.bot_level:
            raise TableError(f"seat {seat} is taken by {current.display_name}")
        if level is None:
            if current is None:
                raise TableError(f"seat {seat} has no bot to take out")
            current.delete()
            _changed(table)
            return None
        if level not in SEATED_LEVELS:
            raise TableError(f"no bot called {str(level)[:20]!r}")
        name = f"{level.capitalize()} bot {seat}"
        if current is None:
            current = Seat.objects.create(
                table=table, number=seat, bot_level=level, display_name=name
            )
        else:
            current.bot_level = level
            current.display_name = name
            current.save(update_fields=["bot_level", "display_name"])
        _changed(table)
    return current


def table_start(*, table_id: int, host: SeatOwner) -> Table:
    """The host starts the match once every seat holds a person or a bot: the first round
    is dealt and play begins (bots may be the first to act)."""
    with transaction.atomic():
        table = _locked_lobby(table_id)
        _check_host(table, host)
        empty = table.players - table.seats.count()
        if empty:
            raise TableError(
                f"{empty} seat{'s are' if empty > 1 else ' is'} still empty: "
                "wait for friends or fill them with bots"
            )
        table.status = Table.Status.PLAYING
        table.save(update_fields=["status"])
        deal_first_round(table)
    return table
