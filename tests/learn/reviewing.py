"""Rounds with a known blunder, for the review's tests."""

from __future__ import annotations

from random import Random

from game.bots.basic import GreedyBot
from game.engine.cards import card_code, cards_of, functional_deck, mask_of, parse_card
from game.engine.rules import parse_action_code
from game.engine.state import Deal, MatchSetup, MatchState

# the first to bid (dealer 0's left, seat 1) holds the five top hearts and a joker
MONSTER = ("AH", "KH", "QH", "JH", "10H", "J1")
BLUNDER_SEAT = 1


def monster_deal(seed: int = 5) -> Deal:
    rest = [c for c in cards_of(functional_deck(4)) if card_code(c) not in MONSTER]
    Random(seed).shuffle(rest)
    hands = [rest[0:6], [parse_card(c) for c in MONSTER], rest[6:12], rest[12:18]]
    return Deal(0, tuple(mask_of(hand) for hand in hands), mask_of(rest[18:]))


def monster_round(first_call: str, *, seed: int = 5) -> MatchState:
    """A 2v2 round in which seat 1 opens the auction with ``first_call`` holding the
    monster; everything else is the greedy bot's."""
    match = MatchState(MatchSetup.partnerships(4, 2), 0).start_round(monster_deal(seed))
    rng, bot = Random(seed), GreedyBot()
    first = True
    while match.current_player() is not None:
        seat = match.current_player()
        if seat == BLUNDER_SEAT and first:
            action, first = parse_action_code(first_call), False
        else:
            action = bot.choose(match.view_for(seat), match.legal_actions(), rng)
        match = match.apply(action, seat)
    return match
