"""Services: the only code that writes game data. Keyword-only, named <thing>_<verb>."""

import random
import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from game import live, selectors
from game.bots import LEVELS, make_bot
from game.engine import rules
from game.engine.cards import card_code, cards_of
from game.engine.state import IllegalAction, MatchState, shuffle_deal
from game.models import DISPLAY_NAME_MAX_LENGTH, ActionLog, Profile, Round, Seat, Table
from game.selectors import SeatOwner


def profile_get_or_create(*, user: AbstractBaseUser) -> Profile:
    """The user's profile; a user made outside sign-up (createsuperuser) gets one on first need."""
    profile, _ = Profile.objects.get_or_create(
        user=user, defaults={"display_name": user.get_username()[:DISPLAY_NAME_MAX_LENGTH]}
    )
    return profile


def profile_update(*, user: AbstractBaseUser, display_name: str) -> Profile:
    profile = profile_get_or_create(user=user)
    profile.display_name = display_name
    profile.save(update_fields=["display_name"])
    return profile


# --- Tables -------------------------------------------------------------------------

# Bots move inside the request for now: the expert's thinking per decision is this
# budget shared among the bot seats, so that a request in which every bot moves once
# (or twice, at a round's end) stays well under two seconds.
EXPERT_REQUEST_BUDGET_MS = 300.0
# share codes avoid look-alike characters (0/O, 1/I/L)
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


class TableError(Exception):
    """A move or request the table refuses; nothing was stored. The message is for the player."""


def _new_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not Table.objects.filter(code=code).exists():
            return code


def _store_deal(table: Table, match: MatchState) -> MatchState:
    """Deal the match's next round with a system-seeded shuffle and store it."""
    deal = shuffle_deal(match.setup, match.next_dealer(), random.SystemRandom())
    match = match.start_round(deal)
    Round.objects.create(
        table=table,
        number=len(match.rounds) - 1,
        dealer=deal.dealer,
        hands=[[card_code(c) for c in cards_of(hand)] for hand in deal.hands],
        hidden=[card_code(c) for c in cards_of(deal.hidden)],
    )
    return match


def _owner_name(owner: SeatOwner) -> str:
    if owner.user_id is None:
        return "You (guest)"
    profile = Profile.objects.filter(user_id=owner.user_id).first()
    return profile.display_name if profile else "You"


def table_create_vs_bots(
    *,
    owner: SeatOwner,
    players: int,
    teams: list[list[int]],
    bot_levels: list[str],
    target: int = rules.DEFAULT_TARGET,
) -> Table:
    """A table where ``owner`` sits in seat 0 and bots of ``bot_levels`` (one per seat from
    seat 1) fill the rest; the first round is dealt and play begins."""
    if owner.user_id is None and not owner.session_key:
        raise TableError("a guest needs a session to sit at a table")
    if len(bot_levels) != players - 1:
        raise TableError(f"{players} players need {players - 1} bot levels")
    for level in bot_levels:
        if level not in LEVELS:
            raise TableError(f"no bot called {level!r}")
    with transaction.atomic():
        draft = _new_table(
            players, teams, target, status=Table.Status.PLAYING, host_id=owner.user_id
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
        _store_deal(draft, MatchState(selectors.table_setup(draft), draft.first_dealer))
    return draft


def _new_table(
    players: int, teams: list[list[int]], target: int, *, status: str, host_id, public=False
) -> Table:
    """Save a new table after checking its layout; call inside the caller's transaction."""
    draft = Table(
        players=players, teams=[list(unit) for unit in teams], target=target, public=public
    )
    try:
        selectors.table_setup(draft)
    except (ValueError, TypeError) as error:
        raise TableError(str(error)) from None
    draft.code = _new_code()
    draft.status = status
    draft.first_dealer = random.SystemRandom().randrange(players)
    draft.host_id = host_id
    draft.save()
    return draft


def table_rematch(*, table_id: int, owner: SeatOwner) -> Table:
    """The rematch of a finished table: the same people and bots in the same seats at a new
    table, dealt at once. The first to ask creates it; everyone after is sent to it."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seats = list(table.seats.all())
        if not any(owner.owns(seat) for seat in seats):
            raise TableError("you have no seat at this table")
        if table.status != Table.Status.FINISHED:
            raise TableError("the match is not over yet")
        if table.rematch_id is not None:
            return table.rematch
        fresh = _new_table(
            table.players,
            table.teams,
            table.target,
            status=Table.Status.PLAYING,
            host_id=table.host_id,
            public=table.public,
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
        _store_deal(fresh, MatchState(selectors.table_setup(fresh), fresh.first_dealer))
        table.rematch = fresh
        table.save(update_fields=["rematch"])
        live.table_changed(table_id=table.pk)  # everyone at the old table sees where to go
    return fresh


def _record(table: Table, match: MatchState, seat: int, action: int) -> MatchState:
    """Apply and store one action, then deal the next round or finish the match.

    Runs inside the caller's transaction, with the table row locked.
    """
    index = len(match.round.history)
    number = len(match.rounds) - 1
    try:
        match = match.apply(action, seat)
    except IllegalAction as error:
        raise TableError(str(error)) from None
    try:
        with transaction.atomic():  # a savepoint: a duplicate leaves the outer work intact
            ActionLog.objects.create(
                table=table, round=number, index=index, seat=seat, action=action
            )
    except IntegrityError:
        raise TableError("not your turn: that move was already made") from None
    Table.objects.filter(pk=table.pk).update(moves=F("moves") + 1)
    table.moves += 1
    if match.is_terminal():
        table.status = Table.Status.FINISHED
        table.save(update_fields=["status"])
    elif match.needs_deal():
        match = _store_deal(table, match)
    selectors.remember_stored_match(table, match)  # before the broadcast's redraws need it
    live.table_changed(table_id=table.pk)
    return match


def table_play(
    *, table_id: int, seat_owner: SeatOwner, action: str | int, index: int | None = None
) -> MatchState:
    """Play one bid, pass or card for the owner's seat; raises TableError and stores nothing
    when it is not theirs to play, not legal, or ``index`` (the number of actions in the
    round the player saw) shows the table has moved on."""
    if isinstance(action, str):
        try:
            action = rules.parse_action_code(action)
        except ValueError:
            raise TableError(f"{action[:20]!r} is not a bid, a pass or a card") from None
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status == Table.Status.FINISHED:
            raise TableError("the match is over")
        if table.status != Table.Status.PLAYING:
            raise TableError("the match has not started")
        seat_row = next((s for s in table.seats.all() if seat_owner.owns(s)), None)
        if seat_row is None:
            raise TableError("you have no seat at this table")
        seat = seat_row.number
        match = selectors.match_for_table(table, fresh=True)  # the locked row
        if index is not None and (
            index != len(match.round.history) or match.current_player() != seat
        ):
            raise TableError("not your turn: the table has moved on, here is where it stands")
        if match.current_player() != seat:
            raise TableError("not your turn")
        if seat_row.away_since is not None:
            _seat_returned(table, seat)  # announced with the move, in one broadcast
        return _record(table, match, seat, action)


def _seat_returned(table: Table, seat: int) -> bool:
    """The person in ``seat`` is back: the bot standing in for them stops."""
    return bool(
        Seat.objects.filter(table=table, number=seat, away_since__isnull=False).update(
            away_since=None
        )
    )


def table_seat_back(*, table_id: int, seat_owner: SeatOwner) -> bool:
    """The owner shows they are here (a message, a reconnect); True if a bot had stood in."""
    table = Table.objects.get(pk=table_id)
    seat = selectors.seat_number_for(table, seat_owner)
    returned = seat is not None and _seat_returned(table, seat)
    if returned:
        live.table_changed(table_id=table.pk)
    return returned


def table_play_for_turn(*, table_id: int, turn: selectors.Turn, action: int) -> bool:
    """Store a move chosen by a bot for ``turn``'s seat: a bot's own seat, or a person's
    who is gone, whom the bot then stands in for until they return.

    Stores nothing and returns False when the table has moved past that turn meanwhile
    (another server process got there first, or the person played after all).
    """
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            return False
        match = selectors.match_for_table(table, fresh=True)  # the locked row
        now_at = (len(match.rounds) - 1, len(match.round.history), match.current_player())
        if now_at != (turn.round, turn.index, turn.seat):
            return False
        if not turn.bot_level:
            Seat.objects.filter(table=table, number=turn.seat, away_since__isnull=True).update(
                away_since=timezone.now()
            )
        _record(table, match, turn.seat, action)
    return True


def table_advance_bots(*, table_id: int, max_moves: int | None = None) -> int:
    """Let bot seats play until a person is to act or the match ends; the number of moves.

    Each bot is given only its seat's view and the legal actions, as a person is.
    """
    moves = 0
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            return 0
        levels = {seat.number: seat.bot_level for seat in table.seats.all() if seat.bot_level}
        match = selectors.match_for_table(table, fresh=True)  # the locked row
        rng = random.Random(random.SystemRandom().getrandbits(64))
        per_bot_ms = max(30.0, EXPERT_REQUEST_BUDGET_MS / max(1, len(levels)))
        options = {"expert": {"budget_ms": per_bot_ms, "max_deals": 16}}
        bots = {}
        while max_moves is None or moves < max_moves:
            seat = match.current_player()
            if seat is None or seat not in levels:
                break
            level = levels[seat]
            bot = bots.get(level) or bots.setdefault(
                level, make_bot(level, **options.get(level, {}))
            )
            action = bot.choose(match.view_for(seat), match.legal_actions(), rng)
            match = _record(table, match, seat, action)
            moves += 1
    return moves


# --- Tables with friends ------------------------------------------------------------
# A table made for friends waits in the lobby: a Seat row is a taken seat (a person or a
# bot), an empty seat has no row. Every change locks the table row first, so two people
# reaching for the last seat, or joining twice at once, are served one after the other.


def _user_display_name(user_id: int) -> str:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(pk=user_id)
    return profile_get_or_create(user=user).display_name


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
) -> Table:
    """A table waiting for friends: the host takes seat 0; nothing is dealt until the
    host starts it."""
    if host_user is None or not host_user.is_authenticated:
        raise TableError("sign in to host a table")
    with transaction.atomic():
        draft = _new_table(
            players,
            teams,
            target,
            status=Table.Status.LOBBY,
            host_id=host_user.pk,
            public=public,
        )
        Seat.objects.create(
            table=draft,
            number=0,
            user_id=host_user.pk,
            display_name=_user_display_name(host_user.pk),
        )
        live.table_changed(table_id=draft.pk)
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
                    display_name=_user_display_name(owner.user_id),
                )
        except IntegrityError:
            raise TableError(f"seat {seat} was just taken") from None
        live.table_changed(table_id=table.pk)
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
        live.table_changed(table_id=table.pk)
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
        live.table_changed(table_id=table.pk)


def table_close(*, table_id: int, host: SeatOwner) -> None:
    """The host gives up on a table before it starts: everyone at it is told, and nobody
    can join it any more."""
    with transaction.atomic():
        table = _locked_lobby(table_id)
        _check_host(table, host)
        table.status = Table.Status.CLOSED
        table.save(update_fields=["status"])
        live.table_changed(table_id=table.pk)


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
            live.table_changed(table_id=table.pk)
            return None
        if level not in LEVELS:
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
        live.table_changed(table_id=table.pk)
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
        _store_deal(table, MatchState(selectors.table_setup(table), table.first_dealer))
        table.status = Table.Status.PLAYING
        table.save(update_fields=["status"])
        live.table_changed(table_id=table.pk)
    live.wake_bots(table_id=table.pk)
    return table
