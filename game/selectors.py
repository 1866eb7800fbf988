"""Selectors: read game data, never write it.

A table's true match is rebuilt from its deals and actions (``match_for_table``); what a
page shows a seat is built from that seat's SeatView only (``table_view_for``), so it
cannot show another seat's cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import rules
from game.engine.cards import (
    JACK,
    JOKER_1,
    SUIT_MASK,
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

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


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


def match_for_table(table: Table) -> MatchState:
    """The table's match: every stored deal and action replayed through the engine."""
    match = MatchState(table_setup(table), table.first_dealer)
    by_round: dict[int, list[ActionLog]] = {}
    for log in ActionLog.objects.filter(table=table).order_by("round", "index"):
        by_round.setdefault(log.round, []).append(log)
    for stored in Round.objects.filter(table=table).order_by("number"):
        deal = Deal(
            stored.dealer,
            tuple(mask_of(parse_card(code) for code in hand) for hand in stored.hands),
            mask_of(parse_card(code) for code in stored.hidden),
        )
        match = match.start_round(deal)
        for log in by_round.get(stored.number, ()):
            match = match.apply(log.action, log.seat)
    return match


def seat_number_for(table: Table, owner: SeatOwner) -> int | None:
    for seat in table.seats.all():
        if owner.owns(seat):
            return seat.number
    return None


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
class TableView:
    code: str
    status: str
    seat: int
    view: SeatView
    round_number: int
    action_index: int  # how many actions this round has: a form posts it to catch staleness
    seats: tuple[SeatInfo, ...]
    units: tuple[UnitInfo, ...]
    legal: tuple[str, ...]  # this seat's legal action codes (empty when not its turn)
    hand: tuple[tuple[str, bool], ...]  # (card code, playable)
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

    @property
    def my_turn(self) -> bool:
        return bool(self.legal)

    @property
    def in_auction(self) -> bool:
        return self.view.bidder is None and self.view.result is None

    @property
    def bids(self) -> tuple[str, ...]:
        return tuple(code for code in self.legal if code == "pass" or code.startswith("bid:"))

    @property
    def trump_name(self) -> str | None:
        return SUIT_NAMES[self.trump] if self.trump else None

    @property
    def finished_round_numbers(self) -> range:
        return range(1, self.finished_rounds + 1)

    @property
    def bidder_name(self) -> str | None:
        return None if self.view.bidder is None else self.seats[self.view.bidder].name


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


def table_page_context(*, table: Table, seat_owner: SeatOwner) -> dict | None:
    """The context of the ``game/table.html#table`` partial for whoever asks, or None when
    they may not see the table. The page and every live update render from this."""
    view = table_view_for(table=table, seat_owner=seat_owner)
    if view is None:
        return None
    return {"t": view}


def table_view_for(*, table: Table, seat_owner: SeatOwner) -> TableView | None:
    """What the owner's seat may see of the table, or None when they have no seat here."""
    seat_rows = list(table.seats.all())
    seat = next((s.number for s in seat_rows if seat_owner.owns(s)), None)
    if seat is None:
        return None
    match = match_for_table(table)
    current = match.round
    view = current.view_for(seat)
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
        )
        for s in seat_rows
    )
    scores = match.scores
    units = tuple(
        UnitInfo(u, _unit_names(seats, members), scores[u], seat in members)
        for u, members in enumerate(view.teams)
    )
    legal = tuple(rules.action_code(a) for a in view.legal_actions())
    legal_set = set(legal)
    hand = tuple((card_code(c), card_code(c) in legal_set) for c in view.hand_cards)
    players = view.players
    done = len(view.trick_winners)
    trick = tuple(Play(s, seats[s].name, card_code(c)) for s, c in view.current_trick)
    last_trick: tuple[Play, ...] = ()
    last_winner = None
    if done:
        last_trick = tuple(
            Play(s, seats[s].name, card_code(c))
            for s, c in view.plays[(done - 1) * players : done * players]
        )
        last_winner = seats[view.trick_winners[-1]].name
    leader = None if view.result is not None else view.leader
    previous = None
    finished = [r for r in match.rounds if r.is_terminal()]
    if finished:
        number = len(finished) - 1
        previous = _round_summary(number, finished[-1].view_for(seat), seats, table.target)
    winner = match.winner
    return TableView(
        code=table.code,
        status=table.status,
        seat=seat,
        view=view,
        round_number=len(match.rounds) - 1,
        action_index=len(current.history),
        seats=seats,
        units=units,
        legal=legal,
        hand=hand,
        auction=tuple((seats[s].name, _describe_bid(a)) for s, a in view.auction),
        trick=trick,
        leader_name=None if leader is None else seats[leader].name,
        to_act_name=None if to_act is None else seats[to_act].name,
        trump=None if view.trump is None else SUITS[view.trump],
        last_trick=last_trick,
        last_trick_winner=last_winner,
        previous=previous,
        finished_rounds=len(finished),
        winner_names=None if winner is None else units[winner].names,
    )


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
