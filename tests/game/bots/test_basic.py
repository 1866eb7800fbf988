"""The greedy bot's one-trick rules, on exact positions."""

from random import Random

from game.bots.basic import GreedyBot, RandomBot, hand_strength
from game.engine.cards import card_code, parse_card
from game.engine.rules import PASS, bid_action
from tests.game.engine.builders import act, auction_won_by, round_with

# Hearts will be trump once seat 0 leads AH; 9H and 10H are still out.
HANDS = {
    0: ["AH", "KH", "9S", "10S", "QC", "KC"],
    1: ["JH", "9H", "AS", "KS", "10D", "JD"],
    2: ["QH", "10C", "QS", "JS", "AD", "KD"],
    3: ["10H", "9C", "JC", "AC", "QD", "9D"],
}


def greedy_choice(state) -> str:
    seat = state.current_player()
    return card_code(GreedyBot().choose(state.view_for(seat), state.legal_actions(), Random(0)))


def opened(*plays):
    return act(auction_won_by(round_with(HANDS, dealer=3), seat=0), *plays)


def test_greedy_leads_its_strongest_suit_to_set_trump():
    assert greedy_choice(opened()) == "AH"


def test_greedy_protects_the_jack_when_a_higher_trump_is_out():
    # AH led; seat 1 holds JH and 9H: the jack would fall, so it plays the 9
    assert greedy_choice(opened("AH")) == "9H"


def test_greedy_feeds_game_points_to_a_partner_who_has_won_the_trick():
    # seats 1 and 3 are partners; seat 3 plays last and seat 1 has won with AS
    state = opened("AH", "9H", "QH", "10H", "9S", "AS", "QS")
    assert state.current_player() == 3
    assert greedy_choice(state) == "AC"


def test_greedy_dumps_its_cheapest_card_when_it_cannot_win():
    # partner's 10S is beaten by KS; seat 2 must follow spades and cannot win
    state = opened("AH", "9H", "QH", "10H", "10S", "KS")
    assert state.current_player() == 2
    assert greedy_choice(state) == "JS"


def test_greedy_wins_cheaply_without_trump_when_it_can():
    state = opened("AH", "9H", "QH", "10H", "QC")
    # seat 1: no clubs, so anything goes; it must not waste its jack of trump on a queen
    assert greedy_choice(state) != "JH"


def test_greedy_opens_the_bidding_when_it_must_and_passes_a_weak_hand():
    state = round_with(HANDS, dealer=3)
    view = state.view_for(0)
    strength, suit = hand_strength(view.hand, 4)
    assert suit == 1 and strength >= 1  # hearts
    state = act(state, "pass", "pass", "pass")
    choice = GreedyBot().choose(state.view_for(3), state.legal_actions(), Random(0))
    assert choice != PASS and choice in [bid_action(n) for n in range(1, 7)]


def test_random_bot_only_plays_legal_actions():
    state = opened("AH")
    legal = state.legal_actions()
    rng = Random(3)
    assert all(RandomBot().choose(state.view_for(1), legal, rng) in legal for _ in range(20))
    assert parse_card("AS") not in legal
