"""Sampled deals fit what the seat has seen, and the real deal always fits too."""

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.bots.sampling import knowledge, sample_hands, sample_position
from game.engine.cards import JOKERS, SUIT_MASK
from game.engine.state import MatchSetup
from tests.game.engine.builders import act, auction_won_by, round_with
from tests.game.engine.test_properties import random_states, setups


@settings(max_examples=60, deadline=None)
@given(setups(), st.integers(0, 2**32), st.integers(0, 60))
def test_the_real_deal_never_contradicts_what_a_seat_inferred(setup, seed, cut):
    states = random_states(setup, seed)
    state = states[min(cut, len(states) - 1)]
    for seat in range(setup.players):
        known = knowledge(state.view_for(seat))
        for other, hand in enumerate(state.hands):
            assert not hand & known.barred[other], "an inferred void is wrong"
            if other != seat:
                assert known.needs[other] == hand.bit_count()


@settings(max_examples=60, deadline=None)
@given(setups(), st.integers(0, 2**32), st.integers(0, 60))
def test_sampled_hands_hold_the_right_counts_of_unseen_cards_and_respect_voids(setup, seed, cut):
    states = random_states(setup, seed)
    state = states[min(cut, len(states) - 1)]
    seat = state.current_player() if state.current_player() is not None else 0
    view = state.view_for(seat)
    known = knowledge(view)
    hands = sample_hands(view, known, Random(seed))
    assert hands[seat] == view.hand
    placed = 0
    for other, hand in enumerate(hands):
        assert not placed & hand
        placed |= hand
        if other != seat:
            assert hand.bit_count() == state.hands[other].bit_count()
            assert not hand & known.barred[other]
            assert not hand & ~view.unseen
    assert (view.unseen & ~placed).bit_count() == view.hidden_count


def test_a_plain_card_on_a_trump_lead_shows_no_trump_and_no_joker():
    hands = {0: ["AS", "9S", "10H", "KH", "9D", "QC"], 1: ["AH", "KD", "QD", "JD", "10D", "9C"]}
    state = act(auction_won_by(round_with(hands, dealer=3), seat=0), "AS", "KD")
    barred = knowledge(state.view_for(2)).barred[1]
    assert barred == SUIT_MASK[0] | JOKERS


def test_a_plain_card_on_a_plain_lead_shows_a_void_in_the_suit_led():
    hands = {
        0: ["AS", "9S", "10H", "KH", "9D", "QC"],
        1: ["JS", "10S", "QS", "KS", "AC", "KC"],
        2: ["9H", "JH", "QH", "AH", "10C", "JC"],
        3: ["AD", "KD", "QD", "JD", "10D", "J1"],
    }
    state = act(auction_won_by(round_with(hands, dealer=3), seat=0), "AS", "10S", "AH", "J1")
    state = act(state, "9D")  # seat 0 won the spade trick and leads a diamond
    state = act(state, "AC")  # seat 1, no diamonds
    known = knowledge(state.view_for(3))
    assert known.barred[1] & SUIT_MASK[2] == SUIT_MASK[2]
    assert known.barred[2] == SUIT_MASK[0] | JOKERS  # AH on the AS lead: no trump, no joker


def test_a_sampled_position_keeps_the_current_trick_and_the_cards_taken():
    states = random_states(MatchSetup.partnerships(4, 2), 3)
    state = next(s for s in states if len(s.trick) == 2 and s.trick_winners)
    view = state.view_for(state.current_player())
    position = sample_position(view, knowledge(view), Random(1))
    assert position.trick == state.trick
    assert position.leader == state.leader
    assert position.taken == state.captured
    assert position.to_act == state.current_player()
    assert position.legal() == state.legal_mask()
