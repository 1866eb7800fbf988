"""Page models: what a table page, a lobby or a round's replay shows, in the site's words.

Pure: built from table and seat rows already read and from the engine's views, never
from a state. A seat's page is the table's public part (``PublicPage``, the same for
every seat and spectator, built once per table version) plus that seat's own ``SeatView``,
so it cannot show another seat's cards.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from functools import cached_property

from cachetools import LRUCache, cached
from django.conf import settings
from django.urls import reverse

from game.bots import OFFERED_LEVELS
from game.card_chooser import CardChooser, card_chooser
from game.engine import cards, notation, rules, variants
from game.engine.state import MatchState, RoundState
from game.engine.view import PublicView, SeatView
from game.live.turns import abandoned
from game.models import Seat, Table


@dataclass(frozen=True)
class SeatInfo:
    number: int
    name: str
    bot_level: str | None
    unit: int
    is_turn: bool
    is_dealer: bool
    stand_in: bool = False  # a bot is playing for this person while they are away
    is_you: bool = False
    said: str | None = None  # what the seat said in this round's auction, last
    cards_left: int = 0
    side: str | None = None  # its unit's letter ("A"), where some unit has partners


@dataclass(frozen=True)
class UnitInfo:
    index: int
    names: str
    score: int
    members: tuple[int, ...]
    is_yours: bool = False
    side: str | None = None  # the unit's letter ("A"), where some unit has partners


@dataclass(frozen=True)
class Play:
    seat: int
    name: str
    code: str


@dataclass(frozen=True)
class Trick:
    number: int  # from 0
    plays: tuple[Play, ...]
    winner: str | None  # None while the trick is being played


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


# how a point went to its side (``rules.ScoringCard.by``), in the page's words
POINT_VERBS = {"capture": "taken by", "deal": "dealt to", "play": "played by"}


@dataclass(frozen=True)
class PointLine:
    label: str  # "High", "Low", "Jack", "Joker", "Game"
    card: str | None  # the card that scored, where there is one
    unit: int | None
    names: str  # who took it, or "nobody"
    verb: str = "taken by"  # how it went (``POINT_VERBS``)
    side: str | None = None  # the unit's letter, where some unit has partners


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
    side: str | None = None  # the unit's letter, where some unit has partners


@dataclass(frozen=True)
class RoundSummary:
    number: int
    bidder_name: str | None  # None in a redealt round
    bid: int | None
    made: bool | None
    trump: str | None
    points: tuple[PointLine, ...]
    scores: tuple[ScoreLine, ...]
    redeal: bool = False  # everyone passed: the same dealer deals again
    dealer_name: str = ""


def bid_codes(legal: tuple[str, ...]) -> tuple[str, ...]:
    """The auction's buttons among a seat's legal action codes: pass and the bids."""
    return tuple(code for code in legal if code == "pass" or code.startswith("bid:"))


def unit_names(names: dict[int, str], members) -> str:
    return " & ".join(names[s] for s in members)


def side_letters(teams) -> tuple[str, ...] | None:
    """Each unit's letter, "A" on, where some unit has partners (the seats show it);
    None at a cutthroat table, where a seat's name says its side."""
    if all(len(members) == 1 for members in teams):
        return None
    return tuple(chr(ord("A") + unit) for unit in range(len(teams)))


def round_summary(number: int, view: PublicView, names: dict[int, str]) -> RoundSummary:
    """A finished round's points and score changes, from its public view: once a round is
    over every card still held has been played, so all of it is public (a discard never
    is: it scores for nobody)."""
    result = view.result
    if result.redeal:
        return RoundSummary(
            number=number,
            bidder_name=None,
            bid=None,
            made=None,
            trump=None,
            points=(),
            scores=(),
            redeal=True,
            dealer_name=names[view.dealer],
        )

    def who(unit: int | None) -> str:
        return "nobody" if unit is None else unit_names(names, view.teams[unit])

    letters = side_letters(view.teams)

    def letter(unit: int | None) -> str | None:
        return None if letters is None or unit is None else letters[unit]

    taken = view.taken
    if view.rules.is_house:
        scored = rules.scoring_cards(
            trump=view.trump, in_play=view.played, captured=taken, points=result.points
        )
        labels = [notation.point_label(p.kind) for p in scored]
    else:  # named as the table names them (``notation.point_names``)
        scored = full_deck_points(view, result.points)
        labels = notation.point_names(view.rules)
    lines = tuple(
        PointLine(
            label,
            notation.card(p.card),
            p.unit,
            who(p.unit),
            POINT_VERBS[p.by],
            letter(p.unit),
        )
        for label, p in zip(labels, scored, strict=True)
    )
    gains = rules.score_gains(
        scores=view.scores,
        raw=result.raw,
        after=result.match_after,
        bidder_unit=result.bidder_unit,
        captured=taken,
        target=view.target,
    )
    scores = tuple(
        ScoreLine(
            unit=g.unit,
            names=unit_names(names, view.teams[g.unit]),
            before=g.before,
            raw=g.raw,
            after=g.after,
            game_total=g.game_total,
            bidder=g.bidder,
            capped=g.capped and view.rules.non_bidders_capped,
            side=letter(g.unit),
        )
        for g in gains
    )
    return RoundSummary(
        number=number,
        bidder_name=names[view.bidder],
        bid=result.bid,
        made=result.made,
        trump=notation.suit_letter(view.trump),
        points=lines,
        scores=scores,
        dealer_name=names[view.dealer],
    )


def full_deck_points(view: PublicView, points: rules.RoundPoints) -> tuple[rules.ScoringCard, ...]:
    """A full-deck round's points in the table's order (``rules.scoring_cards_full``)."""
    return rules.scoring_cards_full(
        names=view.rules.points,
        trumps=view.trumps,
        ace_two=view.rules.high_low == "ace_two",
        jokers=view.rules.jokers,
        played=view.played,
        captured=view.taken,
        points=points,
    )


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
    # the public partials once drawn, by name (game.live.parts)
    drawn: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

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
    *, table: Table, seat_rows: list[Seat], match: MatchState, rematch_code: str | None
) -> PublicPage:
    view = match.round.public_view()
    names = {s.number: s.display_name for s in seat_rows}
    to_act = view.to_act
    unit_of = view.unit_of
    said = {s: notation.said(a) for s, a in view.auction}
    played_by = [0] * view.players
    for s, _ in view.plays:
        played_by[s] += 1
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
            cards_left=view.rules.deal
            + view.fill_counts[s.number]
            - view.discard_counts[s.number]
            - played_by[s.number],
        )
        for s in seat_rows
    )
    sides = units(view, names, match.scores)
    letters = side_letters(view.teams)
    if letters is not None:
        seats = tuple(replace(seat, side=letters[seat.unit]) for seat in seats)
    done = len(view.trick_winners)
    last_trick: tuple[Play, ...] = ()
    last_winner = None
    if done:
        last_trick = plays(view.trick(done - 1), names)
        last_winner = names[view.trick_winners[-1]]
    leader = None if view.result is not None else view.leader
    finished = [r for r in match.rounds if r.is_terminal()]
    score_by_round = tuple(
        (number, r.result.match_after)
        for number, r in enumerate(finished, start=1)
        if not r.result.redeal
    )
    previous = None
    if finished:
        _, previous = _summary_kept(len(finished) - 1, finished[-1], names)
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
    """How many cards each seat discarded and was dealt in the exchange: counts only, for
    everyone (the cards themselves are the seat's own)."""
    notes = []
    for seat in range(view.players):
        thrown, got = view.discard_counts[seat], view.fill_counts[seat]
        if not thrown and not got:
            continue
        if seat == view.dealer and got:
            note = f"{names[seat]} took {got} card{'s' * (got != 1)} from the pack"
            notes.append(note + (f" and discarded {thrown}" if thrown else ""))
        else:
            note = f"{names[seat]} discarded {thrown}"
            notes.append(note + (f", was dealt {got}" if got else ""))
    return tuple(notes)


# The round just finished, summed up once: every move of the next round shows it again.
# Kept by the round itself (an immutable state, known by its id: the entry holds the state,
# so no other object can take that id while it is kept) and the seats' names.
SUMMARIES_KEPT = 1024
_SUMMARIES: LRUCache[tuple, tuple[RoundState, RoundSummary]] = LRUCache(SUMMARIES_KEPT)
_SUMMARIES_LOCK = threading.Lock()  # a cachetools cache is not thread-safe


@cached(
    _SUMMARIES,
    key=lambda number, state, names: (id(state), number, tuple(names.items())),
    lock=_SUMMARIES_LOCK,
)
def _summary_kept(
    number: int, state: RoundState, names: dict[int, str]
) -> tuple[RoundState, RoundSummary]:
    return state, round_summary(number, state.public_view(), names)


def _shown_trick(view: PublicView, finished, names) -> tuple[tuple[Play, ...], int | None, str]:
    """The trick in the middle: the current one, else the one just finished (this round's
    or, before the next round's first bid, the last round's last)."""
    rounds = len(finished)
    if view.current_trick:
        return plays(view.current_trick, names), None, ""
    if view.trick_winners:
        done = len(view.trick_winners)
        key = f"{rounds}-{done}"
        return plays(view.trick(done - 1), names), view.trick_winners[-1], key
    if finished and not view.auction:
        last = finished[-1].public_view()
        done = len(last.trick_winners)
        if not done:  # a redealt round: no card was played
            return (), None, ""
        key = f"{rounds - 1}-{done}"
        return plays(last.trick(done - 1), names), last.trick_winners[-1], key
    return (), None, ""


def _glance(view: PublicView, units: tuple[UnitInfo, ...]) -> tuple[Glance, ...]:
    """Each side's round so far: its tricks, its game count and the points already
    decided."""
    if view.trump is None:
        return ()
    tricks = [0] * len(units)
    unit_of = view.unit_of
    for winner in view.trick_winners:
        tricks[unit_of[winner]] += 1
    if view.result is not None and not view.result.redeal:
        glance = _glance_scored(view, units)  # the round is over: every point is known
    elif view.rules.is_house:
        glance = _glance_house(view, units)
    else:
        glance = _glance_full(view, units)
    return tuple(
        replace(side, tricks=tricks[side.unit], side=units[side.unit].side) for side in glance
    )


def _glance_scored(view: PublicView, units: tuple[UnitInfo, ...]) -> tuple[Glance, ...]:
    """A finished round's glance: every point as the round scored it, Game included, so
    each side's line agrees with the round's summary."""
    said = [[] for _ in units]
    for name, unit in view.result.points.by_name().items():
        for one in unit if isinstance(unit, list) else [unit]:
            if one is not None:
                said[one].append(notation.POINT_NAMES[name])
    return tuple(
        Glance(u.index, u.names, cards.game_total(view.taken[u.index]), tuple(said[u.index]))
        for u in units
    )


def _glance_house(view: PublicView, units: tuple[UnitInfo, ...]) -> tuple[Glance, ...]:
    decided = rules.points_decided(
        trump=view.trump,
        deck=view.deck,
        captured=view.taken,
        plays=view.plays,
        unit_of=view.unit_of,
    )
    return tuple(
        Glance(
            u.index,
            u.names,
            cards.game_total(view.taken[u.index]),
            tuple(notation.point_label(kind) for kind in decided[u.index]),
        )
        for u in units
    )


def _glance_full(view: PublicView, units: tuple[UnitInfo, ...]) -> tuple[Glance, ...]:
    """A full-deck round's glance: the points its finished tricks have settled (a point
    card captured, or the ace or two of trumps played where they score to their player)."""
    table = view.rules
    done = view.plays[: len(view.trick_winners) * view.players]
    settled = rules.round_points_full(
        names=tuple(name for name in table.points if name != "game"),
        trumps=view.trumps,
        ace_two=table.high_low == "ace_two",
        plays=done,
        captured=view.taken,
        unit_of=view.unit_of,
    ).by_name()
    said = [[] for _ in units]
    for name, unit in settled.items():
        label = notation.POINT_NAMES[name]
        for one in unit if isinstance(unit, list) else [unit]:
            if one is not None:
                said[one].append(label)
    return tuple(
        Glance(u.index, u.names, cards.game_total(view.taken[u.index]), tuple(said[u.index]))
        for u in units
    )


# --- Pieces of any view, with each seat named as the page says it --------------------------


def plays(seq, names: dict[int, str]) -> tuple[Play, ...]:
    """(seat, card) pairs as the page shows them."""
    return tuple(Play(s, names[s], notation.card(c)) for s, c in seq)


def tricks(view: PublicView, names: dict[int, str]) -> tuple[Trick, ...]:
    """The round's finished tricks with their winners, then the current one if begun."""
    done = tuple(
        Trick(number=t, plays=plays(view.trick(t), names), winner=names[winner])
        for t, winner in enumerate(view.trick_winners)
    )
    if not view.current_trick:
        return done
    return (*done, Trick(len(done), plays(view.current_trick, names), None))


def units(view: PublicView, names: dict[int, str], scores) -> tuple[UnitInfo, ...]:
    letters = side_letters(view.teams)
    return tuple(
        UnitInfo(
            u,
            unit_names(names, members),
            scores[u],
            members,
            side=None if letters is None else letters[u],
        )
        for u, members in enumerate(view.teams)
    )


def trump_words(view: PublicView) -> tuple[str | None, str | None]:
    """Trump's suit letter and name, once the opening lead has set it."""
    if view.trump is None:
        return None, None
    return notation.suit_letter(view.trump), notation.suit_name(view.trump)


def bid_label(code: str) -> str:
    """A bid button's words: ``Pass``, ``Bid 3``."""
    return notation.said(notation.parse_action(code)).capitalize()


def mark_yours(units: tuple[UnitInfo, ...], seat: int) -> tuple[UnitInfo, ...]:
    return tuple(replace(unit, is_yours=True) if seat in unit.members else unit for unit in units)


def auction(view: PublicView, names: dict[int, str]) -> tuple[tuple[str, str], ...]:
    return tuple((names[s], notation.said(a)) for s, a in view.auction)


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


class SeatHand:
    """What a seat's own view adds to a page, for any page holding it as ``view``: the
    hand, the legal actions, the bid buttons. The trainer's positions share it."""

    view: SeatView

    @property
    def seat(self) -> int:
        return self.view.seat

    @cached_property
    def legal(self) -> tuple[str, ...]:
        """This seat's legal action codes (empty when not its turn)."""
        return tuple(notation.action(a) for a in self.view.legal)

    @property
    def my_turn(self) -> bool:
        return bool(self.view.legal)

    @cached_property
    def hand(self) -> tuple[tuple[str, bool], ...]:
        """(card code, playable)."""
        legal = set(self.view.legal)
        return tuple((notation.card(c), c in legal) for c in self.view.hand_cards)

    @property
    def bids(self) -> tuple[str, ...]:
        return bid_codes(self.legal)

    @property
    def bid_choices(self) -> tuple[tuple[str, str], ...]:
        """(code, words) for each bid button."""
        return tuple((code, bid_label(code)) for code in self.bids)

    @cached_property
    def trump_choices(self) -> tuple[tuple[str, str, str], ...]:
        """(code, suit name, suit letter) for each suit the bidder may name, when naming."""
        return tuple(
            (
                notation.action(a),
                notation.suit_name(rules.named_suit(a)),
                notation.suit_letter(rules.named_suit(a)),
            )
            for a in self.view.legal
            if rules.is_trump_action(a)
        )

    @cached_property
    def discard(self) -> CardChooser | None:
        """The discard this seat must make now, as the cards to tap, or None."""
        rule = self.view.discard_rule
        if rule is None:
            return None
        return card_chooser(rule, self.view.hand)

    @cached_property
    def own_exchange(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """What this seat alone may see of its exchange: (words, card codes)."""
        view = self.view
        shown = []
        if view.fill:
            took = view.seat == view.dealer and view.rules.exchange != "discard_to_six"
            shown.append(
                ("The pack you took" if took else "Dealt to you", notation.cards(view.fill))
            )
        if view.discard:
            shown.append(("You discarded", notation.cards(view.discard)))
        return tuple(shown)


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


# --- Hand history ---------------------------------------------------------------------


@dataclass(frozen=True)
class RoundReplay:
    number: int
    dealer: str
    house: bool  # the house rules: every dealt card is played, so hands show as dealt
    hands: tuple[tuple[str, tuple[str, ...]], ...]  # (seat name, dealt cards)
    auction: tuple[tuple[str, str], ...]
    tricks: tuple[Trick, ...]
    summary: RoundSummary


def round_replay(*, match: MatchState, number: int, names: dict[int, str]) -> RoundReplay:
    """A finished round laid out trick by trick; every card of it is public by now."""
    state = match.rounds[number]
    view = state.public_view()
    if view.rules.is_house:
        hands = tuple((names[s], notation.cards(hand)) for s, hand in enumerate(state.deal.hands))
    else:  # a discard is never shown: each seat's cards as it played them
        held = [0] * view.players
        for seat, card in view.plays:
            held[seat] |= 1 << card
        hands = tuple((names[s], notation.cards(hand)) for s, hand in enumerate(held) if hand)
    return RoundReplay(
        number=number,
        dealer=names[view.dealer],
        house=view.rules.is_house,
        hands=hands,
        auction=auction(view, names),
        tricks=tricks(view, names),
        summary=round_summary(number, view, names),
    )


# --- Tables with friends: the lobby ---------------------------------------------------------


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
    rules_lines: tuple[str, ...] = ()  # the game the table will play, at a glance
    rules_anchor: str = "house"

    @property
    def empty(self) -> int:
        return sum(1 for seat in self.seats if seat.is_empty)

    @property
    def ready(self) -> bool:
        return not self.empty

    @property
    def seats_words(self) -> str:
        """How full the table is, for the lobby's status line."""
        if self.ready:
            if self.is_host:
                return "Every seat is taken: start the match when you are ready."
            return f"Every seat is taken: waiting for {self.host_name} to start the match."
        verb = "is" if self.empty == 1 else "are"
        return f"Waiting for players: {self.empty} of {self.players} seats {verb} empty."

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


def lobby_view(*, table: Table, seat_rows: list[Seat], your_seat: int | None, user_id) -> LobbyView:
    rows = {s.number: s for s in seat_rows}
    table_rules = replace(variants.from_record(table.rules), target=table.target)
    letters = _team_letters(table.teams)
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
        is_host=user_id is not None and user_id == table.host_id,
        signed_in=user_id is not None,
        bot_levels=OFFERED_LEVELS,
        rules_lines=notation.rules_summary(table_rules),
        rules_anchor=table_rules.preset,
    )
