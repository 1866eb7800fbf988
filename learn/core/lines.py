"""A sampled line from an auction decision: the rest of the auction, then the round.

"Show me a deal" shows one deal consistent with what the seat can see and a line played
in it. From a card decision the expert's analysis gives that line. From an auction
decision the line goes on: the seat makes its call, every seat after it calls as a bot
would from its own view of that deal (so no seat bids on cards it cannot see), and then
the round is played out by the best line for the seat's side, as the exact solver finds
it in that deal. The deal is the sample's, never the real one. Pure: no Django here.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from game.bots import Bot
from game.bots.basic import GreedyBot
from game.bots.valuation import Situation, utility_for
from game.engine.cards import mask_of, parse_card
from game.engine.rules import action_code, parse_action_code
from game.engine.solver import position_of, principal_variation
from game.engine.state import Deal, MatchSetup, RoundState
from game.engine.view import SeatView

from .positions import AnalysedPosition

Line = tuple[tuple[int, int], ...]  # (seat, action), from the decision on


def sampled_round(view: SeatView, hands: Sequence[int]) -> RoundState:
    """The round at ``view``'s auction decision, dealt as ``hands`` (a sampled deal
    that gives the seat its own hand)."""
    if not view.in_auction or view.plays:
        raise ValueError("a sampled round starts from an auction decision")
    dealt = 0
    for hand in hands:
        dealt |= hand
    setup = MatchSetup(view.players, view.teams, view.target)
    state = RoundState(setup, Deal(view.dealer, tuple(hands), view.deck & ~dealt), view.scores)
    return state.replay(view.auction)


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
    hands = [mask_of(parse_card(code) for code in hand) for hand in position.line_hands]
    call = parse_action_code(line[0][1])
    played = play_out(position.view(), hands, call, GreedyBot(), Random(position.key))
    return tuple((seat, action_code(action)) for seat, action in played)
