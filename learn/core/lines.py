"""A sampled line of play, and its walk through the engine, trick by trick.

"Show me a deal" shows one deal consistent with what the seat can see and a line played
in it. From a card decision the expert's analysis gives that line. From an auction
decision the line goes on: the seat makes its call, every seat after it calls as a bot
would from its own view of that deal (so no seat bids on cards it cannot see), and then
the round is played out by the best line for the seat's side, as the exact solver finds
it in that deal. The deal is the sample's, never the real one.

``walk_through`` replays a line in its sampled deal through the engine's own round
(``game.engine.state``): where a trick ends and who takes it are the engine's to say, so
"Show me a deal" and the explanation's telling of the line restate no rule of play.
Pure: no Django here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from game.bots import Bot
from game.bots.basic import GreedyBot
from game.bots.valuation import Situation, utility_for
from game.engine.cards import mask_of, parse_card
from game.engine.rules import action_code, is_card, parse_action_code
from game.engine.solver import position_of, principal_variation
from game.engine.state import Deal, MatchSetup, RoundState
from game.engine.view import SeatView

from .positions import AnalysedPosition

Line = tuple[tuple[int, int], ...]  # (seat, action), from the decision on


def sampled_round(view: SeatView, hands: Sequence[int]) -> RoundState:
    """The round at ``view``'s decision in the deal where each seat holds ``hands[seat]``
    there (a sampled deal that gives the seat its own hand): each seat's cards played so
    far go back into the hand it was dealt, and the engine replays the auction and the
    plays. At the house rules only (a full-deck round's exchange is face down)."""
    if not view.rules.is_house:
        raise ValueError("a sampled round is dealt at the house rules only")
    dealt = list(hands)
    for seat, card in view.plays:
        dealt[seat] |= 1 << card
    in_hands = 0
    for hand in dealt:
        in_hands |= hand
    setup = MatchSetup(view.players, view.teams, view.target)
    deal = Deal(view.dealer, tuple(dealt), view.deck & ~in_hands)
    return RoundState(setup, deal, view.scores).replay([*view.auction, *view.plays])


def play_out(view: SeatView, hands: Sequence[int], call: int, bidder: Bot, rng: Random) -> Line:
    """The seat's ``call``, the rest of the auction as ``bidder`` calls it for each later
    seat, and the best line of play after it in this deal."""
    state = sampled_round(view, hands).apply(call, view.seat)
    line = [(view.seat, call)]
    while state.in_auction():
        seat = state.current_player()
        action = bidder.choose(state.view_for(seat), state.legal_actions(), rng)
        state = state.apply(action, seat)
        line.append((seat, action))
    bidder_unit = state.setup.unit_of[state.bidder_seat]
    situation = Situation(view.unit, bidder_unit, state.bid, view.scores, view.target)
    for card in principal_variation(position_of(state), utility_for(situation)):
        line.append((state.current_player(), card))
        state = state.apply(card)
    return tuple(line)


def shown_line(position: AnalysedPosition) -> tuple[tuple[int, str], ...]:
    """The line "Show me a deal" plays. An auction position written before lines went
    past the call (its line is the call alone) is played out here, the later seats
    calling as the greedy bot would: no search while a page renders."""
    line = position.line
    if position.phase != "auction" or not position.line_hands or len(line) != 1:
        return line
    call = parse_action_code(line[0][1])
    hands = _sampled_hands(position)
    played = play_out(position.view(), hands, call, GreedyBot(), Random(position.key))
    return tuple((seat, action_code(action)) for seat, action in played)


# --- The walk through the engine -------------------------------------------------------


@dataclass(frozen=True)
class TrickWalked:
    """One trick of a line, as the engine plays it out."""

    number: int  # from 0, as the table counts
    plays: tuple[tuple[int, int], ...]  # (seat, card): the trick's cards before the decision first
    winner: int | None  # the seat that takes it; None while it is unfinished
    before: int = 0  # how many of ``plays`` were played before the decision

    @property
    def line_plays(self) -> tuple[tuple[int, int], ...]:
        """The trick's cards that the line plays."""
        return self.plays[self.before :]


@dataclass(frozen=True)
class Walk:
    """A line replayed by the engine: the rest of the auction, then the tricks from the
    one in play at the decision on."""

    calls: tuple[tuple[int, int], ...]  # (seat, action)
    tricks: tuple[TrickWalked, ...]


def walk_through(
    position: AnalysedPosition, line: Sequence[tuple[int, str]] | None = None
) -> Walk | None:
    """``line`` (by default the position's own) replayed by the engine in the sampled deal
    it was played in. None where the position keeps no sampled deal (the full-deck tables'
    analysis plays no line) or the line does not replay in it (a bank written by hand)."""
    if not position.line_hands:
        return None
    view = position.view()
    hands = _sampled_hands(position)
    calls: list[tuple[int, int]] = []
    tricks: list[TrickWalked] = []
    plays = list(view.current_trick)
    before, number = len(plays), len(view.trick_winners)
    try:
        state = sampled_round(view, hands)
        for seat, code in position.line if line is None else line:
            action = parse_action_code(code)
            state = state.apply(action, seat)
            if not is_card(action):
                calls.append((seat, action))
                continue
            plays.append((seat, action))
            if len(state.trick_winners) > number:  # the engine has closed the trick
                tricks.append(TrickWalked(number, tuple(plays), state.trick_winners[-1], before))
                number, plays, before = number + 1, [], 0
    except ValueError:  # an action that is no action, or not legal there (IllegalAction)
        return None
    if len(plays) > before:
        tricks.append(TrickWalked(number, tuple(plays), None, before))
    return Walk(tuple(calls), tuple(tricks))


def _sampled_hands(position: AnalysedPosition) -> list[int]:
    """Each seat's hand at the decision in the position's sampled deal."""
    return [mask_of(parse_card(code) for code in hand) for hand in position.line_hands]
