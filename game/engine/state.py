"""The true state of a round and of a match.

States are immutable: ``apply`` returns a new state and leaves the old one as it was,
so an illegal action changes nothing. The deal is the only chance event; a deal plus
its actions replays a round exactly.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from random import Random
from typing import NamedTuple

from . import rules
from .cards import (
    HAND_SIZE,
    JOKER_1,
    SUIT_OF,
    cards_of,
    full_deck,
    functional_deck,
    mask_of,
)
from .rules import PASS, DiscardRule, MatchScoring, Phase, RoundPoints, TrumpSuit
from .variants import HOUSE, Rules
from .view import PublicView, SeatView, public_view, view_for


class IllegalAction(ValueError):
    """An action the rules do not allow here; the state is unchanged."""

    index: int | None = None  # set by RoundState.replay: which of its actions


@dataclass(frozen=True)
class MatchSetup:
    """Who plays and by which rules: the seat count, the scoring units (a partition of the
    seats), the target and the table's ``Rules`` (the house rules unless told)."""

    players: int
    teams: tuple[tuple[int, ...], ...]
    target: int | None = None  # the rules' target unless given
    rules: Rules = HOUSE
    unit_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    deck: int = field(init=False, repr=False, compare=False)
    # the auction's legal actions by the high bid and whether the last seat must open,
    # worked out once: the auction reads them at every bid
    auction_table: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        table = self.rules
        if not isinstance(self.players, int) or not table.allows_players(self.players):
            counts = table.players
            raise ValueError(
                f"players must be {counts[0]} to {counts[-1]}, not {self.players!r}"
                if counts == tuple(range(counts[0], counts[-1] + 1)) and len(counts) > 1
                else f"{table.preset} is played by {', '.join(map(str, counts))}, "
                f"not {self.players!r}"
            )
        teams = tuple(tuple(unit) for unit in self.teams)
        seats = sorted(seat for unit in teams for seat in unit)
        if seats != list(range(self.players)) or any(not unit for unit in teams):
            raise ValueError(
                f"teams {self.teams!r} are not a partition of seats 0..{self.players - 1}"
            )
        if not table.allows_layout(self.players, teams):
            raise ValueError(
                f"teams {self.teams!r}: {table.preset} plays {table.describe_layouts(self.players)}"
            )
        target = table.target if self.target is None else self.target
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            raise ValueError(f"the target must be a positive whole number, not {target!r}")
        if target != table.target:
            table = replace(table, target=target)
        unit_of = [0] * self.players
        for unit, members in enumerate(teams):
            for seat in members:
                unit_of[seat] = unit
        object.__setattr__(self, "teams", teams)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "rules", table)
        object.__setattr__(self, "unit_of", tuple(unit_of))
        deck = functional_deck(self.players) if table.is_house else full_deck(table.jokers)
        object.__setattr__(self, "deck", deck)
        auction = tuple(
            (rules.legal_bids(high, False, table.bids), rules.legal_bids(high, True, table.bids))
            for high in range(table.bids[1] + 1)
        )
        object.__setattr__(self, "auction_table", auction)

    @property
    def units(self) -> int:
        return len(self.teams)

    @classmethod
    def cutthroat(cls, players: int, target: int | None = None, rules: Rules = HOUSE) -> MatchSetup:
        return cls(players, tuple((seat,) for seat in range(players)), target, rules)

    @classmethod
    def partnerships(
        cls, players: int, units: int, target: int | None = None, rules: Rules = HOUSE
    ) -> MatchSetup:
        """Partners sit alternately: with 4 players and 2 units, seats 0,2 against 1,3."""
        if players % units:
            raise ValueError(f"{players} players do not split into {units} equal units")
        teams = tuple(tuple(range(u, players, units)) for u in range(units))
        return cls(players, teams, target, rules)

    @classmethod
    def layouts(cls, players: int, rules: Rules = HOUSE) -> list[MatchSetup]:
        """The usual layouts at this size: cutthroat, then every split into equal units
        that the rules take."""
        setups = [cls.cutthroat(players, rules=rules)]
        for units in range(2, players):
            if players % units == 0 and players // units >= 2:
                teams = tuple(tuple(range(u, players, units)) for u in range(units))
                if rules.allows_layout(players, teams):
                    setups.append(cls.partnerships(players, units, rules=rules))
        return setups


@dataclass(frozen=True)
class Deal:
    """The chance event of a round: who dealt, each seat's cards, the undealt rest.

    ``pack`` is the undealt rest in pack order, top first, where the order matters (a
    fill deals from its front); the house rules never use it and leave it empty.
    """

    dealer: int
    hands: tuple[int, ...]  # one card mask per seat
    hidden: int
    pack: tuple[int, ...] = ()

    def check(self, setup: MatchSetup) -> None:
        if not 0 <= self.dealer < setup.players:
            raise ValueError(f"dealer {self.dealer} is not a seat")
        if len(self.hands) != setup.players:
            raise ValueError(f"{len(self.hands)} hands dealt for {setup.players} players")
        size = setup.rules.deal
        seen = self.hidden
        for seat, hand in enumerate(self.hands):
            if hand.bit_count() != size:
                raise ValueError(f"seat {seat} holds {hand.bit_count()} cards, not {size}")
            if seen & hand:
                raise ValueError("a card is dealt twice")
            seen |= hand
        if seen != setup.deck or self.hidden & ~setup.deck:
            deck = f"{setup.players}-player deck" if setup.rules.is_house else "deck"
            raise ValueError(f"the hands and hidden cards are not the {deck}")
        if self.pack and (
            mask_of(self.pack) != self.hidden or len(self.pack) != self.hidden.bit_count()
        ):
            raise ValueError("the pack is not the hidden cards")

    @classmethod
    def of(cls, dealer: int, hands: Iterable[int], hidden: Iterable[int], *, rules: Rules) -> Deal:
        """The deal of ``hands`` (card masks) with ``hidden`` undealt, listed top first: a
        full-deck table keeps the pack's order (a fill deals from its top); the house rules
        never deal from it and keep none."""
        hidden = tuple(hidden)
        return cls(dealer, tuple(hands), mask_of(hidden), () if rules.is_house else hidden)

    def pack_order(self) -> tuple[int, ...]:
        """The undealt cards, top first (lowest card first where no order was given)."""
        return self.pack or tuple(cards_of(self.hidden))


def shuffle_deal(setup: MatchSetup, dealer: int, rng: Random) -> Deal:
    cards = cards_of(setup.deck)
    rng.shuffle(cards)
    size = setup.rules.deal
    hands = []
    for seat in range(setup.players):
        hand = 0
        for c in cards[seat * size : (seat + 1) * size]:
            hand |= 1 << c
        hands.append(hand)
    return Deal.of(dealer, hands, cards[setup.players * size :], rules=setup.rules)


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


_NOBODY = -1
# what a full-deck round does between its auction and its tricks
_PLAYING, _NAMING_TRUMP, _EXCHANGING = 0, 1, 2


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
    stage = _PLAYING
    trumps: TrumpSuit | None = None

    def __new__(cls, setup: MatchSetup, *args, **kwargs):
        if cls is RoundState and not setup.rules.is_house:
            cls = FullDeckRound
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
            if self.to_act == _NOBODY or self.auction_left:  # not Phase.PLAY
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
        if self.auction_left and self.to_act != _NOBODY:  # Phase.AUCTION
            return _bid_mask(self._legal_bids())
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
        return None if self.auction_left or self.bidder == _NOBODY else self.bidder

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

    def _check_turn(self, action: int, seat: int | None) -> None:
        to_act = self.to_act
        if to_act == _NOBODY:
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
            self.leader = self.to_act = _NOBODY
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


class Exchange(NamedTuple):
    """A full-deck round's cards outside the hands and the tricks."""

    left: tuple[int, ...]  # the seats still to discard, in order
    discards: tuple[int, ...]  # each seat's discard (a mask)
    fills: tuple[int, ...]  # the cards each seat was dealt in a fill, or took from the pack
    pack: tuple[int, ...]  # the undealt cards still in the pack, top first


class FullDeckRound(RoundState):
    """A round of the Smear family's full-deck tables (``shared/spec/variants.md``): the
    auction (which may end with everyone passing and a redeal), the bidder naming trump,
    the exchange of cards, then six tricks under the table's follow rule and points."""

    __slots__ = (
        "stage",  # _PLAYING, _NAMING_TRUMP or _EXCHANGING once the auction is over
        "trumps",  # the TrumpSuit once trump is named
        "exchange",  # the discards, the fills and the pack
        "_rule",  # discard_rule() once worked out for this position, else None
    )

    def __init__(self, setup: MatchSetup, deal: Deal, scores: tuple[int, ...] | None = None):
        super().__init__(setup, deal, scores)
        self.stage = _PLAYING
        self.trumps = None
        nothing = (0,) * setup.players
        self.exchange = Exchange((), nothing, nothing, deal.pack_order())
        self._rule = None

    def phase(self) -> Phase:
        if self.to_act == _NOBODY:
            return Phase.OVER
        if self.auction_left:
            return Phase.AUCTION
        if self.stage:
            return Phase.TRUMP if self.stage == _NAMING_TRUMP else Phase.EXCHANGE
        return Phase.PLAY

    def legal_mask(self) -> int:
        if self._legal_cards < 0:
            if self.to_act == _NOBODY or self.auction_left or self.stage:  # not Phase.PLAY
                self._legal_cards = 0
            else:
                led = self.trick[0] if self.trick else -1
                hand, follow = self.hands[self.to_act], self.setup.rules.follow
                self._legal_cards = rules.legal_cards_full(hand, led, self.trumps, follow)
        return self._legal_cards

    def discard_rule(self) -> DiscardRule:
        if self._rule is None:
            if self.stage != _EXCHANGING or self.to_act == _NOBODY:
                raise IllegalAction("nobody is discarding now")
            seat = self.to_act
            self._rule = rules.discard_rule(
                self.setup.rules.exchange, self.hands[seat], self.trumps, dealer=seat == self.dealer
            )
        return self._rule

    def legal_action_mask(self) -> int:
        if self.to_act == _NOBODY:
            return 0
        if self.auction_left:
            return _bid_mask(self._legal_bids())
        if self.stage:
            return _TRUMP_MASK if self.stage == _NAMING_TRUMP else self.discard_rule().may
        return self.legal_mask()

    @property
    def discards(self) -> tuple[int, ...]:
        return self.exchange.discards

    @property
    def fills(self) -> tuple[int, ...]:
        return self.exchange.fills

    @property
    def pack(self) -> tuple[int, ...]:
        return self.exchange.pack

    def seated_history(self) -> list[tuple[int, int]]:
        """The auction, then the bidder naming trump and each discard in turn, then the
        tricks."""
        players = self.setup.players
        first_bidder = (self.deal.dealer + 1) % players
        pairs = [((first_bidder + i) % players, a) for i, a in enumerate(self.history[:players])]
        rest = self.history[players:]
        if rest:
            pairs.append((self.bidder, rest[0]))  # naming trump
            discards = 0
            while discards + 1 < len(rest) and rules.is_discard(rest[discards + 1]):
                discards += 1
            order = exchange_order(self.setup, self.dealer)
            pairs += zip(order, rest[1 : discards + 1], strict=False)
            rest = rest[discards + 1 :]
        return pairs + self._seated_plays(rest)

    def _copy(self) -> FullDeckRound:
        new = RoundState._copy(self, FullDeckRound)
        new.stage = self.stage
        new.trumps = self.trumps
        new.exchange = self.exchange
        new._rule = self._rule
        return new

    def _advance(self, action: int, seat: int | None) -> None:
        if self.to_act == _NOBODY or action.__class__ is not int or seat is not None:
            self._check_turn(action, seat)
        if self.auction_left:
            self._apply_bid(action)
        elif not self.stage:
            self._apply_play(action)
        elif self.stage == _NAMING_TRUMP:
            self._apply_trump(action)
        else:
            self._apply_discard(action)
        self._legal_cards = -1
        self._rule = None

    def _auction_over(self) -> None:
        if not self.high_bid:  # every seat passed, where the table redeals
            self.to_act = _NOBODY
            self.result = self._redeal()
        else:
            self.to_act = self.bidder
            self.stage = _NAMING_TRUMP

    def _apply_trump(self, action: int) -> None:
        if not rules.is_trump_action(action):
            raise IllegalAction(f"{_describe(action)} is not a suit: the bidder names trump")
        table = self.setup.rules
        self.history += (action,)
        self.trump = rules.named_suit(action)
        self.trumps = rules.trumps_of(self.trump, table.jick, table.jokers)
        order = exchange_order(self.setup, self.dealer)
        if table.exchange == "dealer_takes_pack":
            self._take_pack(self.dealer)
        if order:
            self.stage = _EXCHANGING
            self.exchange = self.exchange._replace(left=order)
            self.to_act = order[0]
        else:
            self._start_play()

    def _apply_discard(self, action: int) -> None:
        seat = self.to_act
        if not rules.is_discard(action):
            raise IllegalAction(f"{_describe(action)} is not a discard: seat {seat} discards")
        cards = rules.discarded(action)
        rule = self.discard_rule()
        if not rule.allows(cards):
            raise IllegalAction(rule.why_not(cards, self.hands[seat]))
        self.history += (action,)
        hands = self.hands
        self.hands = hands[:seat] + (hands[seat] & ~cards,) + hands[seat + 1 :]
        exchange = self.exchange
        left = exchange.left[1:]
        discards = exchange.discards[:seat] + (cards,) + exchange.discards[seat + 1 :]
        self.exchange = exchange._replace(left=left, discards=discards)
        if self.setup.rules.exchange == "discard_and_fill" and left == (self.dealer,):
            self._fill()
        if left:
            self.to_act = left[0]
        else:
            self._start_play()

    def _fill(self) -> None:
        """Each seat but the dealer, from the dealer's left, is dealt up to six from the top
        of the pack; the dealer takes the rest."""
        players = self.setup.players
        for step in range(1, players):
            seat = (self.dealer + step) % players
            self._give(seat, HAND_SIZE - self.hands[seat].bit_count())
        self._take_pack(self.dealer)

    def _take_pack(self, seat: int) -> None:
        self._give(seat, len(self.exchange.pack))

    def _give(self, seat: int, count: int) -> None:
        """Deal ``count`` cards from the top of the pack to ``seat``."""
        exchange = self.exchange
        got = mask_of(exchange.pack[:count])
        fills = exchange.fills[:seat] + (exchange.fills[seat] | got,) + exchange.fills[seat + 1 :]
        self.exchange = exchange._replace(fills=fills, pack=exchange.pack[count:])
        self.hands = self.hands[:seat] + (self.hands[seat] | got,) + self.hands[seat + 1 :]

    def _start_play(self) -> None:
        self.stage = _PLAYING
        self.to_act = self.leader = self.bidder  # the high bidder leads the first trick

    def _trick_winner(self, trick: tuple[int, ...]) -> int:
        return rules.trick_winner_full(trick, self.trumps)

    def _why_illegal(self, action: int) -> str:
        card, led = rules.action_code(action), self.trick[0]
        if self.setup.rules.follow == "schmier":
            return f"{card} is not allowed: follow the suit led while you can"
        if self.trumps.cards >> led & 1:
            return f"{card} is not allowed: trump was led and you hold trump"
        return f"{card} is not allowed: follow the suit led, or play trump"

    def _score(self) -> RoundResult:
        setup = self.setup
        table = setup.rules
        points = rules.round_points_full(
            names=table.points,
            trumps=self.trumps,
            ace_two=table.high_low == "ace_two",
            plays=tuple(self._seated_plays(self.history[-HAND_SIZE * setup.players :])),
            captured=self.captured,
            unit_of=setup.unit_of,
        )
        return self._settle(points)

    def _redeal(self) -> RoundResult:
        units = self.setup.units
        nobody = RoundPoints(
            high=None, low=None, jack=None, jokers=(), game=None, names=self.setup.rules.points
        )
        scoring = MatchScoring(match_after=self.scores, made=None, winner=None)
        return RoundResult(nobody, (0,) * units, None, None, scoring, redeal=True)


def exchange_order(setup: MatchSetup, dealer: int) -> tuple[int, ...]:
    """The seats that discard, in turn: every seat from the dealer's left (``discard_to_six``),
    each seat but the dealer and then the dealer (``discard_and_fill``), the dealer alone
    (``dealer_takes_pack``), or nobody."""
    exchange, players = setup.rules.exchange, setup.players
    if exchange == "dealer_takes_pack":
        return (dealer,)
    if exchange in ("discard_to_six", "discard_and_fill"):
        return tuple((dealer + step) % players for step in range(1, players + 1))
    return ()


_TRUMP_MASK = sum(1 << action for action in rules.TRUMPS)


@cache
def _bid_mask(legal: tuple[int, ...]) -> int:
    mask = 0
    for action in legal:
        mask |= 1 << action
    return mask


def _describe(action: int) -> str:
    try:
        return rules.action_code(action)
    except (ValueError, TypeError):
        return repr(action)


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
        """The next seat clockwise; the same dealer again after a redeal."""
        last = self.round
        if last is None:
            return self.first_dealer
        if last.redealt:
            return last.dealer
        return (last.dealer + 1) % self.setup.players

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
