"""Tables in play: dealing, a person's move, a bot's move, coming back, the rematch.

A move is validated and stored in one transaction with the table row locked, so of two
clicks at once the second gets "not your turn" and changes nothing. Every stored move is
announced (``game.live.events``) once it commits: that one step redraws every seat and wakes
the bots, whoever made the move and however it arrived.
"""

from __future__ import annotations

import random

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from game.bots import SEATED_LEVELS
from game.engine import discard_taps, rules, variants
from game.engine.cards import card_code, cards_of
from game.engine.state import IllegalAction, MatchState, shuffle_deal
from game.engine.variants import Rules
from game.errors import TableError
from game.live import events, look_due, sql, store
from game.live.turns import Turn
from game.models import Profile, Round, Seat, Table
from game.players.identity import SeatOwner
from game.services import limits
from smearsite.kernel import new_share_code


def new_table(
    players: int,
    teams: list[list[int]],
    target: int,
    *,
    status: str,
    host_id,
    public=False,
    rules: Rules = variants.HOUSE,
) -> Table:
    """Save a new table after checking its layout against its rules (players, teams and
    target); call inside the caller's transaction."""
    if not isinstance(rules, Rules):
        raise TableError("a table's rules are a Rules value")
    draft = Table(
        players=players,
        teams=[list(unit) for unit in teams],
        target=target,
        public=public,
        rules=store.rules_record(rules),
    )
    try:
        store.table_setup(draft)
    except (ValueError, TypeError) as error:
        raise TableError(str(error)) from None
    draft.code = _new_code()
    draft.status = status
    draft.first_dealer = random.SystemRandom().randrange(players)
    draft.host_id = host_id
    draft.save()
    return draft


def _new_code() -> str:
    while True:
        code = new_share_code()
        if not Table.objects.filter(code=code).exists():
            return code


def deal_first_round(table: Table) -> None:
    """Deal a new table's first round and announce it: bots may be the first to act."""
    match = _store_deal(table, MatchState(store.table_setup(table), table.first_dealer))
    _announce(table, list(table.seats.all()), match)


def _store_deal(table: Table, match: MatchState) -> MatchState:
    """Deal the match's next round with a system-seeded shuffle and store it."""
    deal = shuffle_deal(match.setup, match.next_dealer(), random.SystemRandom())
    match = match.start_round(deal)
    Round.objects.create(
        table=table,
        number=len(match.rounds) - 1,
        dealer=deal.dealer,
        hands=[[card_code(c) for c in cards_of(hand)] for hand in deal.hands],
        hidden=[card_code(c) for c in deal.pack_order()],  # in pack order, top first
    )
    return match


def _announce(table: Table, seats: list[Seat], match: MatchState, version=None, move=None) -> None:
    next_actor = _next_actor(seats, match)
    if version is None:  # no move (a deal, a return): a move's own statement said it
        # in the change's own transaction: a server that dies after it leaves it to another
        look_due.schedule(table.pk, _look_at(_next_actor(seats, match)))
    events.announce(events.TableChanged(table.pk, next_actor, version, move))


def _next_actor(seats: list[Seat], match: MatchState) -> events.Next:
    seat = match.current_player()
    if seat is None:
        return events.Next.NOBODY
    row = next(s for s in seats if s.number == seat)
    bot = row.bot_level or row.away_since is not None
    return events.Next.BOT if bot else events.Next.PERSON


def _look_at(next_actor: events.Next | None):
    """When the bots' timetable should look at a table once a change is stored (None:
    a deal follows, whose first turn is looked at soon, as a bot's)."""
    if next_actor is events.Next.PERSON:
        return look_due.due_in(settings.SMEAR_AWAY_AFTER_S)
    if next_actor is events.Next.NOBODY:
        return None
    return look_due.due_in(settings.SMEAR_BOT_PACE_MS / 1000)


def _owner_name(owner: SeatOwner) -> str:
    if owner.user_id is None:
        return "Guest"  # the viewer's own seat says "(you)"; the others see a guest
    profile = Profile.objects.filter(user_id=owner.user_id).first()
    return profile.display_name if profile else "You"


def table_create_vs_bots(
    *,
    owner: SeatOwner,
    players: int,
    teams: list[list[int]],
    bot_levels: list[str],
    target: int = rules.DEFAULT_TARGET,
    table_rules: Rules = variants.HOUSE,
) -> Table:
    """A table where ``owner`` sits in seat 0 and bots of ``bot_levels`` (one per seat from
    seat 1) fill the rest, playing ``table_rules``; the first round is dealt and play
    begins."""
    if owner.user_id is None and not owner.session_key:
        raise TableError("a guest needs a session to sit at a table")
    if len(bot_levels) != players - 1:
        raise TableError(f"{players} players need {players - 1} bot levels")
    for level in bot_levels:
        if level not in SEATED_LEVELS:
            raise TableError(f"no bot called {level!r}")
    with transaction.atomic():
        draft = new_table(
            players,
            teams,
            target,
            status=Table.Status.PLAYING,
            host_id=owner.user_id,
            rules=table_rules,
        )
        Seat.objects.create(
            table=draft,
            number=0,
            user_id=owner.user_id,
            session_key=None if owner.user_id is not None else owner.session_key,
            display_name=_owner_name(owner),
        )
        for number, level in enumerate(bot_levels, start=1):
            Seat.objects.create(
                table=draft,
                number=number,
                bot_level=level,
                display_name=f"{level.capitalize()} bot {number}",
            )
        deal_first_round(draft)
    limits.bot_tables_trim(owner=owner)  # at most a few each: the oldest beyond are closed
    return draft


def table_rematch(*, table_id: int, owner: SeatOwner) -> Table:
    """The rematch of a finished table: the same people and bots in the same seats at a new
    table, dealt at once. The first to ask creates it; everyone after is sent to it."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seats = list(table.seats.all())
        if owner.seat_in(seats) is None:
            raise TableError("you have no seat at this table")
        if table.status != Table.Status.FINISHED:
            raise TableError("the match is not over yet")
        if table.rematch_id is not None:
            return table.rematch
        fresh = new_table(
            table.players,
            table.teams,
            table.target,
            status=Table.Status.PLAYING,
            host_id=table.host_id,
            public=table.public,
            rules=store.table_rules(table),
        )
        for seat in seats:
            Seat.objects.create(
                table=fresh,
                number=seat.number,
                user_id=seat.user_id,
                session_key=seat.session_key,
                bot_level=seat.bot_level,
                display_name=seat.display_name,
            )
        deal_first_round(fresh)
        table.rematch = fresh
        table.save(update_fields=["rematch"])
        # everyone at the old table sees where to go
        events.announce(events.TableChanged(table.pk))
    return fresh


def _record(table: Table, seats: list[Seat], match: MatchState, seat: int, action: int) -> None:
    """Apply and store one action, deal the next round or finish the match, and announce it.

    Runs inside the caller's transaction, with the table row locked.
    """
    index = len(match.round.history)
    number = len(match.rounds) - 1
    try:
        match = match.apply(action, seat)
    except IllegalAction as error:
        raise TableError(str(error)) from None
    code = rules.action_code(action)
    # the next look, stored with the move: a server that dies after it leaves it to another
    look_at = _look_at(None if match.needs_deal() else _next_actor(seats, match))
    try:
        # no savepoint of its own: the caller's transaction (or savepoint) ends with the
        # TableError raised here, so nothing after a duplicate runs in it
        with transaction.atomic(savepoint=False):
            sql.store_action(table.pk, number, index, seat, code, look_at)
    except IntegrityError:
        raise TableError("not your turn: that move was already made") from None
    # the move as every seat saw it, for the other processes' redraws: not when a deal
    # follows (its hands are read, never sent) or the match is over, and never a discard
    # (its cards are the seat's alone: the other processes read it from the database)
    move = None
    if not match.is_terminal() and not match.needs_deal() and not rules.is_discard(action):
        move = events.PublicMove(table.moves, number, index, seat, code, store.stand_ins(seats))
    table.moves += 1
    if match.is_terminal():
        table.status = Table.Status.FINISHED
        table.save(update_fields=["status"])
    elif match.needs_deal():
        match = _store_deal(table, match)
    _announce(table, seats, match, store.move_stored(table, seats, match), move)


def table_play(
    *, table_id: int, seat_owner: SeatOwner, action: str | int, index: int | None = None
) -> None:
    """Play one bid, pass, card, trump (``trump:S``) or discard (``discard:9H,3C``) for
    the owner's seat; raises TableError and stores nothing
    when it is not theirs to play, not legal, or ``index`` (the number of actions in the
    round the player saw) shows the table has moved on."""
    # a discard as the cards tapped (keep:..., throw:...) is read against the seat's hand
    tapped = isinstance(action, str) and action.startswith(discard_taps.TAPPED)
    if isinstance(action, str) and not tapped:
        try:
            action = rules.parse_action_code(action)
        except ValueError as error:
            if action.lower().startswith(("trump:", "discard:")):
                raise TableError(f"{action[:20]!r} cannot be played: {str(error)[:60]}") from None
            raise TableError(f"{action[:20]!r} is not a bid, a pass or a card") from None
    with transaction.atomic():
        table, seats = store.locked_rows(table_id)
        if table.status == Table.Status.FINISHED:
            raise TableError("the match is over")
        if table.status != Table.Status.PLAYING:
            raise TableError("the match has not started")
        seat_row = seat_owner.seat_in(seats)
        if seat_row is None:
            raise TableError("you have no seat at this table")
        seat = seat_row.number
        match = store.match_for_table(table, fresh=True)  # the locked row
        if index is not None and (
            index != len(match.round.history) or match.current_player() != seat
        ):
            raise TableError("not your turn: the table has moved on, here is where it stands")
        if match.current_player() != seat:
            raise TableError("not your turn")
        if tapped:
            try:
                action = rules.discard_action(
                    discard_taps.discard_chosen(match.view_for(seat), action)
                )
            except discard_taps.DiscardRefused as refused:
                raise TableError(str(refused)) from None
        if seat_row.away_since is not None:
            _seat_returned(table, seat_row)  # announced with the move, in one broadcast
        _record(table, seats, match, seat, action)


def _seat_returned(table: Table, seat: Seat) -> bool:
    """The person in ``seat`` is back: the bot standing in for them stops."""
    seat.away_since = None
    return bool(
        Seat.objects.filter(table=table, number=seat.number, away_since__isnull=False).update(
            away_since=None
        )
    )


def table_opened(*, table_id: int) -> None:
    """Someone opened the table's page or connected to it: nothing is stored, but the
    bots' timetable looks at the table (after a restart nothing else would remind it)."""
    events.table_opened(table_id=table_id)


def table_seat_back(*, table_id: int, seat_owner: SeatOwner) -> bool:
    """The owner shows they are here (a message, a reconnect); True if a bot had stood in."""
    with transaction.atomic():
        table = Table.objects.get(pk=table_id)
        seats = list(table.seats.all())
        seat = seat_owner.seat_in(seats)
        returned = seat is not None and _seat_returned(table, seat)
        if returned and table.status == Table.Status.PLAYING:
            # the bots of a table everyone had left resume
            _announce(table, seats, store.match_for_table(table, fresh=True))
        elif returned:
            events.announce(events.TableChanged(table.pk))
    return returned


def table_play_for_turn(*, table_id: int, turn: Turn, action: int) -> bool:
    """Store a move chosen by a bot for ``turn``'s seat: a bot's own seat, or a person's
    who is gone, whom the bot then stands in for until they return.

    Stores nothing and returns False when the table has moved past that turn meanwhile
    (another server process got there first, or the person played after all).
    """
    with transaction.atomic():
        table, seats = store.locked_rows(table_id)
        if table.status != Table.Status.PLAYING:
            return False
        match = store.match_for_table(table, fresh=True)  # the locked row
        now_at = (len(match.rounds) - 1, len(match.round.history), match.current_player())
        if now_at != turn.key:
            return False
        if not turn.bot_level:
            row = next(s for s in seats if s.number == turn.seat)
            if row.away_since is None:
                row.away_since = timezone.now()
                Seat.objects.filter(pk=row.pk).update(away_since=row.away_since)
        _record(table, seats, match, turn.seat, action)
    return True
