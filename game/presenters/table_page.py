"""The table page: the public part of a table in play (``PublicPage``, the same for every
seat and spectator, built once per table version), and a seat's page (``TableView``, that
seat's own ``SeatView`` on top) or a spectator's (``SpectatorView``), so a page cannot
show another seat's cards."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from game.engine import cards, events, notation, rules
from game.engine.state import MatchState
from game.engine.view import PublicView, SeatView
from game.live.turns import abandoned
from game.models import Seat, Table
from game.presenters.pieces import (
    Play,
    SeatHand,
    SeatInfo,
    UnitInfo,
    auction,
    mark_yours,
    plays,
    side_letters,
    trump_words,
    units,
)
from game.presenters.summary import RoundSummary, round_summary


@dataclass(frozen=True)
class Glance:
    """One side's round so far: the game count of the cards it has taken, and the points
    already settled its way."""

    unit: int
    names: str
    game_count: int
    points: tuple[str, ...]  # "High", "Jack", "Joker", ...
    tricks: int = 0  # the tricks it has taken this round
    side: str | None = None  # the unit's letter, where some unit has partners


# --- A table in play: its public part, then a seat's page or a spectator's ----------------


@dataclass(frozen=True)
class PublicPage:
    """What a seat's page and a spectator's page show alike: public fields only."""

    code: str
    status: str
    view: PublicView
    round_number: int
    action_index: int  # how many actions this round has: a form posts it to catch staleness
    seats: tuple[SeatInfo, ...]
    units: tuple[UnitInfo, ...]
    auction: tuple[tuple[str, str], ...]  # (seat name, "bid 3" / "pass")
    trick: tuple[Play, ...]
    leader_name: str | None
    leader: int | None  # the seat that leads the trick now (or led the one shown)
    to_act_name: str | None
    trump: str | None  # suit letter
    trump_name: str | None
    bidder_name: str | None
    last_trick: tuple[Play, ...]
    last_trick_winner: str | None
    # the trick in the middle of the table: the one being played or, until a card is
    # led, the one just finished (its winner marked; the page lets it stand a moment)
    shown_trick: tuple[Play, ...]
    shown_trick_winner: int | None  # the winning seat once the shown trick is finished
    shown_trick_key: str  # names the shown trick: the page holds each finished one once
    glance: tuple[Glance, ...]
    opening_lead: bool  # the round's first card is due: it sets trump, and a joker may not lead
    previous: RoundSummary | None  # the round just finished
    finished_rounds: int
    winner_names: str | None
    rematch_code: str | None  # the table where the same seats play again, once asked for
    abandoned: bool  # everyone away a long while: no bot plays for them until one returns
    rules_lines: tuple[str, ...] = ()  # the table's rules at a glance (notation.rules_summary)
    rules_anchor: str = "house"  # the rules page's section for the table's preset
    naming_trump: bool = False  # the bidder is naming trump
    exchanging: bool = False  # seats are discarding (and being dealt a fill)
    exchange_notes: tuple[str, ...] = ()  # who discarded how many, who was dealt how many
    redealt_by: str | None = None  # everyone passed last round: this dealer deals again
    high_bid_words: str = ""  # in the auction: the bid to beat and who holds it
    # (round number, each side's match score after it) for each finished round but a
    # redeal, which scores nothing
    score_by_round: tuple[tuple[int, tuple[int, ...]], ...] = ()
    seat_names: dict[int, str] = field(default_factory=dict, compare=False, repr=False)

    is_lobby = False  # not a field: the template's switch between a lobby and this

    @property
    def with_friends(self) -> bool:
        """More than one person sits here: a new table for them is hosted, not dealt."""
        return sum(1 for seat in self.seats if not seat.bot_level) > 1

    @property
    def public(self) -> PublicPage:
        return self

    @property
    def cards_played(self) -> bool:
        """The round's first card has been played."""
        return bool(self.view.plays)

    @property
    def shows_last_trick(self) -> bool:
        """The page shows the last trick apart: one is finished and the next begun."""
        return bool(self.last_trick) and bool(self.view.current_trick)

    @property
    def in_auction(self) -> bool:
        return self.view.in_auction

    @property
    def players(self) -> int:
        return self.view.players

    @property
    def target(self) -> int:
        return self.view.target

    @property
    def bid(self) -> int | None:
        return self.view.bid

    @property
    def trick_done(self) -> bool:
        return self.shown_trick_winner is not None

    @property
    def trick_of_last_round(self) -> bool:
        """The trick shown is the last round's final one (before this round's first bid)."""
        return self.trick_done and not self.view.plays

    @property
    def shown_trick_winner_name(self) -> str | None:
        winner = self.shown_trick_winner
        return None if winner is None else self.seats[winner].name

    @property
    def finished_round_numbers(self) -> range:
        return range(1, self.finished_rounds + 1)


def public_page(
    *,
    table: Table,
    seat_rows: list[Seat],
    match: MatchState,
    rematch_code: str | None,
    before: PublicPage | None = None,
) -> PublicPage:
    """The public part of ``table`` at ``match``; ``before``, the table's page at an
    earlier version, lends what did not change since (the last round's summary)."""
    view = match.round.public_view()
    names = {s.number: s.display_name for s in seat_rows}
    to_act = view.to_act
    unit_of = view.unit_of
    said = {s: notation.said(a) for s, a in view.auction}
    hand_sizes = view.hand_sizes
    seats = tuple(
        SeatInfo(
            number=s.number,
            name=s.display_name,
            bot_level=s.bot_level,
            unit=unit_of[s.number],
            is_turn=s.number == to_act,
            is_dealer=s.number == view.dealer,
            stand_in=s.away_since is not None,
            said=said.get(s.number),
            cards_left=hand_sizes[s.number],
        )
        for s in seat_rows
    )
    sides = units(view, names, match.scores)
    letters = side_letters(view.teams)
    if letters is not None:
        seats = tuple(replace(seat, side=letters[seat.unit]) for seat in seats)
    won = view.tricks_won
    last_trick: tuple[Play, ...] = ()
    last_winner = None
    if won:
        last_trick = plays(won[-1].plays, names)
        last_winner = names[won[-1].seat]
    leader = None if view.result is not None else view.leader
    finished = [r for r in match.rounds if r.is_terminal()]
    score_by_round = tuple(
        (number, r.result.match_after)
        for number, r in enumerate(finished, start=1)
        if not r.result.redeal
    )
    previous = None
    same_round = before is not None and before.finished_rounds == len(finished)
    if same_round and before.seat_names == names:
        previous = before.previous  # every move of a round shows the last one's summary
    elif finished:
        previous = round_summary(len(finished) - 1, finished[-1].public_view(), names)
    shown, shown_winner, shown_key = _shown_trick(view, finished, names)
    trump, trump_name = trump_words(view)
    winner = match.winner
    redealt_by = None
    if finished and finished[-1].result.redeal and not view.plays and view.result is None:
        redealt_by = names[view.dealer]
    return PublicPage(
        code=table.code,
        status=table.status,
        view=view,
        round_number=len(match.rounds) - 1,
        action_index=len(match.round.history),
        seats=seats,
        units=sides,
        auction=auction(view, names),
        trick=plays(view.current_trick, names),
        leader_name=None if leader is None else names[leader],
        leader=leader,
        to_act_name=None if to_act is None else names[to_act],
        trump=trump,
        trump_name=trump_name,
        bidder_name=None if view.bidder is None else names[view.bidder],
        last_trick=last_trick,
        last_trick_winner=last_winner,
        shown_trick=shown,
        shown_trick_winner=shown_winner,
        shown_trick_key=shown_key,
        glance=_glance(view, sides),
        # the round's first card sets trump: only where the bidder does not name it
        opening_lead=view.phase is rules.Phase.PLAY
        and not view.rules.names_trump
        and not view.plays,
        previous=previous,
        finished_rounds=len(finished),
        winner_names=None if winner is None else sides[winner].names,
        rematch_code=rematch_code,
        abandoned=abandoned(seat_rows),
        rules_lines=notation.rules_summary(view.rules),
        rules_anchor=view.rules.preset,
        naming_trump=view.phase is rules.Phase.TRUMP,
        exchanging=view.phase is rules.Phase.EXCHANGE,
        exchange_notes=exchange_notes(view, names),
        redealt_by=redealt_by,
        high_bid_words=high_bid_words(view, names),
        score_by_round=score_by_round,
        seat_names=names,
    )


def high_bid_words(view: PublicView, names: dict[int, str]) -> str:
    """The auction's standing, said to whoever is to bid: the high bid and who holds it."""
    if not view.in_auction:
        return ""
    high = view.high_bid
    if not high:
        return "Nobody has bid yet."
    # bids only go up: the high bid's holder is the last seat to say it
    holder = next(s for s, a in reversed(view.auction) if rules.is_bid(a))
    return f"High bid: {high}, by {names[holder]}."


def exchange_notes(view: PublicView, names: dict[int, str]) -> tuple[str, ...]:
    """How many cards each seat discarded and was dealt in the exchange (its events):
    counts only, for everyone (the cards themselves are the seat's own)."""
    thrown, got, took = [0] * view.players, [0] * view.players, [False] * view.players
    for event in view.events:
        if isinstance(event, events.Discarded):
            thrown[event.seat] = event.count
        elif isinstance(event, events.Filled):
            got[event.seat], took[event.seat] = event.count, event.took_pack
    notes = []
    for seat in range(view.players):
        if took[seat]:
            note = f"{names[seat]} took {got[seat]} card{'s' * (got[seat] != 1)} from the pack"
            notes.append(note + (f" and discarded {thrown[seat]}" if thrown[seat] else ""))
        elif thrown[seat] or got[seat]:
            note = f"{names[seat]} discarded {thrown[seat]}"
            notes.append(note + (f", was dealt {got[seat]}" if got[seat] else ""))
    return tuple(notes)


def _shown_trick(view: PublicView, finished, names) -> tuple[tuple[Play, ...], int | None, str]:
    """The trick in the middle: the current one, else the one just finished (this round's
    or, before the next round's first bid, the last round's last)."""
    rounds = len(finished)
    if view.current_trick:
        return plays(view.current_trick, names), None, ""
    if view.tricks_won:
        last = view.tricks_won[-1]
        return plays(last.plays, names), last.seat, f"{rounds}-{last.number + 1}"
    if finished and not view.auction:
        won = finished[-1].public_view().tricks_won
        if not won:  # a redealt round: no card was played
            return (), None, ""
        last = won[-1]
        return plays(last.plays, names), last.seat, f"{rounds - 1}-{last.number + 1}"
    return (), None, ""


def _glance(view: PublicView, units: tuple[UnitInfo, ...]) -> tuple[Glance, ...]:
    """Each side's round so far, from the round's events: its tricks, its game count and
    the points settled its way (every point once the round is scored)."""
    if view.trump is None:
        return ()
    tricks = [0] * len(units)
    for trick in view.tricks_won:
        tricks[trick.unit] += 1
    said: list[list[str]] = [[] for _ in units]
    for point in sorted(view.points_taken, key=events.told_order):
        said[point.unit].append(notation.point_word(point.kind))
    taken = view.taken
    return tuple(
        Glance(
            u.index,
            u.names,
            cards.game_total(taken[u.index]),
            tuple(said[u.index]),
            tricks=tricks[u.index],
            side=u.side,
        )
        for u in units
    )


class _TablePage:
    """A table in play as one asker sees it. The public part's fields read as the page's
    own (``t.trick``, ``t.code``), so the template needs no second name for them."""

    public: PublicPage

    def __getattr__(self, name: str):
        if name == "public":  # not set yet: never recurse
            raise AttributeError(name)
        return getattr(self.public, name)

    @property
    def leader_words(self) -> str | None:
        """Who leads, as this asker reads it: "You lead." to the leader's own page."""
        leader = self.public.leader
        if leader is None:
            return None
        if not self.spectator and leader == self.seat:
            return "You lead."
        return f"{self.public.leader_name} leads."


@dataclass(frozen=True)
class TableView(_TablePage, SeatHand):
    """A seated person's page: the public part, and their own seat's view (hand, legal
    actions)."""

    public: PublicPage
    view: SeatView

    spectator = False

    @cached_property
    def seats(self) -> tuple[SeatInfo, ...]:
        return tuple(
            replace(info, is_you=True) if info.number == self.seat else info
            for info in self.public.seats
        )

    @cached_property
    def units(self) -> tuple[UnitInfo, ...]:
        return mark_yours(self.public.units, self.seat)

    @property
    def stood_in_for(self) -> bool:
        """A bot is playing this seat's turns while its person is away."""
        return self.public.seats[self.seat].stand_in

    @property
    def rotation(self) -> int:
        """The seat drawn nearest the page's owner, at the bottom of the table."""
        return self.seat

    @property
    def your_unit(self) -> int:
        """The page owner's side: its seats are marked as partners on the felt."""
        return self.view.unit_of[self.seat]

    @property
    def form_index(self) -> int | None:
        """What a move's form posts to catch staleness (``action_index``): only a seat
        whose turn it is has a form."""
        return self.action_index if self.my_turn else None


@dataclass(frozen=True)
class SpectatorView(_TablePage):
    """A playing or finished table as a spectator sees it: no seat, no hand, no legal moves.

    The template treats it as a TableView whose owner never has a turn."""

    public: PublicPage

    spectator = True
    my_turn = False
    bids = ()
    bid_choices = ()
    trump_choices = ()
    discard = None
    own_exchange = ()
    hand = ()
    form_index = None
    stood_in_for = False
    rotation = 0
    your_unit = None

    @property
    def view(self) -> PublicView:
        return self.public.view
