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


# --- The Smear family's tables ----------------------------------------------------

import pytest  # noqa: E402

from game.bots import LEVELS, make_bot  # noqa: E402
from game.bots.basic import family_strength  # noqa: E402
from game.bots.levels import LEVELS_BY_NAME  # noqa: E402
from game.engine.cards import SUITS, cards_of  # noqa: E402
from game.engine.rules import Phase, discarded, trump_action  # noqa: E402
from game.engine.state import MatchSetup, MatchState, RoundState  # noqa: E402
from game.engine.variants import CLASSIC, PRESETS, SEVEN_POINT  # noqa: E402
from tests.game.engine.builders import cards, full_deal  # noqa: E402

FAMILY_TABLES = [
    table.with_options(**options)
    for table in PRESETS.values()
    if not table.is_house
    for options in ({}, {"follow": "schmier", "jick": not table.jick})
]


# the levels below the expert are one policy (game.bots.levels) with other settings: the
# one with the most errors stands for them here (tests/game/bots/test_levels.py has each)
WHOLE_MATCH_LEVELS = sorted(set(LEVELS) - {"casual", "club"})


@pytest.mark.parametrize("level", WHOLE_MATCH_LEVELS)
@pytest.mark.parametrize("table", FAMILY_TABLES, ids=lambda t: str(t.to_record()))
def test_every_bot_plays_whole_matches_of_every_preset_and_option_legally(level, table):
    rng = Random(len(level) + table.point_count)
    for players in table.players:
        for setup in MatchSetup.layouts(players, table):
            # a searching bot thinks briefly here: legality, not strength, is on trial
            searches = level.startswith("expert") or level in LEVELS_BY_NAME
            options = {"budget_ms": 10, "max_deals": 3} if searches else {}
            bots = [make_bot(level, **options) for _ in range(players)]
            match = MatchState(setup, first_dealer=rng.randrange(players))
            while not match.is_terminal() and len(match.rounds) < 12:
                match = match.deal_round(rng)
                while not match.round.is_terminal():
                    seat = match.current_player()
                    view = match.view_for(seat)
                    action = bots[seat].choose(view, view.legal_actions(), rng)
                    match = match.apply(action, seat)  # raises on an illegal action
            assert match.rounds


def family_round(hands: dict[int, list[str]], table=CLASSIC, dealer: int = 3) -> RoundState:
    setup = MatchSetup.partnerships(4, 2, rules=table)
    return RoundState(setup, full_deal(setup, hands, dealer=dealer))


def greedy(state: RoundState) -> int:
    view = state.view_for(state.current_player())
    return GreedyBot().choose(view, view.legal_actions(), Random(0))


STRONG_SPADES = ["AS", "2S", "JS", "KS", "9S", "3H", "4D", "5C", "10C"]


def test_greedy_names_the_suit_that_holds_its_ace_two_and_jack():
    assert family_strength(cards(*STRONG_SPADES), CLASSIC)[1] == SUITS.index("S")
    state = act(family_round({0: STRONG_SPADES}), "bid:3", "pass", "pass", "pass")
    assert greedy(state) == trump_action(SUITS.index("S"))


def test_greedy_bids_a_hand_holding_the_ace_and_two_and_passes_a_weak_one():
    state = family_round(
        {0: STRONG_SPADES, 1: ["3S", "4H", "5H", "6D", "7D", "8C", "2C", "9H", "6C"]}
    )
    assert greedy(state) != PASS  # seat 0 opens
    state = state.apply(bid_action(3))
    assert greedy(state) == PASS


def test_greedy_discards_its_lowest_plain_cards_and_keeps_its_trumps_and_tens():
    state = act(family_round({0: STRONG_SPADES}), "bid:3", "pass", "pass", "pass", "trump:S")
    while state.current_player() != 0:
        view = state.view_for(state.current_player())
        state = state.apply(GreedyBot().choose(view, view.legal_actions(), Random(0)))
    assert state.phase() is Phase.EXCHANGE
    thrown = discarded(greedy(state))
    assert sorted(card_code(c) for c in cards_of(thrown)) == ["3H", "4D", "5C"]


def test_greedy_discards_what_seven_point_makes_it_throw():
    hands = {1: ["AH", "KH", "2H", "3C", "4C", "5C", "6C", "7C", "8C"]}
    state = act(family_round(hands, SEVEN_POINT, dealer=0), "bid:4", "pass", "pass", "pass")
    state = state.apply(trump_action(SUITS.index("H")))
    assert discarded(greedy(state)) == cards("3C", "4C", "5C", "6C", "7C", "8C")


def test_greedy_leads_the_top_trump_to_draw_trump():
    state = act(family_round({0: STRONG_SPADES}), "bid:3", "pass", "pass", "pass", "trump:S")
    while state.phase() is Phase.EXCHANGE:
        state = state.apply(greedy(state))
    assert state.current_player() == 0 and card_code(greedy(state)) == "AS"
