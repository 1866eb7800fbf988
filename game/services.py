"""Services: the only code that writes game data. Keyword-only, named <thing>_<verb>."""

import random
import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from game import selectors
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
    draft = Table(players=players, teams=[list(unit) for unit in teams], target=target)
    try:
        setup = selectors.table_setup(draft)
    except ValueError as error:
        raise TableError(str(error)) from None
    with transaction.atomic():
        draft.code = _new_code()
        draft.status = Table.Status.PLAYING
        draft.first_dealer = random.SystemRandom().randrange(players)
        draft.host_id = owner.user_id
        draft.save()
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
        _store_deal(draft, MatchState(setup, draft.first_dealer))
    return draft


def table_rematch(*, table_id: int, owner: SeatOwner) -> Table:
    """A new table like a finished one: same seats, layout and bots."""
    table = Table.objects.get(pk=table_id)
    seats = list(table.seats.all())
    if not any(owner.owns(seat) for seat in seats):
        raise TableError("you have no seat at this table")
    if table.status != Table.Status.FINISHED:
        raise TableError("the match is not over yet")
    return table_create_vs_bots(
        owner=owner,
        players=table.players,
        teams=table.teams,
        bot_levels=[seat.bot_level or "greedy" for seat in seats[1:]],
        target=table.target,
    )


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
    if match.is_terminal():
        table.status = Table.Status.FINISHED
        table.save(update_fields=["status"])
    elif match.needs_deal():
        match = _store_deal(table, match)
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
        seat = selectors.seat_number_for(table, seat_owner)
        if seat is None:
            raise TableError("you have no seat at this table")
        match = selectors.match_for_table(table)
        if index is not None and (
            index != len(match.round.history) or match.current_player() != seat
        ):
            raise TableError("not your turn: the table has moved on, here is where it stands")
        if match.current_player() != seat:
            raise TableError("not your turn")
        return _record(table, match, seat, action)


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
        match = selectors.match_for_table(table)
        rng = random.Random(random.SystemRandom().getrandbits(64))
        per_bot_ms = max(30.0, EXPERT_REQUEST_BUDGET_MS / max(1, len(levels)))
        options = {"expert": {"budget_ms": per_bot_ms, "max_deals": 16, "min_deals": 2}}
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
