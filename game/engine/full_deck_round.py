"""The true state of one round at a full-deck table: the auction, naming trump, the
exchange (discards, fills, the pack) and the tricks, as the table's rules say
(``shared/spec/variants.md``). Part of ``game.engine.state``.
"""

from __future__ import annotations

from typing import NamedTuple

from . import rules
from .cards import HAND_SIZE, mask_of
from .house_round import (
    EXCHANGING,
    NAMING_TRUMP,
    NOBODY,
    PLAYING,
    RoundResult,
    RoundState,
    bid_mask,
    describe,
)
from .rules import DiscardRule, MatchScoring, Phase, RoundPoints
from .setup import Deal, IllegalAction, MatchSetup


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
        "stage",  # PLAYING, NAMING_TRUMP or EXCHANGING once the auction is over
        "trumps",  # the TrumpSuit once trump is named
        "exchange",  # the discards, the fills and the pack
        "_rule",  # discard_rule() once worked out for this position, else None
    )

    def __init__(self, setup: MatchSetup, deal: Deal, scores: tuple[int, ...] | None = None):
        super().__init__(setup, deal, scores)
        self.stage = PLAYING
        self.trumps = None
        nothing = (0,) * setup.players
        self.exchange = Exchange((), nothing, nothing, deal.pack_order())
        self._rule = None

    def phase(self) -> Phase:
        if self.to_act == NOBODY:
            return Phase.OVER
        if self.auction_left:
            return Phase.AUCTION
        if self.stage:
            return Phase.TRUMP if self.stage == NAMING_TRUMP else Phase.EXCHANGE
        return Phase.PLAY

    def legal_mask(self) -> int:
        if self._legal_cards < 0:
            if self.to_act == NOBODY or self.auction_left or self.stage:  # not Phase.PLAY
                self._legal_cards = 0
            else:
                led = self.trick[0] if self.trick else -1
                hand, follow = self.hands[self.to_act], self.setup.rules.follow
                self._legal_cards = rules.legal_cards_full(hand, led, self.trumps, follow)
        return self._legal_cards

    def discard_rule(self) -> DiscardRule:
        if self._rule is None:
            if self.stage != EXCHANGING or self.to_act == NOBODY:
                raise IllegalAction("nobody is discarding now")
            seat = self.to_act
            self._rule = rules.discard_rule(
                self.setup.rules.exchange, self.hands[seat], self.trumps, dealer=seat == self.dealer
            )
        return self._rule

    def legal_action_mask(self) -> int:
        if self.to_act == NOBODY:
            return 0
        if self.auction_left:
            return bid_mask(self._legal_bids())
        if self.stage:
            return _TRUMP_MASK if self.stage == NAMING_TRUMP else self.discard_rule().may
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
        if self.to_act == NOBODY or action.__class__ is not int or seat is not None:
            self._check_turn(action, seat)
        if self.auction_left:
            self._apply_bid(action)
        elif not self.stage:
            self._apply_play(action)
        elif self.stage == NAMING_TRUMP:
            self._apply_trump(action)
        else:
            self._apply_discard(action)
        self._legal_cards = -1
        self._rule = None

    def _auction_over(self) -> None:
        if not self.high_bid:  # every seat passed, where the table redeals
            self.to_act = NOBODY
            self.result = self._redeal()
        else:
            self.to_act = self.bidder
            self.stage = NAMING_TRUMP

    def _apply_trump(self, action: int) -> None:
        if not rules.is_trump_action(action):
            raise IllegalAction(f"{describe(action)} is not a suit: the bidder names trump")
        table = self.setup.rules
        self.history += (action,)
        self.trump = rules.named_suit(action)
        self.trumps = rules.trumps_of(self.trump, table.jick, table.jokers)
        order = exchange_order(self.setup, self.dealer)
        if table.exchange == "dealer_takes_pack":
            self._take_pack(self.dealer)
        if order:
            self.stage = EXCHANGING
            self.exchange = self.exchange._replace(left=order)
            self.to_act = order[0]
        else:
            self._start_play()

    def _apply_discard(self, action: int) -> None:
        seat = self.to_act
        if not rules.is_discard(action):
            raise IllegalAction(f"{describe(action)} is not a discard: seat {seat} discards")
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
        self.stage = PLAYING
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
    """The seats that discard, in turn (``rules.exchange_order``)."""
    return rules.exchange_order(setup.rules.exchange, setup.players, dealer)


_TRUMP_MASK = sum(1 << action for action in rules.TRUMPS)


RoundState.full_deck_round = FullDeckRound  # RoundState(setup, deal) builds one for this table
