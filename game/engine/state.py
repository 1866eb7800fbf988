"""The true state of a round and of a match.

States are immutable: ``apply`` returns a new state and leaves the old one as it was,
so an illegal action changes nothing. The deal is the only chance event; a deal plus
its actions replays a round exactly.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from random import Random

from . import rules
from .cards import (
    HAND_SIZE,
    JOKER_1,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SUIT_OF,
    cards_of,
    functional_deck,
)
from .rules import PASS, MatchScoring, Phase, RoundPoints
from .view import PublicView, SeatView, public_view, view_for


class IllegalAction(ValueError):
    """An action the rules do not allow here; the state is unchanged."""

    index: int | None = None  # set by RoundState.replay: which of its actions


@dataclass(frozen=True)
class MatchSetup:
    """Who plays: the seat count, the scoring units (a partition of the seats) and the target."""

    players: int
    teams: tuple[tuple[int, ...], ...]
    target: int = rules.DEFAULT_TARGET
    unit_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    deck: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(
                f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {self.players!r}"
            )
        teams = tuple(tuple(unit) for unit in self.teams)
        seats = sorted(seat for unit in teams for seat in unit)
        if seats != list(range(self.players)) or any(not unit for unit in teams):
            raise ValueError(
                f"teams {self.teams!r} are not a partition of seats 0..{self.players - 1}"
            )
        if not isinstance(self.target, int) or self.target < 1:
            raise ValueError(f"the target must be a positive whole number, not {self.target!r}")
        unit_of = [0] * self.players
        for unit, members in enumerate(teams):
            for seat in members:
                unit_of[seat] = unit
        object.__setattr__(self, "teams", teams)
        object.__setattr__(self, "unit_of", tuple(unit_of))
        object.__setattr__(self, "deck", functional_deck(self.players))

    @property
    def units(self) -> int:
        return len(self.teams)

    @classmethod
    def cutthroat(cls, players: int, target: int = rules.DEFAULT_TARGET) -> MatchSetup:
        return cls(players, tuple((seat,) for seat in range(players)), target)

    @classmethod
    def partnerships(
        cls, players: int, units: int, target: int = rules.DEFAULT_TARGET
    ) -> MatchSetup:
        """Partners sit alternately: with 4 players and 2 units, seats 0,2 against 1,3."""
        if players % units:
            raise ValueError(f"{players} players do not split into {units} equal units")
        return cls(players, tuple(tuple(range(u, players, units)) for u in range(units)), target)

    @classmethod
    def layouts(cls, players: int) -> list[MatchSetup]:
        """The usual layouts at this size: cutthroat, then every split into equal units."""
        setups = [cls.cutthroat(players)]
        for units in range(2, players):
            if players % units == 0 and players // units >= 2:
                setups.append(cls.partnerships(players, units))
        return setups


@dataclass(frozen=True)
class Deal:
    """The chance event of a round: who dealt, each seat's six cards, the hidden rest."""

    dealer: int
    hands: tuple[int, ...]  # one card mask per seat
    hidden: int

    def check(self, setup: MatchSetup) -> None:
        if not 0 <= self.dealer < setup.players:
            raise ValueError(f"dealer {self.dealer} is not a seat")
        if len(self.hands) != setup.players:
            raise ValueError(f"{len(self.hands)} hands dealt for {setup.players} players")
        seen = self.hidden
        for seat, hand in enumerate(self.hands):
            if hand.bit_count() != HAND_SIZE:
                raise ValueError(f"seat {seat} holds {hand.bit_count()} cards, not {HAND_SIZE}")
            if seen & hand:
                raise ValueError("a card is dealt twice")
            seen |= hand
        if seen != setup.deck or self.hidden & ~setup.deck:
            raise ValueError(f"the hands and hidden cards are not the {setup.players}-player deck")


def shuffle_deal(setup: MatchSetup, dealer: int, rng: Random) -> Deal:
    cards = cards_of(setup.deck)
    rng.shuffle(cards)
    hands = []
    for seat in range(setup.players):
        hand = 0
        for c in cards[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]:
            hand |= 1 << c
        hands.append(hand)
    hidden = 0
    for c in cards[setup.players * HAND_SIZE :]:
        hidden |= 1 << c
    return Deal(dealer, tuple(hands), hidden)


@dataclass(frozen=True)
class RoundResult:
    points: RoundPoints
    raw: tuple[int, ...]
    bidder_unit: int
    bid: int
    scoring: MatchScoring

    @property
    def match_after(self) -> tuple[int, ...]:
        return self.scoring.match_after

    @property
    def made(self) -> bool:
        return self.scoring.made

    @property
    def winner(self) -> int | None:
        return self.scoring.winner


_NOBODY = -1


class RoundState:
    """One round: the single-lap auction, then six tricks.

    ``scores`` are the match scores before the round; the result settles them.
    """

    __slots__ = (
        "setup",
        "deal",
        "scores",
        "history",
        "hands",
        "to_act",
        "high_bid",
        "bidder",
        "auction_left",
        "trump",
        "trick",
        "leader",
        "captured",
        "trick_winners",
        "result",
        "_legal_cards",  # legal_mask() once worked out; -1 until then
    )

    def __init__(self, setup: MatchSetup, deal: Deal, scores: tuple[int, ...] | None = None):
        deal.check(setup)
        self.setup = setup
        self.deal = deal
        self.scores = tuple(scores) if scores is not None else (0,) * setup.units
        if len(self.scores) != setup.units:
            raise ValueError(f"{len(self.scores)} scores for {setup.units} units")
        self.history: tuple[int, ...] = ()
        self.hands = deal.hands
        self.to_act = (deal.dealer + 1) % setup.players  # the dealer's left bids first
        self.high_bid = 0
        self.bidder = _NOBODY
        self.auction_left = setup.players
        self.trump = -1
        self.trick: tuple[int, ...] = ()
        self.leader = _NOBODY
        self.captured = (0,) * setup.units
        self.trick_winners: tuple[int, ...] = ()
        self.result: RoundResult | None = None
        self._legal_cards = -1

    # --- OpenSpiel-style API --------------------------------------------------------

    def current_player(self) -> int | None:
        return None if self.to_act == _NOBODY else self.to_act

    def is_terminal(self) -> bool:
        return self.to_act == _NOBODY

    def phase(self) -> Phase:
        if self.to_act == _NOBODY:
            return Phase.OVER
        return Phase.AUCTION if self.auction_left else Phase.PLAY

    def in_auction(self) -> bool:
        return self.phase() is Phase.AUCTION

    def legal_actions(self) -> list[int]:
        """The one place legality is worked out: bids and pass in the auction, cards in play."""
        phase = self.phase()
        if phase is Phase.AUCTION:
            return list(rules.legal_bids(self.high_bid, self._must_open()))
        if phase is Phase.PLAY:
            return cards_of(self.legal_mask())
        return []

    def legal_mask(self) -> int:
        """The cards the seat to act may play (0 in the auction or at the end)."""
        if self._legal_cards < 0:
            if self.to_act == _NOBODY or self.auction_left:  # not Phase.PLAY
                self._legal_cards = 0
            else:
                trick, seat = self.trick, self.to_act
                led = trick[0] if trick else -1
                self._legal_cards = rules.legal_cards(self.hands[seat], led, self.trump)
        return self._legal_cards

    def apply(self, action: int, seat: int | None = None) -> RoundState:
        """The state after ``action``; raises IllegalAction and changes nothing if it is not legal.

        ``seat``, when given, must be the seat to act.
        """
        new = self._copy()
        new._advance(action, seat)
        return new

    def replay(
        self,
        actions: Iterable[tuple[int | None, int]],
        legal_log: list[int] | None = None,
    ) -> RoundState:
        """The state after every ``(seat, action)`` in turn, moved forward on one private
        copy instead of a new state per step (what reading a long record wants).

        ``legal_log`` receives, before each action, the mask of the actions legal then
        (``legal_action_mask``). An illegal action raises IllegalAction with ``index``, its
        place in ``actions``.
        """
        state = self._copy()
        for index, (seat, action) in enumerate(actions):
            if legal_log is not None:
                legal_log.append(state.legal_action_mask())
            try:
                state._advance(action, seat)
            except IllegalAction as error:
                error.index = index
                raise
        return state

    def legal_action_mask(self) -> int:
        """Every legal action as one mask: bit ``a`` for action ``a`` (cards, pass, bids)."""
        if self.auction_left and self.to_act != _NOBODY:  # Phase.AUCTION
            return _bid_mask(self.high_bid, self._must_open())
        return self.legal_mask()

    def view_for(self, seat: int) -> SeatView:
        return view_for(self, seat)

    def public_view(self) -> PublicView:
        return public_view(self)

    # --- Derived facts --------------------------------------------------------------

    @property
    def dealer(self) -> int:
        return self.deal.dealer

    @property
    def bid(self) -> int | None:
        return None if self.auction_left else self.high_bid

    @property
    def bidder_seat(self) -> int | None:
        return None if self.auction_left or self.bidder == _NOBODY else self.bidder

    def seated_history(self) -> list[tuple[int, int]]:
        """Every action so far as (seat, action): the auction clockwise from the dealer's
        left, then each trick from its leader."""
        players = self.setup.players
        first_bidder = (self.deal.dealer + 1) % players
        pairs = [((first_bidder + i) % players, a) for i, a in enumerate(self.history[:players])]
        leader = self.bidder
        for i, card in enumerate(self.history[players:]):
            trick, position = divmod(i, players)
            if position == 0 and trick:
                leader = self.trick_winners[trick - 1]
            pairs.append(((leader + position) % players, card))
        return pairs

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RoundState):
            return NotImplemented
        return (self.setup, self.deal, self.scores, self.history) == (
            other.setup,
            other.deal,
            other.scores,
            other.history,
        )

    def __hash__(self) -> int:
        return hash((self.setup, self.deal, self.scores, self.history))

    def __repr__(self) -> str:
        actions, to_act = len(self.history), self.current_player()
        return f"<RoundState dealer={self.dealer} actions={actions} to_act={to_act}>"

    # --- Transitions ----------------------------------------------------------------

    def _must_open(self) -> bool:
        return self.auction_left == 1 and not self.high_bid

    def _copy(self) -> RoundState:
        new = object.__new__(RoundState)
        new.setup = self.setup
        new.deal = self.deal
        new.scores = self.scores
        new.history = self.history
        new.hands = self.hands
        new.to_act = self.to_act
        new.high_bid = self.high_bid
        new.bidder = self.bidder
        new.auction_left = self.auction_left
        new.trump = self.trump
        new.trick = self.trick
        new.leader = self.leader
        new.captured = self.captured
        new.trick_winners = self.trick_winners
        new.result = None
        new._legal_cards = self._legal_cards
        return new

    def _advance(self, action: int, seat: int | None) -> None:
        """Apply ``action`` to this (private) state in place; raises before changing anything."""
        to_act = self.to_act
        if to_act == _NOBODY:
            raise IllegalAction("the round is over")
        if action.__class__ is not int:
            raise IllegalAction(f"{action!r} is not an action")
        if seat is not None and seat != to_act:
            raise IllegalAction(f"not your turn: seat {to_act} is to act, not seat {seat}")
        if self.auction_left:  # Phase.AUCTION: the round is not over (checked above)
            self._apply_bid(action)
        else:
            self._apply_play(action)
        self._legal_cards = -1  # a new position: its legal cards are worked out on demand

    def _apply_bid(self, action: int) -> None:
        seat = self.to_act
        if action not in rules.legal_bids(self.high_bid, self._must_open()):
            raise IllegalAction(self._why_not_a_bid(action))
        self.history += (action,)
        if action != PASS:
            self.high_bid = rules.bid_amount(action)
            self.bidder = seat
        self.auction_left -= 1
        if self.auction_left:
            self.to_act = (seat + 1) % self.setup.players
        else:
            self.to_act = self.leader = self.bidder  # the auction winner leads

    def _why_not_a_bid(self, action: int) -> str:
        if action == PASS:
            return "the last seat must open the bidding when nobody has bid"
        if rules.is_bid(action):
            return (
                f"a bid must beat the high bid of {self.high_bid}: "
                f"{rules.bid_amount(action)} does not"
            )
        return f"{_describe(action)} is not a bid or a pass: the auction is on"

    def _apply_play(self, action: int) -> None:
        seat = self.to_act
        hands = self.hands
        hand = hands[seat]
        trick = self.trick
        trump = self.trump
        if action < 0 or not self.legal_mask() >> action & 1:
            if action < 0 or not hand >> action & 1:
                raise IllegalAction(f"{_describe(action)} is not in seat {seat}'s hand")
            raise IllegalAction(_why_illegal(action, trick, trump))
        self.history += (action,)
        self.hands = hands[:seat] + (hand & ~(1 << action),) + hands[seat + 1 :]
        if trump < 0:
            trump = self.trump = SUIT_OF[action]  # the first card led sets trump
        players = self.setup.players
        trick = trick + (action,)
        if len(trick) < players:
            self.trick = trick
            self.to_act = (seat + 1) % players
            return
        winner = (self.leader + rules.trick_winner(trick, trump)) % players
        unit = self.setup.unit_of[winner]
        taken = 0
        for c in trick:
            taken |= 1 << c
        captured = self.captured
        self.captured = captured[:unit] + (captured[unit] | taken,) + captured[unit + 1 :]
        self.trick_winners += (winner,)
        self.trick = ()
        if len(self.trick_winners) < HAND_SIZE:
            self.leader = self.to_act = winner
        else:
            self.leader = self.to_act = _NOBODY
            self.result = self._score()

    def _score(self) -> RoundResult:
        setup = self.setup
        points = rules.round_points(
            trump=self.trump, dealt=self.deal.hands, captured=self.captured, unit_of=setup.unit_of
        )
        raw = points.raw(setup.units)
        bidder_unit = setup.unit_of[self.bidder]
        scoring = rules.settle_round(
            scores=self.scores,
            raw=raw,
            bidder_unit=bidder_unit,
            bid=self.high_bid,
            target=setup.target,
        )
        return RoundResult(points, raw, bidder_unit, self.high_bid, scoring)


@cache
def _bid_mask(high_bid: int, must_open: bool) -> int:
    mask = 0
    for action in rules.legal_bids(high_bid, must_open):
        mask |= 1 << action
    return mask


def _describe(action: int) -> str:
    try:
        return rules.action_code(action)
    except (ValueError, TypeError):
        return repr(action)


def _why_illegal(action: int, trick: tuple[int, ...], trump: int) -> str:
    card = rules.action_code(action)
    if not trick:
        return f"{card} may not open the round: a joker cannot set trump"
    led = trick[0]
    if SUIT_OF[led] == trump and led < JOKER_1:
        return f"{card} is not allowed: trump was led and you hold trump or a joker"
    return f"{card} is not allowed: follow the suit led, or play trump or a joker"


class MatchState:
    """A match: rounds in order, each dealt by the next seat clockwise, until a bidder wins.

    Between rounds (and before the first) the match waits for a deal: ``needs_deal()``.
    """

    __slots__ = ("setup", "first_dealer", "rounds")

    def __init__(
        self, setup: MatchSetup, first_dealer: int = 0, rounds: tuple[RoundState, ...] = ()
    ):
        if not 0 <= first_dealer < setup.players:
            raise ValueError(f"dealer {first_dealer} is not a seat")
        self.setup = setup
        self.first_dealer = first_dealer
        self.rounds = tuple(rounds)

    @property
    def round(self) -> RoundState | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def scores(self) -> tuple[int, ...]:
        last = self.round
        if last is None:
            return (0,) * self.setup.units
        return last.result.match_after if last.result else last.scores

    @property
    def winner(self) -> int | None:
        last = self.round
        return last.result.winner if last is not None and last.result else None

    def is_terminal(self) -> bool:
        return self.winner is not None

    def needs_deal(self) -> bool:
        return not self.is_terminal() and (self.round is None or self.round.is_terminal())

    def next_dealer(self) -> int:
        last = self.round
        return self.first_dealer if last is None else (last.dealer + 1) % self.setup.players

    def deal_round(self, rng: Random) -> MatchState:
        return self.start_round(shuffle_deal(self.setup, self.next_dealer(), rng))

    def start_round(self, deal: Deal) -> MatchState:
        if self.is_terminal():
            raise IllegalAction("the match is over")
        if not self.needs_deal():
            raise IllegalAction("the current round is not finished")
        deal.check(self.setup)
        if deal.dealer != self.next_dealer():
            raise IllegalAction(
                f"seat {self.next_dealer()} deals this round, not seat {deal.dealer}"
            )
        return MatchState(
            self.setup,
            self.first_dealer,
            self.rounds + (RoundState(self.setup, deal, self.scores),),
        )

    def current_player(self) -> int | None:
        return None if self.needs_deal() or self.is_terminal() else self.round.current_player()

    def legal_actions(self) -> list[int]:
        return [] if self.current_player() is None else self.round.legal_actions()

    def apply(self, action: int, seat: int | None = None) -> MatchState:
        if self.is_terminal():
            raise IllegalAction("the match is over")
        if self.round is None:
            raise IllegalAction("no round has been dealt")
        played = self.round.apply(action, seat)
        return MatchState(self.setup, self.first_dealer, self.rounds[:-1] + (played,))

    def view_for(self, seat: int) -> SeatView:
        if self.round is None:
            raise IllegalAction("no round has been dealt")
        return self.round.view_for(seat)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MatchState):
            return NotImplemented
        return (self.setup, self.first_dealer, self.rounds) == (
            other.setup,
            other.first_dealer,
            other.rounds,
        )

    def __hash__(self) -> int:
        return hash((self.setup, self.first_dealer, self.rounds))

    def __repr__(self) -> str:
        return f"<MatchState rounds={len(self.rounds)} scores={self.scores} winner={self.winner}>"
