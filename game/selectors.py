"""Selectors: read game data, never write it.

A table's true match is rebuilt from its deals and actions (``match_for_table``); what a
page shows a seat is built from that seat's SeatView only (``table_view_for``), so it
cannot show another seat's cards.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from game.engine import rules
from game.engine.cards import (
    JACK,
    JOKER_1,
    SUIT_MASK,
    SUIT_NAMES,
    SUITS,
    card_code,
    cards_of,
    game_total,
    mask_of,
    parse_card,
)
from game.engine.state import Deal, MatchSetup, MatchState
from game.engine.view import SeatView
from game.models import ActionLog, Round, Seat, Table


@dataclass(frozen=True)
class SeatOwner:
    """Who is asking: a signed-in user and/or a guest token from their session.

    ``session_key`` holds the guest token kept in the session's data (not Django's
    session key, which changes at log-in), so a guest who signs in mid-game keeps
    the seats they took as a guest.
    """

    user_id: int | None = None
    session_key: str | None = None

    def owns(self, seat: Seat) -> bool:
        if seat.bot_level:
            return False
        if self.user_id is not None and seat.user_id == self.user_id:
            return True
        return (
            bool(self.session_key)
            and seat.user_id is None
            and (seat.session_key == self.session_key)
        )


# --- The true state ---------------------------------------------------------------------


def table_setup(table: Table) -> MatchSetup:
    return MatchSetup(table.players, tuple(tuple(unit) for unit in table.teams), table.target)


# Rebuilt matches, by table and version: replaying a table is most of what a live move
# costs, and every seat's page after a move needs the same match. MatchState is immutable,
# so threads may share it. The latest match of each table also lets the next version be
# built from it with only the moves stored since.
_MATCHES: OrderedDict[tuple, MatchState] = OrderedDict()
_LATEST: dict[int, tuple[tuple, int, MatchState]] = {}  # table id -> identity, moves, match
_MATCHES_LOCK = threading.Lock()
MATCHES_KEPT = 1024


def match_for_table(table: Table, *, fresh: bool = False) -> MatchState:
    """The table's match: every stored deal and action replayed through the engine, or the
    replay already made for the table's current version.

    The version is read afresh (``table`` may be an object loaded before the last move)
    unless ``fresh`` says ``table`` was read just now, as a locked row or for one redraw.
    """
    if not fresh:
        table = Table.objects.only(*VERSION_FIELDS).get(pk=table.pk)
    key = _version_key(table)
    moves = key[3]
    with _MATCHES_LOCK:
        match = _MATCHES.get(key)
        if match is not None:
            _MATCHES.move_to_end(key)
            return match
        latest = _LATEST.get(table.pk)
    since = latest[2] if latest and latest[0] == key[1] and latest[1] <= moves else None
    match = _replay(table, since)
    _remember(key, match)
    return match


def remember_stored_match(table: Table, match: MatchState) -> None:
    """A service has just stored a move and made ``match``: once its transaction commits,
    that is the table's match at ``table``'s version, and every seat's redraw needs it.
    (Never before the commit: a rolled-back move's match would shadow the real one.)"""
    key = _version_key(table)
    transaction.on_commit(lambda: _remember(key, match))


VERSION_FIELDS = ("code", "created", "target", "first_dealer", "status", "moves")


def _version_key(table: Table) -> tuple:
    """Which match a table row stands for: the table (its id alone could be reused by a
    test database), then how far it has got."""
    identity = (table.code, table.created, table.target, table.first_dealer)
    return (table.pk, identity, table.status, table.moves)


def _remember(key: tuple, match: MatchState) -> None:
    table_id, identity, _, moves = key
    with _MATCHES_LOCK:
        _MATCHES[key] = match
        _MATCHES.move_to_end(key)
        while len(_MATCHES) > MATCHES_KEPT:
            _MATCHES.popitem(last=False)
        if table_id not in _LATEST or _LATEST[table_id][1] <= moves:
            _LATEST[table_id] = (identity, moves, match)
        while len(_LATEST) > MATCHES_KEPT:
            del _LATEST[next(iter(_LATEST))]


def _replay(table: Table, since: MatchState | None = None) -> MatchState:
    """Replay the table's deals and actions, or only those stored after ``since`` (an
    earlier version of the same table's match: actions are only ever appended)."""
    match = since or MatchState(table_setup(table), table.first_dealer)
    started = len(match.rounds)
    current = started - 1  # the round in progress in ``since``, if any
    done = len(match.round.history) if started else 0
    by_round: dict[int, list[tuple[int, int]]] = {}
    logs = ActionLog.objects.filter(table=table, round__gte=max(current, 0)).order_by(
        "round", "index"
    )
    for number, index, seat, action in logs.values_list("round", "index", "seat", "action"):
        if number == current and index < done:
            continue
        by_round.setdefault(number, []).append((seat, action))
    for seat, action in by_round.get(current, ()):
        match = match.apply(action, seat)
    deals = Round.objects.filter(table=table, number__gte=started).order_by("number")
    for number, dealer, hands, hidden in deals.values_list("number", "dealer", "hands", "hidden"):
        deal = Deal(
            dealer,
            tuple(mask_of(parse_card(code) for code in hand) for hand in hands),
            mask_of(parse_card(code) for code in hidden),
        )
        match = match.start_round(deal)
        for seat, action in by_round.get(number, ()):
            match = match.apply(action, seat)
    return match


def seat_number_for(table: Table, owner: SeatOwner) -> int | None:
    for seat in table.seats.all():
        if owner.owns(seat):
            return seat.number
    return None


@dataclass(frozen=True)
class Turn:
    """Whose turn it is at a table, and what that seat may know to choose its move."""

    round: int
    index: int  # actions already made this round
    seat: int
    bot_level: str | None
    away: bool  # a person for whom a bot stands in
    since: datetime  # when the turn began: the last stored move, or the table's creation
    abandoned: bool  # every person has been away a long while: nobody to play for
    view: SeatView  # the acting seat's own view, for whoever chooses its move
    legal: tuple[int, ...]


def abandoned(seat_rows) -> bool:
    """Every person at the table has been away for SMEAR_ABANDONED_AFTER_S: its bots stop
    and it waits for the first of them to come back."""
    people = [seat for seat in seat_rows if not seat.bot_level]
    away = [seat.away_since for seat in people if seat.away_since is not None]
    if not people or len(away) < len(people):
        return False
    gone_s = (timezone.now() - max(away)).total_seconds()
    return gone_s >= settings.SMEAR_ABANDONED_AFTER_S


def table_turn(*, table_id: int) -> Turn | None:
    """The turn of a table in play, or None when nobody is to act."""
    table = Table.objects.filter(pk=table_id, status=Table.Status.PLAYING).first()
    if table is None:
        return None
    match = match_for_table(table, fresh=True)
    seat_number = match.current_player()
    if seat_number is None:
        return None
    seats = {seat.number: seat for seat in table.seats.all()}
    last = ActionLog.objects.filter(table=table).order_by("-round", "-index").first()
    return Turn(
        round=len(match.rounds) - 1,
        index=len(match.round.history),
        seat=seat_number,
        bot_level=seats[seat_number].bot_level,
        away=seats[seat_number].away_since is not None,
        since=last.created if last else table.created,
        abandoned=abandoned(seats.values()),
        view=match.view_for(seat_number),
        legal=tuple(match.legal_actions()),
    )


# --- What one seat sees -------------------------------------------------------------------


@dataclass(frozen=True)
class SeatInfo:
    number: int
    name: str
    bot_level: str | None
    unit: int
    is_you: bool
    is_turn: bool
    is_dealer: bool
    stand_in: bool = False  # a bot is playing for this person while they are away


@dataclass(frozen=True)
class UnitInfo:
    index: int
    names: str
    score: int
    is_yours: bool


@dataclass(frozen=True)
class Play:
    seat: int
    name: str
    code: str


@dataclass(frozen=True)
class PointLine:
    label: str  # "High", "Low", "Jack", "Joker", "Game"
    card: str | None  # the card that scored, where there is one
    unit: int | None
    names: str  # who took it, or "nobody"


@dataclass(frozen=True)
class ScoreLine:
    unit: int
    names: str
    before: int
    raw: int
    after: int
    game_total: int
    bidder: bool
    capped: bool  # a non-bidder held at target - 1


@dataclass(frozen=True)
class RoundSummary:
    number: int
    bidder_name: str
    bid: int
    made: bool
    trump: str
    points: tuple[PointLine, ...]
    scores: tuple[ScoreLine, ...]


@dataclass(frozen=True)
class _TablePage:
    """What a seat's page and a spectator's page show alike: public fields only."""

    table_id: int  # with the code, names the table in the keys of its cached fragments
    code: str
    status: str
    view: SeatView | PublicView
    round_number: int
    action_index: int  # how many actions this round has: a form posts it to catch staleness
    seats: tuple[SeatInfo, ...]
    units: tuple[UnitInfo, ...]
    auction: tuple[tuple[str, str], ...]  # (seat name, "bid 3" / "pass")
    trick: tuple[Play, ...]
    leader_name: str | None
    to_act_name: str | None
    trump: str | None  # suit letter
    last_trick: tuple[Play, ...]
    last_trick_winner: str | None
    previous: RoundSummary | None  # the round just finished
    finished_rounds: int
    winner_names: str | None
    rematch_code: str | None  # the table where the same seats play again, once asked for
    abandoned: bool  # everyone away a long while: no bot plays for them until one returns

    @property
    def in_auction(self) -> bool:
        return self.view.bidder is None and self.view.result is None

    @property
    def trump_name(self) -> str | None:
        return SUIT_NAMES[self.trump] if self.trump else None

    @property
    def finished_round_numbers(self) -> range:
        return range(1, self.finished_rounds + 1)

    @property
    def bidder_name(self) -> str | None:
        return None if self.view.bidder is None else self.seats[self.view.bidder].name


@dataclass(frozen=True)
class TableView(_TablePage):
    """A seated person's page: the public fields, and their own seat's hand and moves."""

    seat: int
    legal: tuple[str, ...]  # this seat's legal action codes (empty when not its turn)
    hand: tuple[tuple[str, bool], ...]  # (card code, playable)

    @property
    def my_turn(self) -> bool:
        return bool(self.legal)

    @property
    def stood_in_for(self) -> bool:
        """A bot is playing this seat's turns while its person is away."""
        return any(info.is_you and info.stand_in for info in self.seats)

    @property
    def bids(self) -> tuple[str, ...]:
        return tuple(code for code in self.legal if code == "pass" or code.startswith("bid:"))


def _unit_names(seats: tuple[SeatInfo, ...], members) -> str:
    return " & ".join(seats[s].name for s in members)


def _round_summary(
    number: int, view: SeatView, seats: tuple[SeatInfo, ...], target: int
) -> RoundSummary:
    """A finished round's points and score changes, worked out from a seat's view of it:
    once a round is over every dealt card has been played, so all of it is public."""
    result = view.result
    trump = view.trump
    captured = view.taken
    played = mask_of(c for _, c in view.plays)
    trumps = cards_of(played & SUIT_MASK[trump])

    def who(unit: int | None) -> str:
        return "nobody" if unit is None else _unit_names(seats, view.teams[unit])

    p = result.points
    lines = [PointLine("High", card_code(trumps[-1]), p.high, who(p.high))]
    lines.append(PointLine("Low", card_code(trumps[0]), p.low, who(p.low)))
    jack = trump * 13 + JACK
    if played >> jack & 1:
        lines.append(PointLine("Jack", card_code(jack), p.jack, who(p.jack)))
    for joker in (JOKER_1, JOKER_1 + 1):
        if played >> joker & 1:
            unit = next(u for u, cards in enumerate(captured) if cards >> joker & 1)
            lines.append(PointLine("Joker", card_code(joker), unit, who(unit)))
    lines.append(PointLine("Game", None, p.game, who(p.game)))
    scores = []
    for unit, members in enumerate(view.teams):
        before, raw, after = view.scores[unit], result.raw[unit], result.match_after[unit]
        bidder = unit == result.bidder_unit
        scores.append(
            ScoreLine(
                unit=unit,
                names=_unit_names(seats, members),
                before=before,
                raw=raw,
                after=after,
                game_total=game_total(captured[unit]),
                bidder=bidder,
                capped=not bidder and before + raw > target - 1,
            )
        )
    return RoundSummary(
        number=number,
        bidder_name=seats[view.bidder].name,
        bid=result.bid,
        made=result.made,
        trump=SUITS[trump],
        points=tuple(lines),
        scores=tuple(scores),
    )


def _describe_bid(action: int) -> str:
    return "pass" if action == rules.PASS else f"bid {rules.bid_amount(action)}"


def table_page_context(
    *, table: Table, seat_owner: SeatOwner, match: MatchState | None = None
) -> dict:
    """The context of the ``game/table.html#table`` partial for whoever asks. The page and
    every live update render from this. ``match``, when given, is the table's match as
    just read (one read serves every seat that redraws after a move).

    ``t`` is a ``LobbyView`` while the table waits for players, a ``TableView`` for a
    seated person, and a ``SpectatorView`` (public information only) for anyone else.
    """
    if not table.dealt:
        return {"t": lobby_view_for(table=table, seat_owner=seat_owner)}
    view = table_view_for(table=table, seat_owner=seat_owner, match=match)
    if view is None:
        # the share code is the capability: whoever reached the table by its code may
        # watch it, public information only (a guessed code shows no more than that)
        return {"t": spectator_view_for(table=table, match=match)}
    return {"t": view}


def table_view_for(
    *, table: Table, seat_owner: SeatOwner, match: MatchState | None = None
) -> TableView | None:
    """What the owner's seat may see of the table, or None when they have no seat here."""
    seat_rows = list(table.seats.all())
    seat = next((s.number for s in seat_rows if seat_owner.owns(s)), None)
    if seat is None:
        return None
    match = match or match_for_table(table)
    view = match.round.view_for(seat)
    legal = tuple(rules.action_code(a) for a in view.legal_actions())
    hand = tuple((card_code(c), card_code(c) in legal) for c in view.hand_cards)
    return TableView(
        seat=seat,
        view=view,
        legal=legal,
        hand=hand,
        **_shown_to_all(table, seat_rows, match, view, seat),
    )


def _shown_to_all(
    table: Table, seat_rows: list[Seat], match: MatchState, view: SeatView | PublicView, seat
) -> dict:
    """The fields a seat's page and a spectator's page share: all public, read from
    ``view``'s public fields only (``seat`` marks whose page it is, None for a spectator)."""
    to_act = view.to_act
    seats = tuple(
        SeatInfo(
            number=s.number,
            name=s.display_name,
            bot_level=s.bot_level,
            unit=view.unit_of[s.number],
            is_you=s.number == seat,
            is_turn=s.number == to_act,
            is_dealer=s.number == view.dealer,
            stand_in=s.away_since is not None,
        )
        for s in seat_rows
    )
    units = tuple(
        UnitInfo(u, _unit_names(seats, members), match.scores[u], seat in members)
        for u, members in enumerate(view.teams)
    )
    players = view.players
    done = len(view.trick_winners)
    last_trick: tuple[Play, ...] = ()
    last_winner = None
    if done:
        last_trick = tuple(
            Play(s, seats[s].name, card_code(c))
            for s, c in view.plays[(done - 1) * players : done * players]
        )
        last_winner = seats[view.trick_winners[-1]].name
    leader = None if view.result is not None else view.leader
    finished = [r for r in match.rounds if r.is_terminal()]
    previous = None
    if finished:
        shown = PublicView.of(finished[-1].view_for(0))
        previous = _round_summary(len(finished) - 1, shown, seats, table.target)
    winner = match.winner
    return {
        "table_id": table.pk,
        "code": table.code,
        "status": table.status,
        "round_number": len(match.rounds) - 1,
        "action_index": len(match.round.history),
        "seats": seats,
        "units": units,
        "auction": tuple((seats[s].name, _describe_bid(a)) for s, a in view.auction),
        "trick": tuple(Play(s, seats[s].name, card_code(c)) for s, c in view.current_trick),
        "leader_name": None if leader is None else seats[leader].name,
        "to_act_name": None if to_act is None else seats[to_act].name,
        "trump": None if view.trump is None else SUITS[view.trump],
        "last_trick": last_trick,
        "last_trick_winner": last_winner,
        "previous": previous,
        "finished_rounds": len(finished),
        "winner_names": None if winner is None else units[winner].names,
        "rematch_code": (
            Table.objects.filter(pk=table.rematch_id).values_list("code", flat=True).first()
            if table.rematch_id is not None
            else None
        ),
        "abandoned": abandoned(seat_rows),
    }


# --- Hand history ---------------------------------------------------------------------


def finished_match_for_table(table: Table) -> MatchState:
    """The match cut to its finished rounds: an unfinished round's hands are never shown."""
    match = match_for_table(table)
    rounds = tuple(r for r in match.rounds if r.is_terminal())
    return MatchState(match.setup, match.first_dealer, rounds)


@dataclass(frozen=True)
class ReplayTrick:
    number: int
    plays: tuple[Play, ...]
    winner: str


@dataclass(frozen=True)
class RoundReplay:
    number: int
    dealer: str
    hands: tuple[tuple[str, tuple[str, ...]], ...]  # (seat name, dealt cards)
    auction: tuple[tuple[str, str], ...]
    tricks: tuple[ReplayTrick, ...]
    summary: RoundSummary


def round_replay(*, table: Table, number: int) -> RoundReplay | None:
    """A finished round laid out trick by trick (None when there is no such finished round)."""
    match = finished_match_for_table(table)
    if not 0 <= number < len(match.rounds):
        return None
    state = match.rounds[number]
    view = state.view_for(0)
    names = {s.number: s.display_name for s in table.seats.all()}
    players = view.players
    seats = tuple(
        SeatInfo(n, names[n], None, view.unit_of[n], False, False, n == view.dealer)
        for n in range(players)
    )
    tricks = tuple(
        ReplayTrick(
            number=t,
            plays=tuple(
                Play(s, names[s], card_code(c))
                for s, c in view.plays[t * players : (t + 1) * players]
            ),
            winner=names[winner],
        )
        for t, winner in enumerate(view.trick_winners)
    )
    return RoundReplay(
        number=number,
        dealer=names[view.dealer],
        hands=tuple(
            (names[s], tuple(card_code(c) for c in cards_of(hand)))
            for s, hand in enumerate(state.deal.hands)
        ),
        auction=tuple((names[s], _describe_bid(a)) for s, a in view.auction),
        tricks=tricks,
        summary=_round_summary(number, view, seats, table.target),
    )


# --- Tables with friends: the lobby, spectators and the lists of tables ---------------------


@dataclass(frozen=True)
class LobbySeat:
    number: int
    name: str | None  # None while the seat is empty
    bot_level: str | None
    team: str | None  # "A", "B", ... when some unit has partners
    is_you: bool
    is_host: bool

    @property
    def is_empty(self) -> bool:
        return self.name is None


@dataclass(frozen=True)
class LobbyView:
    """A table waiting for players: who sits where, and what the asker may do about it."""

    code: str
    status: str
    players: int
    target: int
    public: bool
    teams: tuple[str, ...]  # "Team A: seats 0 & 2", one a unit; empty for cutthroat
    path: str  # the table page: the share link is this made absolute
    share_url: str  # the share link from settings.SITE_URL, for renders without a request
    host_name: str
    seats: tuple[LobbySeat, ...]
    your_seat: int | None
    is_host: bool
    signed_in: bool
    bot_levels: tuple[str, ...]

    @property
    def empty(self) -> int:
        return sum(1 for seat in self.seats if seat.is_empty)

    @property
    def ready(self) -> bool:
        return not self.empty

    is_lobby = True  # the template's switch between this and a table in play

    @property
    def closed(self) -> bool:
        return self.status == Table.Status.CLOSED

    @property
    def can_join(self) -> bool:
        return not self.closed and self.signed_in and self.your_seat is None and self.empty > 0

    @property
    def state_key(self) -> str:
        """Changes whenever the lobby does: a poller compares it to see a change."""
        seats = "|".join(f"{s.number}:{s.name or ''}:{s.bot_level or ''}" for s in self.seats)
        return f"{self.status}|{seats}"


def _team_letters(teams: list[list[int]]) -> dict[int, str] | None:
    if all(len(unit) == 1 for unit in teams):
        return None  # cutthroat: everyone for themselves
    return {seat: chr(ord("A") + u) for u, unit in enumerate(teams) for seat in unit}


def lobby_view_for(*, table: Table, seat_owner: SeatOwner) -> LobbyView:
    from django.conf import settings
    from django.urls import reverse

    from game.bots import LEVELS

    rows = {s.number: s for s in table.seats.all()}
    letters = _team_letters(table.teams)
    your_seat = next((n for n, s in rows.items() if seat_owner.owns(s)), None)
    seats = tuple(
        LobbySeat(
            number=n,
            name=rows[n].display_name if n in rows else None,
            bot_level=rows[n].bot_level if n in rows else None,
            team=None if letters is None else letters[n],
            is_you=n == your_seat,
            is_host=n in rows and rows[n].user_id is not None and rows[n].user_id == table.host_id,
        )
        for n in range(table.players)
    )
    path = reverse("game:table", args=[table.code])
    teams = ()
    if letters is not None:
        teams = tuple(
            f"Team {chr(ord('A') + u)}: seats {' & '.join(str(s) for s in unit)}"
            for u, unit in enumerate(table.teams)
        )
    host_name = next((s.name for s in seats if s.is_host), None) or "someone who left"
    return LobbyView(
        code=table.code,
        status=table.status,
        players=table.players,
        target=table.target,
        public=table.public,
        teams=teams,
        path=path,
        share_url=settings.SITE_URL.rstrip("/") + path,
        host_name=host_name,
        seats=seats,
        your_seat=your_seat,
        is_host=seat_owner.user_id is not None and seat_owner.user_id == table.host_id,
        signed_in=seat_owner.user_id is not None,
        bot_levels=tuple(LEVELS),
    )


@dataclass(frozen=True)
class PublicView:
    """What anyone watching may know of a round: a SeatView's public fields, without the
    seat and its hand. Built from some seat's view, keeping only these fields."""

    players: int
    teams: tuple[tuple[int, ...], ...]
    target: int
    dealer: int
    auction: tuple[tuple[int, int], ...]
    bidder: int | None
    bid: int | None
    trump: int | None
    plays: tuple[tuple[int, int], ...]
    trick_winners: tuple[int, ...]
    to_act: int | None
    scores: tuple[int, ...]
    hidden_count: int
    result: object | None  # the RoundResult: public once the round is over

    # the derivations that read only public fields, shared with SeatView
    unit_of = SeatView.unit_of
    current_trick = SeatView.current_trick
    leader = SeatView.leader
    taken = SeatView.taken

    @classmethod
    def of(cls, view: SeatView) -> PublicView:
        from dataclasses import fields

        return cls(**{f.name: getattr(view, f.name) for f in fields(cls)})


@dataclass(frozen=True)
class SpectatorView(_TablePage):
    """A playing or finished table as a spectator sees it: no seat, no hand, no legal moves.

    The template treats it as a TableView whose owner never has a turn."""

    spectator = True
    my_turn = False
    bids = ()


def spectator_view_for(*, table: Table, match: MatchState | None = None) -> SpectatorView:
    """The public side of a playing or finished table. Every seat's view of these fields
    is the same; seat 0's is read and its hand dropped at once."""
    match = match or match_for_table(table)
    view = PublicView.of(match.round.view_for(0))
    return SpectatorView(
        view=view, **_shown_to_all(table, list(table.seats.all()), match, view, None)
    )


@dataclass(frozen=True)
class TableListing:
    code: str
    players: int
    taken: int
    target: int
    public: bool
    status: str
    status_label: str
    host_name: str

    @property
    def free(self) -> int:
        return self.players - self.taken


def _with_counts(tables):
    from django.db.models import Count, OuterRef, Subquery

    host_seat = Seat.objects.filter(table=OuterRef("pk"), user_id=OuterRef("host_id"))
    return tables.annotate(
        taken=Count("seats"), host_name=Subquery(host_seat.values("display_name")[:1])
    )


def _listing(t: Table) -> TableListing:
    return TableListing(
        code=t.code,
        players=t.players,
        taken=t.taken,
        target=t.target,
        public=t.public,
        status=t.status,
        status_label=t.get_status_display(),
        host_name=t.host_name or "someone who left",
    )


def open_public_tables(*, limit: int = 50) -> list[TableListing]:
    """Public tables waiting in the lobby with a seat free, newest first."""
    from django.db.models import F

    tables = _with_counts(Table.objects.filter(public=True, status=Table.Status.LOBBY))
    tables = tables.filter(taken__lt=F("players")).order_by("-created")
    return [_listing(t) for t in tables[:limit]]


def tables_for_user(*, user_id: int, limit: int = 20) -> list[TableListing]:
    """The tables a signed-in user sits at that are not over, newest first."""
    mine = Seat.objects.filter(user_id=user_id).values("table_id")
    tables = _with_counts(
        Table.objects.filter(pk__in=mine).exclude(
            status__in=(Table.Status.FINISHED, Table.Status.CLOSED)
        )
    ).order_by("-created")
    return [_listing(t) for t in tables[:limit]]


def table_for_code(code: str) -> Table | None:
    return Table.objects.filter(code=code.strip().upper()).first()
