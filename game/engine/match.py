"""The true state of a match: its rounds in order, each dealt by the next seat, until a
bidder wins. Part of ``game.engine.state``.
"""

from __future__ import annotations

from random import Random

from .events import Step
from .full_deck_round import RoundState  # the house round, with the full deck's registered
from .setup import Deal, IllegalAction, MatchSetup, shuffle_deal
from .view import SeatView


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

    def is_chance_node(self) -> bool:
        """The next step is chance's: a deal (``start_round``). A round has no other chance
        step: a fill deals from the top of the pack, whose order the deal holds."""
        return self.needs_deal()

    def steps(self) -> list[Deal | tuple[int, int]]:
        """The whole match as one list: each round's deal (its chance step), then its
        actions as (seat, action). ``from_steps`` replays it exactly."""
        listed: list[Deal | tuple[int, int]] = []
        for played in self.rounds:
            listed.append(played.deal)
            listed += played.seated_history()
        return listed

    @classmethod
    def from_steps(cls, setup: MatchSetup, steps) -> MatchState:
        """The match after ``steps`` (``steps()``'s list): a ``Deal`` starts a round, a
        (seat, action) is played; anything out of turn raises IllegalAction."""
        listed = list(steps)
        first = listed[0].dealer if listed and isinstance(listed[0], Deal) else 0
        match = cls(setup, first)
        for step in listed:
            match = match.take_step(step)
        return match

    def take_step(self, step: Deal | tuple[int, int]) -> MatchState:
        """One step of ``steps()``: chance's deal, or a seat's action."""
        if isinstance(step, Deal):
            return self.start_round(step)
        seat, action = step
        return self.apply(action, seat)

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

    def step(self, action: int, seat: int | None = None) -> Step:
        """``apply``, and the public events the move made (``RoundState.step``): the
        round scored and, where it ends the match, the match won among them."""
        if self.is_terminal():
            raise IllegalAction("the match is over")
        if self.round is None:
            raise IllegalAction("no round has been dealt")
        played, events = self.round.step(action, seat)
        return Step(MatchState(self.setup, self.first_dealer, self.rounds[:-1] + (played,)), events)

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
