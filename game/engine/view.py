"""SeatView: what one seat may know, and nothing more.

Its own hand, the auction, trump, every card played and by whom, who took each trick,
the match scores and how many cards are hidden. Never another seat's hand, the hidden
cards or the shuffle. Bots and pages are given this, so they cannot show or use what a
seat may not see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import rules
from .cards import cards_of, functional_deck, hidden_count

if TYPE_CHECKING:
    from .state import RoundResult, RoundState


@dataclass(frozen=True)
class SeatView:
    seat: int
    players: int
    teams: tuple[tuple[int, ...], ...]
    target: int
    dealer: int
    hand: int  # mask of the cards this seat still holds
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

    @property
    def unit(self) -> int:
        return next(u for u, members in enumerate(self.teams) if self.seat in members)

    @property
    def unit_of(self) -> tuple[int, ...]:
        units = [0] * self.players
        for unit, members in enumerate(self.teams):
            for seat in members:
                units[seat] = unit
        return tuple(units)

    @property
    def deck(self) -> int:
        return functional_deck(self.players)

    @property
    def hand_cards(self) -> list[int]:
        return cards_of(self.hand)

    @property
    def current_trick(self) -> tuple[tuple[int, int], ...]:
        return self.plays[len(self.trick_winners) * self.players :]

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
        for trick, winner in enumerate(self.trick_winners):
            for _, card in self.plays[trick * self.players : (trick + 1) * self.players]:
                taken[unit_of[winner]] |= 1 << card
        return tuple(taken)

    @property
    def played(self) -> int:
        mask = 0
        for _, card in self.plays:
            mask |= 1 << card
        return mask

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: other hands and the hidden cards together."""
        return self.deck & ~self.hand & ~self.played

    @property
    def high_bid(self) -> int:
        return max((rules.bid_amount(a) for _, a in self.auction if rules.is_bid(a)), default=0)

    def legal_actions(self) -> list[int]:
        """This seat's legal actions, worked out from what it can see (empty if not its turn)."""
        if self.to_act != self.seat or self.result is not None:
            return []
        if len(self.auction) < self.players:
            must_open = len(self.auction) == self.players - 1 and not self.high_bid
            return list(rules.legal_bids(self.high_bid, must_open))
        trick = self.current_trick
        led = trick[0][1] if trick else -1
        trump = -1 if self.trump is None else self.trump
        return cards_of(rules.legal_cards(self.hand, led, trump))


def view_for(state: RoundState, seat: int) -> SeatView:
    setup = state.setup
    if not 0 <= seat < setup.players:
        raise ValueError(f"seat {seat} is not at this table")
    players = setup.players
    pairs = state.seated_history()
    return SeatView(
        seat=seat,
        players=players,
        teams=setup.teams,
        target=setup.target,
        dealer=state.dealer,
        hand=state.hands[seat],
        auction=tuple(pairs[:players]),
        bidder=state.bidder_seat,
        bid=state.bid,
        trump=None if state.trump < 0 else state.trump,
        plays=tuple(pairs[players:]),
        trick_winners=state.trick_winners,
        to_act=state.current_player(),
        scores=state.scores,
        hidden_count=hidden_count(players),
        result=state.result,
    )
