"""What a seat, or anyone watching, may know of a round, and nothing more.

``PublicView`` is what every seat and every spectator sees alike: the auction, trump,
every card played and by whom, who took each trick, the match scores, how many cards are
hidden and, once the round is over, its result. ``SeatView`` is a PublicView with one
seat's own hand. Never another seat's hand, the hidden cards or the shuffle. Bots and
pages are given these, so they cannot show or use what a seat may not see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import rules
from .cards import cards_of, functional_deck, hidden_count

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
        return functional_deck(self.players)

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
    def high_bid(self) -> int:
        return max((rules.bid_amount(a) for _, a in self.auction if rules.is_bid(a)), default=0)


@dataclass(frozen=True)
class SeatView(PublicView):
    seat: int
    hand: int  # mask of the cards this seat still holds
    legal: tuple[int, ...] = ()  # this seat's legal actions, from the state (empty if not its turn)

    @property
    def unit(self) -> int:
        return next(u for u, members in enumerate(self.teams) if self.seat in members)

    @property
    def hand_cards(self) -> list[int]:
        return cards_of(self.hand)

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: other hands and the hidden cards together."""
        return self.deck & ~self.hand & ~self.played

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
    legal = tuple(state.legal_actions()) if state.current_player() == seat else ()
    return SeatView(**_public_fields(state), seat=seat, hand=state.hands[seat], legal=legal)


def _public_fields(state: RoundState) -> dict:
    setup = state.setup
    players = setup.players
    pairs = state.seated_history()
    return {
        "players": players,
        "teams": setup.teams,
        "target": setup.target,
        "dealer": state.dealer,
        "auction": tuple(pairs[:players]),
        "bidder": state.bidder_seat,
        "bid": state.bid,
        "trump": None if state.trump < 0 else state.trump,
        "plays": tuple(pairs[players:]),
        "trick_winners": state.trick_winners,
        "to_act": state.current_player(),
        "scores": state.scores,
        "hidden_count": hidden_count(players),
        "result": state.result,
        "phase": state.phase(),
    }
