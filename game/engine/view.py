"""What a seat, or anyone watching, may know of a round, and nothing more.

``PublicView`` is what every seat and every spectator sees alike: the table's rules, the
auction, trump, how many cards each seat discarded and was dealt in a fill, every card
played and by whom, who took each trick, the match scores, how many cards are hidden and,
once the round is over, its result. ``SeatView`` is a PublicView with one seat's own hand,
its own discard and the cards it was dealt in a fill or took from the pack. Never another
seat's hand, discard or fill, the hidden cards or the shuffle. Bots and pages are given
these, so they cannot show or use what a seat may not see.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from . import events as round_events
from . import rules
from .cards import cards_of, full_deck, functional_deck, hidden_count
from .variants import Rules

if TYPE_CHECKING:
    from .state import RoundResult, RoundState


@dataclass(frozen=True)
class PublicView:
    players: int
    teams: tuple[tuple[int, ...], ...]
    target: int
    dealer: int
    auction: tuple[tuple[int, int], ...]  # (seat, action) in bidding order
    bidder: int | None
    bid: int | None
    trump: int | None
    plays: tuple[tuple[int, int], ...]  # (seat, card) for every card played, in order
    trick_winners: tuple[int, ...]
    to_act: int | None
    scores: tuple[int, ...]  # match scores before this round
    hidden_count: int
    result: RoundResult | None  # public once the round is over
    phase: rules.Phase
    rules: Rules
    discard_counts: tuple[int, ...]  # how many cards each seat discarded (face down)
    fill_counts: tuple[int, ...]  # how many each seat was dealt in a fill or took from the pack

    @property
    def in_auction(self) -> bool:
        return self.phase is rules.Phase.AUCTION

    @property
    def unit_of(self) -> tuple[int, ...]:
        units = [0] * self.players
        for unit, members in enumerate(self.teams):
            for seat in members:
                units[seat] = unit
        return tuple(units)

    @property
    def deck(self) -> int:
        if self.rules.is_house:
            return functional_deck(self.players)
        return full_deck(self.rules.jokers)

    @property
    def trumps(self) -> rules.TrumpSuit | None:
        """How a full-deck table counts trump, once it is named (None for the house rules)."""
        if self.trump is None or self.rules.is_house:
            return None
        return rules.trumps_of(self.trump, self.rules.jick, self.rules.jokers)

    @property
    def current_trick(self) -> tuple[tuple[int, int], ...]:
        return self.plays[len(self.trick_winners) * self.players :]

    def trick(self, number: int) -> tuple[tuple[int, int], ...]:
        """The plays of trick ``number`` (from 0), as far as it has gone."""
        return self.plays[number * self.players : (number + 1) * self.players]

    @property
    def leader(self) -> int | None:
        """Who leads (or led) the current trick; None during the auction."""
        if self.current_trick:
            return self.current_trick[0][0]
        if self.trick_winners:
            return self.trick_winners[-1]
        return self.bidder

    @property
    def taken(self) -> tuple[int, ...]:
        """The cards each unit has captured: every finished trick goes to its winner's unit."""
        unit_of = self.unit_of
        taken = [0] * len(self.teams)
        for number, winner in enumerate(self.trick_winners):
            for _, card in self.trick(number):
                taken[unit_of[winner]] |= 1 << card
        return tuple(taken)

    @property
    def played(self) -> int:
        mask = 0
        for _, card in self.plays:
            mask |= 1 << card
        return mask

    @property
    def played_by(self) -> tuple[int, ...]:
        """The cards each seat has played this round."""
        played = [0] * self.players
        for seat, card in self.plays:
            played[seat] |= 1 << card
        return tuple(played)

    @property
    def shown_voids(self) -> tuple[tuple[int, ...], ...]:
        """For each seat, the groups of cards it has shown it does not hold by what it
        played (``rules.shown_void``, ``rules.shown_void_full``), each once, in the order
        shown. What every seat and spectator may know of the hands, as the rules say it."""
        players, trumps = self.players, self.trumps
        trump = -1 if self.trump is None else self.trump
        shown: list[list[int]] = [[] for _ in range(players)]
        for start in range(0, len(self.plays), players):
            trick = self.plays[start : start + players]
            led = trick[0][1]
            for seat, card in trick[1:]:
                if trumps is None:
                    void = rules.shown_void(card, led, trump)
                else:
                    void = rules.shown_void_full(card, led, trumps, self.rules.follow)
                if void and void not in shown[seat]:
                    shown[seat].append(void)
        return tuple(map(tuple, shown))

    @property
    def voids(self) -> tuple[int, ...]:
        """The cards each seat has shown it does not hold (``shown_voids``, together)."""
        barred = [0] * self.players
        for seat, groups in enumerate(self.shown_voids):
            for group in groups:
                barred[seat] |= group
        return tuple(barred)

    def discard_cases(self, seat: int) -> tuple[rules.DiscardCase, ...]:
        """What the rules tell everyone of ``seat``'s discard (``rules.discard_cases``),
        once trump is named at a table with an exchange."""
        return rules.discard_cases(
            self.rules.exchange,
            self.trumps,
            dealer=seat == self.dealer,
            filled=self.fill_counts[seat] > 0,
        )

    @cached_property
    def events(self) -> tuple[round_events.Event, ...]:
        """Everything the round's moves have made public so far, in order
        (``game.engine.events``): the auction won, trump set, the exchange's counts, each
        trick won, each point as it is settled, the round scored, the match won."""
        return round_events.narrate(self)

    @property
    def tricks_won(self) -> tuple[round_events.TrickWon, ...]:
        """Each finished trick: who won it, with what."""
        return tuple(e for e in self.events if isinstance(e, round_events.TrickWon))

    @property
    def points_taken(self) -> tuple[round_events.PointTaken, ...]:
        """Each point settled so far, for good, in the order settled."""
        return tuple(e for e in self.events if isinstance(e, round_events.PointTaken))

    @property
    def round_scored(self) -> round_events.RoundScored | None:
        """The round's scoring, once it is over (None before, and for a redealt round)."""
        last = self.events[-2:]
        return next((e for e in last if isinstance(e, round_events.RoundScored)), None)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds now: its deal and fill, less its discard and the
        cards it has played."""
        played = [0] * self.players
        for seat, _ in self.plays:
            played[seat] += 1
        deal = self.rules.deal
        return tuple(
            deal + self.fill_counts[seat] - self.discard_counts[seat] - played[seat]
            for seat in range(self.players)
        )

    @property
    def high_bid(self) -> int:
        return max((rules.bid_amount(a) for _, a in self.auction if rules.is_bid(a)), default=0)


@dataclass(frozen=True)
class SeatView(PublicView):
    seat: int
    hand: int  # mask of the cards this seat still holds
    legal: tuple[int, ...] = ()  # this seat's legal actions, from the state (empty if not its turn)
    discard: int = 0  # the cards this seat discarded
    fill: int = 0  # the cards this seat was dealt in a fill, or took from the pack
    discard_rule: rules.DiscardRule | None = None  # what it must discard, when it is to

    @property
    def unit(self) -> int:
        return next(u for u, members in enumerate(self.teams) if self.seat in members)

    @property
    def hand_cards(self) -> list[int]:
        return cards_of(self.hand)

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: other hands, their discards and the hidden cards."""
        return self.deck & ~self.hand & ~self.played & ~self.discard

    def legal_actions(self) -> list[int]:
        """This seat's legal actions, as the state gave them (empty if not its turn)."""
        return list(self.legal)


def public_view(state: RoundState) -> PublicView:
    """What everyone may see of the round."""
    return PublicView(**_public_fields(state))


def view_for(state: RoundState, seat: int) -> SeatView:
    setup = state.setup
    if not 0 <= seat < setup.players:
        raise ValueError(f"seat {seat} is not at this table")
    to_act = state.current_player() == seat
    legal = tuple(state.legal_actions()) if to_act else ()
    discarding = to_act and state.phase() is rules.Phase.EXCHANGE
    return SeatView(
        **_public_fields(state),
        seat=seat,
        hand=state.hands[seat],
        legal=legal,
        discard=state.discards[seat],
        fill=state.fills[seat],
        discard_rule=state.discard_rule() if discarding else None,
    )


def _public_fields(state: RoundState) -> dict:
    setup = state.setup
    players = setup.players
    pairs = state.seated_history()
    table = setup.rules
    if table.is_house:
        plays, hidden = pairs[players:], hidden_count(players)
    else:
        plays = [(seat, a) for seat, a in pairs[players:] if rules.is_card(a)]
        hidden = len(state.pack)
    return {
        "players": players,
        "teams": setup.teams,
        "target": setup.target,
        "dealer": state.dealer,
        "auction": tuple(pairs[:players]),
        "bidder": state.bidder_seat,
        "bid": state.bid,
        "trump": None if state.trump < 0 else state.trump,
        "plays": tuple(plays),
        "trick_winners": state.trick_winners,
        "to_act": state.current_player(),
        "scores": state.scores,
        "hidden_count": hidden,
        "result": state.result,
        "phase": state.phase(),
        "rules": table,
        "discard_counts": tuple(mask.bit_count() for mask in state.discards),
        "fill_counts": tuple(mask.bit_count() for mask in state.fills),
    }
