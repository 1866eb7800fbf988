"""The true state of one round under the house rules: the single-lap auction, then six
tricks, the first card led setting trump (seed 000). ``RoundState(setup, deal)`` gives a
``FullDeckRound`` (``game.engine.full_deck_round``, which registers itself here) where the
table plays the full deck: import the states from ``game.engine.state``, which loads both.

States are immutable: ``apply`` returns a new state and leaves the old one as it was,
so an illegal action changes nothing. Part of ``game.engine.state``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from . import rules
from .cards import HAND_SIZE, JOKER_1, SUIT_OF, cards_of
from .events import Event, Step
from .rules import PASS, DiscardRule, MatchScoring, Phase, RoundPoints, TrumpSuit
from .setup import Deal, IllegalAction, MatchSetup
from .view import PublicView, SeatView, public_view, view_for


@dataclass(frozen=True)
class RoundResult:
    """A finished round. A redealt one (every seat passed where the table redeals) scored
    nothing: no bidder, no bid, and the match scores as they were."""

    points: RoundPoints
    raw: tuple[int, ...]
    bidder_unit: int | None
    bid: int | None
    scoring: MatchScoring
    redeal: bool = False

    @property
    def match_after(self) -> tuple[int, ...]:
        return self.scoring.match_after

    @property
    def made(self) -> bool | None:
        return self.scoring.made

    @property
    def winner(self) -> int | None:
        return self.scoring.winner


NOBODY = -1
# what a full-deck round does between its auction and its tricks
PLAYING, NAMING_TRUMP, EXCHANGING = 0, 1, 2


class RoundState:
    """One round: the single-lap auction, then six tricks (the house rules).

    ``scores`` are the match scores before the round; the result settles them. A table
    with the full deck gets a ``FullDeckRound``, which adds naming trump and the exchange.
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
    # the house rules have no stage between the auction and the tricks, and no TrumpSuit
    stage = PLAYING
    trumps: TrumpSuit | None = None
    # what ``RoundState(setup, deal)`` builds at a full-deck table: ``FullDeckRound``, which
    # game.engine.full_deck_round registers here (game.engine.state imports both)
    full_deck_round: type[RoundState] | None = None

    def __new__(cls, setup: MatchSetup, *args, **kwargs):
        if cls is RoundState and not setup.rules.is_house:
            cls = RoundState.full_deck_round
        return object.__new__(cls)

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
        self.bidder = NOBODY
        self.auction_left = setup.players
        self.trump = -1
        self.trick: tuple[int, ...] = ()
        self.leader = NOBODY
        self.captured = (0,) * setup.units
        self.trick_winners: tuple[int, ...] = ()
        self.result: RoundResult | None = None
        self._legal_cards = -1

    # --- OpenSpiel-style API --------------------------------------------------------

    def current_player(self) -> int | None:
        return None if self.to_act == NOBODY else self.to_act

    def is_terminal(self) -> bool:
        return self.to_act == NOBODY

    def phase(self) -> Phase:
        if self.to_act == NOBODY:
            return Phase.OVER
        return Phase.AUCTION if self.auction_left else Phase.PLAY

    def in_auction(self) -> bool:
        return self.phase() is Phase.AUCTION

    def legal_actions(self) -> list[int]:
        """The one place legality is worked out: bids and pass in the auction, the four
        suits when naming trump, cards in play. In the exchange, the cards that may be
        among those discarded (the discard itself is one action: ``discard_rule()``)."""
        phase = self.phase()
        if phase is Phase.AUCTION:
            return list(self._legal_bids())
        if phase is Phase.PLAY:
            return cards_of(self.legal_mask())
        if phase is Phase.TRUMP:
            return list(rules.TRUMPS)
        if phase is Phase.EXCHANGE:
            return cards_of(self.discard_rule().may)
        return []

    def legal_mask(self) -> int:
        """The cards the seat to act may play (0 outside card play)."""
        if self._legal_cards < 0:
            if self.to_act == NOBODY or self.auction_left:  # not Phase.PLAY
                self._legal_cards = 0
            else:
                trick, seat = self.trick, self.to_act
                led = trick[0] if trick else -1
                self._legal_cards = rules.legal_cards(self.hands[seat], led, self.trump)
        return self._legal_cards

    def discard_rule(self) -> DiscardRule:
        """What the seat to act must discard (the exchange only)."""
        raise IllegalAction("nobody is discarding now")

    def apply(self, action: int, seat: int | None = None) -> RoundState:
        """The state after ``action``; raises IllegalAction and changes nothing if it is not legal.

        ``seat``, when given, must be the seat to act.
        """
        new = self._copy()
        new._advance(action, seat)
        return new

    def step(self, action: int, seat: int | None = None) -> Step:
        """``apply``, and the public events the move made (``game.engine.events``). Told
        from the public views before and after, on demand: ``apply``, the hot path of
        search and replay, pays nothing for them."""
        after = self.apply(action, seat)
        return Step(after, after.events()[len(self.events()) :])

    def events(self) -> tuple[Event, ...]:
        """Every public event of the round so far (``PublicView.events``)."""
        return self.public_view().events

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
        """Every legal action as one mask: bit ``a`` for action ``a`` (cards, pass, bids,
        trump suits; in the exchange, the cards that may be discarded)."""
        if self.auction_left and self.to_act != NOBODY:  # Phase.AUCTION
            return bid_mask(self._legal_bids())
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
        return None if self.auction_left or not self.high_bid else self.high_bid

    @property
    def bidder_seat(self) -> int | None:
        return None if self.auction_left or self.bidder == NOBODY else self.bidder

    @property
    def discards(self) -> tuple[int, ...]:
        """The cards each seat discarded."""
        return (0,) * self.setup.players

    @property
    def fills(self) -> tuple[int, ...]:
        """The cards each seat was dealt in a fill, or took from the pack."""
        return (0,) * self.setup.players

    @property
    def pack(self) -> tuple[int, ...]:
        """The undealt cards still in the pack, top first (empty for the house rules)."""
        return ()

    @property
    def redealt(self) -> bool:
        return self.result is not None and self.result.redeal

    def seated_history(self) -> list[tuple[int, int]]:
        """Every action so far as (seat, action): the auction clockwise from the dealer's
        left, then each trick from its leader."""
        players = self.setup.players
        first_bidder = (self.deal.dealer + 1) % players
        pairs = [((first_bidder + i) % players, a) for i, a in enumerate(self.history[:players])]
        return pairs + self._seated_plays(self.history[players:])

    def _seated_plays(self, plays: tuple[int, ...]) -> list[tuple[int, int]]:
        players = self.setup.players
        pairs = []
        leader = self.bidder
        for i, card in enumerate(plays):
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

    def _legal_bids(self) -> tuple[int, ...]:
        # the last seat must open when nobody has bid, where the table says so
        must_open = (
            self.auction_left == 1 and not self.high_bid and self.setup.rules.dealer_must_open
        )
        return self.setup.auction_table[self.high_bid][must_open]

    def _copy(self, cls: type = None) -> RoundState:
        new = object.__new__(cls or RoundState)
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
        to_act = self.to_act  # _check_turn, inline: this is the engine's hottest path
        if to_act == NOBODY:
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

    def _check_turn(self, action: int, seat: int | None) -> None:
        to_act = self.to_act
        if to_act == NOBODY:
            raise IllegalAction("the round is over")
        if action.__class__ is not int:
            raise IllegalAction(f"{action!r} is not an action")
        if seat is not None and seat != to_act:
            raise IllegalAction(f"not your turn: seat {to_act} is to act, not seat {seat}")

    def _apply_bid(self, action: int) -> None:
        seat = self.to_act
        if action not in self._legal_bids():
            raise IllegalAction(self._why_not_a_bid(action))
        self.history += (action,)
        if action != PASS:
            self.high_bid = rules.bid_amount(action)
            self.bidder = seat
        self.auction_left -= 1
        if self.auction_left:
            self.to_act = (seat + 1) % self.setup.players
        else:
            self._auction_over()

    def _auction_over(self) -> None:
        self.to_act = self.leader = self.bidder  # the auction winner leads

    def _why_not_a_bid(self, action: int) -> str:
        if action == PASS:
            return "the last seat must open the bidding when nobody has bid"
        low, high = self.setup.rules.bids
        if rules.is_bid(action) and not low <= rules.bid_amount(action) <= high:
            return f"a bid is {low} to {high} at this table, not {rules.bid_amount(action)}"
        if rules.is_bid(action):
            return (
                f"a bid must beat the high bid of {self.high_bid}: "
                f"{rules.bid_amount(action)} does not"
            )
        return f"{describe(action)} is not a bid or a pass: the auction is on"

    def _apply_play(self, action: int) -> None:
        seat = self.to_act
        hands = self.hands
        hand = hands[seat]
        trick = self.trick
        trump = self.trump
        if action < 0 or not self.legal_mask() >> action & 1:
            if action < 0 or not hand >> action & 1:
                raise IllegalAction(f"{describe(action)} is not in seat {seat}'s hand")
            raise IllegalAction(self._why_illegal(action))
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
        winner = (self.leader + self._trick_winner(trick)) % players
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
            self.leader = self.to_act = NOBODY
            self.result = self._score()

    def _trick_winner(self, trick: tuple[int, ...]) -> int:
        return rules.trick_winner(trick, self.trump)

    def _why_illegal(self, action: int) -> str:
        card = rules.action_code(action)
        trick, trump = self.trick, self.trump
        if not trick:
            return f"{card} may not open the round: a joker cannot set trump"
        led = trick[0]
        if SUIT_OF[led] == trump and led < JOKER_1:
            return f"{card} is not allowed: trump was led and you hold trump or a joker"
        return f"{card} is not allowed: follow the suit led, or play trump or a joker"

    def _score(self) -> RoundResult:
        setup = self.setup
        points = rules.round_points(
            trump=self.trump, dealt=self.deal.hands, captured=self.captured, unit_of=setup.unit_of
        )
        return self._settle(points)

    def _settle(self, points: RoundPoints) -> RoundResult:
        setup = self.setup
        raw = points.raw(setup.units)
        bidder_unit = setup.unit_of[self.bidder]
        scoring = rules.settle_round(
            scores=self.scores,
            raw=raw,
            bidder_unit=bidder_unit,
            bid=self.high_bid,
            target=setup.target,
            capped=setup.rules.non_bidders_capped,
        )
        return RoundResult(points, raw, bidder_unit, self.high_bid, scoring)


@cache
def bid_mask(legal: tuple[int, ...]) -> int:
    mask = 0
    for action in legal:
        mask |= 1 << action
    return mask


def describe(action: int) -> str:
    try:
        return rules.action_code(action)
    except (ValueError, TypeError):
        return repr(action)
