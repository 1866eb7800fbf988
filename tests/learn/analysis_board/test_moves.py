"""What the board offers to tap next: the legal calls, a known hand's cards, or every card
the board has not placed, never a card of a hand the visitor did not give."""

from __future__ import annotations

from game.engine import board as boards
from game.engine import variants
from game.engine.cards import CARD_CODES, cards_of
from game.engine.rules import is_card, is_discard
from learn.analysis_board.moves import next_moves
from tests.game.engine.test_board import board_of, random_round


def _codes(mask: int) -> tuple[str, ...]:
    return tuple(CARD_CODES[c] for c in cards_of(mask))


def test_a_seat_to_discard_taps_its_own_hand_and_a_hidden_one_any_unplaced_card():
    setup, deal, actions, _ = random_round(variants.CLASSIC, 4, 1)
    at_exchange = actions[: next(i for i, (_, a) in enumerate(actions) if is_discard(a))]
    seat = (deal.dealer + 1) % 4  # the first to discard
    own = next_moves(boards.replay(board_of(setup, deal, at_exchange, seat=seat, known=())))
    assert own.discarding and own.calls == ()
    assert own.cards == _codes(deal.hands[seat])
    other = (seat + 1) % 4
    hidden = next_moves(boards.replay(board_of(setup, deal, at_exchange, seat=other, known=())))
    assert hidden.discarding
    assert set(hidden.cards) == set(_codes(setup.deck & ~deal.hands[other]))


def test_past_a_fill_not_given_a_seat_is_offered_its_dealt_cards_left_and_unplaced_ones():
    setup, deal, actions, state = random_round(variants.SEVEN_POINT, 4, 3, cards_played=2)
    seat = state.current_player()
    replayed = boards.replay(board_of(setup, deal, actions, seat=seat, known=()))
    offered = set(next_moves(replayed).cards)
    assert set(_codes(state.hands[seat])) <= offered  # the true hand is among them
    played = {CARD_CODES[a] for _, a in actions if is_card(a)}
    assert not offered & played
