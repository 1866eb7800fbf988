"""The expert: exact search over sampled deals, priced in match value."""

from random import Random
from types import SimpleNamespace

import pytest

from game.bots import make_bot
from game.bots.expert import ExpertBot, _AuctionTable, _play_stats
from game.bots.hand_model import hand_model
from game.bots.valuation import split_standing_value, standing_value
from game.engine.rules import PASS, bid_action, is_bid
from game.engine.solver import native_available
from game.engine.state import MatchSetup, RoundState, shuffle_deal
from game.engine.variants import PRESETS
from tests.game.engine.builders import act, auction_won_by, round_with
from tests.game.engine.test_state import SCRIPT, SCRIPTED_HANDS
from tests.game.engine.test_worlds import before_play

REPEATABLE = {"budget_ms": 1e9, "max_deals": 6}


def test_the_expert_takes_the_last_tricks_it_can_see_are_its_own():
    # 3 players, scripted round up to trick 5: seat 1 leads KH with only hearts/diamonds left
    state = act(round_with(SCRIPTED_HANDS, players=3, dealer=2), *SCRIPT[:15])
    seat = state.current_player()
    analysis = ExpertBot(**REPEATABLE).analyse(
        state.view_for(seat), state.legal_actions(), Random(1)
    )
    assert {s.action for s in analysis.actions} == set(state.legal_actions())
    assert analysis.deals == 6 and analysis.complete
    assert analysis.actions[0].value >= analysis.actions[-1].value


def test_the_analysis_prices_every_card_with_points_bid_chances_and_a_line():
    state = act(auction_won_by(round_with({}, players=4, dealer=0), seat=1, amount=3))
    seat = state.current_player()
    legal = state.legal_actions()
    analysis = ExpertBot(**REPEATABLE).analyse(state.view_for(seat), legal, Random(2))
    assert analysis.best in legal
    for stats in analysis.actions:
        assert 0.0 <= stats.made <= 1.0
        assert stats.value_se >= 0.0
        assert 0.0 <= stats.points[0] <= 6.0 and 0.0 <= stats.points[1] <= 6.0
    # the line starts with the best card and plays out the rest of the round in one deal
    assert analysis.line[0] == (seat, analysis.best)
    assert len(analysis.line) == 24
    assert sum(hand.bit_count() for hand in analysis.line_deal) == 24


def test_the_expert_bids_only_legal_amounts_and_opens_when_forced():
    state = act(round_with({}, players=4, dealer=3), "pass", "pass", "pass")
    dealer = state.view_for(3)
    bot = ExpertBot(**REPEATABLE)
    choice = bot.choose(dealer, state.legal_actions(), Random(3))
    assert is_bid(choice)
    analysis = bot.analyse(dealer, state.legal_actions(), Random(3))
    assert analysis.deals == 6
    assert all(s.made is not None for s in analysis.actions)


def test_the_last_to_bid_prefers_a_bid_it_can_make_over_one_it_cannot():
    middling = {3: ["AS", "9S", "10D", "KC", "QH", "JH"]}  # spades give high and low
    state = act(round_with(middling, players=4, dealer=3), "pass", "pass", "pass")
    bot = ExpertBot(**REPEATABLE)
    analysis = bot.analyse(state.view_for(3), state.legal_actions(), Random(4))
    by_action = {s.action: s for s in analysis.actions}
    assert by_action[bid_action(2)].made > by_action[bid_action(6)].made
    assert by_action[bid_action(2)].value > by_action[bid_action(6)].value
    assert all(s.auction.lead == 1.0 for s in analysis.actions)  # nobody is left to bid


def test_first_to_bid_with_a_sure_hand_the_expert_bids_more_than_the_minimum():
    # high, low, jack and game are certain with spades trump: a bid of 1 invites an overbid
    sure = {0: ["AS", "KS", "QS", "JS", "10S", "9S"]}
    state = round_with(sure, players=4, dealer=3)
    legal = state.legal_actions()
    choice = ExpertBot(budget_ms=1e9, max_deals=40).choose(state.view_for(0), legal, Random(2))
    assert choice in (bid_action(5), bid_action(6))
    analysis = ExpertBot(budget_ms=1e9, max_deals=40).analyse(state.view_for(0), legal, Random(2))
    by_action = {s.action: s for s in analysis.actions}
    assert by_action[bid_action(1)].auction.outbid > by_action[bid_action(6)].auction.outbid
    assert by_action[PASS].auction.lead < 1.0
    assert by_action[PASS].auction.others_made is not None  # what the others then make


def test_expert_v1_still_bids_the_minimum_it_can_make():
    sure = {0: ["AS", "KS", "QS", "JS", "10S", "9S"]}
    state = round_with(sure, players=4, dealer=3)
    bot = make_bot("expert-v1", budget_ms=1e9, max_deals=20)
    assert bot.name == "expert-v1"
    assert bot.choose(state.view_for(0), state.legal_actions(), Random(2)) == bid_action(1)


@pytest.mark.parametrize("players", [3, 8])
def test_the_expert_plays_whole_rounds_at_small_and_big_tables(players):
    setup = MatchSetup.cutthroat(3) if players == 3 else MatchSetup.partnerships(8, 4)
    bot = ExpertBot(budget_ms=20, max_deals=3)
    rng = Random(players)
    state = RoundState(setup, shuffle_deal(setup, 0, rng))
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        choice = bot.choose(state.view_for(seat), legal, rng)
        assert choice in legal
        state = state.apply(choice, seat)
    assert sum(state.result.raw) >= 2  # high and low at least


def test_an_auction_at_eight_players_is_priced_even_when_the_time_is_nearly_gone():
    setup = MatchSetup.partnerships(8, 2)
    state = RoundState(setup, shuffle_deal(setup, 0, Random(8)))
    seat = state.current_player()
    analysis = ExpertBot(budget_ms=1).analyse(
        state.view_for(seat), state.legal_actions(), Random(1)
    )
    assert analysis.deals >= 1  # the hand model answers for a deal the search cannot finish
    assert {s.action for s in analysis.actions} == set(state.legal_actions())
    assert all(s.auction is not None for s in analysis.actions)


@pytest.mark.skipif(not native_available(), reason="estimates need the native core")
def test_at_eight_seats_a_first_lead_with_no_time_for_an_exact_deal_is_estimated_not_greedy():
    setup = MatchSetup.partnerships(8, 2)
    state = auction_won_by(RoundState(setup, shuffle_deal(setup, 0, Random(8))), 1)
    view, legal = state.view_for(state.current_player()), state.legal_actions()
    hurried = ExpertBot(budget_ms=0.01)
    analysis = hurried.analyse(view, legal, Random(1), detailed=False)
    assert analysis.estimated and analysis.deals >= 1
    assert {s.action for s in analysis.actions} == set(legal)
    # a detailed analysis (what the trainer shows) is never an estimate
    assert not hurried.analyse(view, legal, Random(1), detailed=True).estimated


def test_an_analysis_ends_at_the_first_checkpoint_its_caller_calls_settled():
    auction = RoundState(MatchSetup.partnerships(4, 2), shuffle_deal(
        MatchSetup.partnerships(4, 2), 0, Random(6)))  # fmt: skip
    play = auction_won_by(round_with({}, players=4, dealer=0), seat=1, amount=3)
    for state in (auction, play):
        view, legal = state.view_for(state.current_player()), state.legal_actions()
        bot = ExpertBot(budget_ms=1e9, max_deals=50)
        asked = []

        def settled(analysis, expected, asked=asked):
            asked.append((analysis.deals, expected, {s.action for s in analysis.actions}))
            return len(asked) == 2

        analysis = bot.analyse(view, legal, Random(2), settled=settled)
        # 16 deals, then half as many again: the second checkpoint ends it
        assert [deals for deals, _, _ in asked] == [16, 24]
        assert analysis.deals == 24 and analysis.complete
        assert all(expected == 50 and actions == set(legal) for _, expected, actions in asked)
        assert bot.analyse(view, legal, Random(2), settled=lambda a, e: False).deals == 50


def test_the_margins_error_is_paired_over_the_deals_every_card_was_priced_on():
    # the ace takes one more point than the king in every deal, however good the deal
    ace = [3.0, 1.0, 5.0, 2.0, 4.0]
    batch = SimpleNamespace(cards=(10, 11), values=[(a, a - 1.0) for a in ace])
    best, second = _play_stats(batch, [11, 10], lambda v: (v, None, None, None), None)

    assert (best.action, second.action) == (10, 11)
    assert second.value == pytest.approx(best.value - 1.0)
    assert best.margin_se == 0.0 and second.margin_se == pytest.approx(0.0)
    assert best.value_se > 0.5  # each alone is uncertain; their difference is not


@pytest.mark.parametrize("preset", ["classic", "six_handed", "seven_point"])
def test_the_expert_analyses_a_full_deck_choice_as_it_plays_it(preset):
    bot = ExpertBot(budget_ms=1e9, max_deals=4)
    for state in before_play(PRESETS[preset], 5)[:6]:
        view, legal = state.view_for(state.current_player()), state.legal_actions()
        analysis = bot.analyse(view, legal, Random(9))
        assert analysis.deals == 4 and analysis.complete
        values = [stats.value for stats in analysis.actions]
        assert values == sorted(values, reverse=True)
        assert analysis.best == bot.choose(view, legal, Random(9))


def test_at_three_seats_the_expert_judges_the_later_seats_as_it_bids_and_expert_v2_did_not():
    state = round_with({}, players=3, dealer=2)
    view, legal = state.view_for(0), state.legal_actions()
    fitted = hand_model(3, 0)
    assert fitted.bid_style is not None  # calibration --bids fitted the expert's bidding
    honest = _AuctionTable(view, legal, own_bidding=True, split=True)
    assert honest.styles == {s: (fitted.bid_shift, fitted.bid_style) for s in range(3)}
    assert honest.worth is split_standing_value
    today = _AuctionTable(view, legal)
    assert today.styles == {} and today.worth is standing_value
    assert make_bot("expert-v2").name == "expert-v2" and make_bot("expert").version == 3
