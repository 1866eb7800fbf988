"""The analysis of one decision: which are worth keeping, when an analysis is settled,
the quick look before a dear one, and the options it stores."""

from dataclasses import dataclass, replace
from random import Random
from types import SimpleNamespace

from game.bots.basic import GreedyBot
from game.bots.expert import ActionStats, ExpertBot
from game.engine.rules import PASS, bid_action
from game.engine.state import MatchSetup, MatchState
from learn.core import analysis as core_analysis
from learn.core.analysis import Budget, Keep
from tests.learn.fixtures.factories import options, outcome

# --- The filter ----------------------------------------------------------------------


def test_a_clear_best_is_kept():
    assert Keep().accepts(options(("AS", 2.0), ("KS", 1.0), se=0.1), deals=20)


def test_a_forced_or_level_decision_is_not_kept():
    assert not Keep().accepts(options(("AS", 2.0), se=0.1), deals=20)
    assert not Keep().accepts(options(("AS", 2.0), ("KS", 2.0), se=0.1), deals=20)


def test_a_margin_under_the_threshold_is_not_kept():
    assert not Keep(min_margin=0.3).accepts(options(("AS", 2.0), ("KS", 1.8), se=0.01), 20)


def test_a_margin_inside_the_sampling_error_is_not_kept():
    # 1.0 apart, but each value is uncertain by 0.5: 1.0 < 2 * hypot(0.5, 0.5)
    assert not Keep(z=2.0).accepts(options(("AS", 2.0), ("KS", 1.0), se=0.5), deals=20)


def test_a_margin_beyond_its_paired_error_is_kept_though_the_two_errors_overlap():
    # both priced on the same deals: the best leads by about 1.0 in every one of them
    best, second = options(("AS", 2.0), ("KS", 1.0), se=0.5)
    paired = (replace(best, margin_se=0.0), replace(second, margin_se=0.2))
    assert Keep(z=2.0).accepts(paired, deals=20)
    assert not Keep(z=2.0).accepts((best, replace(second, margin_se=0.6)), deals=20)


def test_too_few_sampled_deals_are_not_kept():
    assert not Keep(min_deals=8).accepts(options(("AS", 2.0), ("KS", 0.0), se=0.0), deals=3)


def searched_calls(*pairs: tuple[str, float], made: float | None) -> tuple:
    """Calls as the search of the rest of the auction prices them; ``made`` is each bid's
    chance once it wins the auction."""
    found = options(*pairs, se=0.05)
    return tuple(
        replace(o, auction=replace(outcome(o.code), made=None if o.code == "pass" else made))
        for o in found
    )


def test_passing_when_every_bid_is_hopeless_is_no_lesson():
    assert not Keep().accepts(searched_calls(("pass", 0.5), ("bid:4", -5.0), made=0.1), 20)
    assert Keep().accepts(searched_calls(("pass", 0.5), ("bid:4", -5.0), made=0.6), 20)


def test_a_searched_pass_that_is_best_by_a_margin_is_kept():
    # the bids would be made, but the seats after them take the auction or its points
    calls = searched_calls(("pass", -0.2), ("bid:2", -1.1), ("bid:3", -2.5), made=0.7)
    assert Keep().accepts(calls, deals=60)
    # a bid that never wins the auction has no chance of being made: no evidence either way
    never_leads = searched_calls(("pass", -0.2), ("bid:2", -1.1), made=None)
    assert Keep().accepts(never_leads, deals=60)


def test_a_call_priced_without_the_rest_of_the_auction_is_not_kept():
    # the old analysis: a pass worth a constant 0.5 and no outcome behind any call
    old = options(("pass", 0.5), ("bid:4", -5.0), se=0.0, made=0.6)
    assert not Keep().accepts(old, deals=20)
    assert Keep(priced_calls=False).accepts(old, deals=20)
    assert Keep().accepts(options(("AS", 2.0), ("KS", 1.0), se=0.1), deals=20)  # cards: no calls


# --- Ending an analysis once its verdict is settled --------------------------------------


def test_an_analysis_kept_far_beyond_its_error_is_settled_once_it_has_enough_deals():
    clear = options(("AS", 2.0), ("KS", 1.0), se=0.1)  # 1.0 apart, error 0.14: 7 errors
    assert Keep(settle_z=4.0, settle_kept_deals=36).settled(clear, deals=36, expected=120)
    assert not Keep(settle_z=4.0, settle_kept_deals=36).settled(clear, deals=24, expected=120)
    # 1.0 apart with an error of 0.35: kept today, but not yet beyond doubt
    assert not Keep(settle_z=4.0).settled(options(("AS", 2.0), ("KS", 1.0), se=0.25), 36, 120)


def test_an_analysis_short_of_the_margin_even_given_the_doubt_is_settled():
    # 0.1 apart, error 0.07: at best 0.24 < 0.3
    short = options(("AS", 2.0), ("KS", 1.9), se=0.05)
    assert Keep(settle_dropped_deals=16).settled(short, deals=16, expected=120)
    assert not Keep(settle_dropped_deals=16).settled(short, deals=12, expected=120)


def test_an_analysis_whose_budget_cannot_shrink_the_error_enough_is_settled():
    # 1.0 apart with an error of 1.41: the 24 deals the budget reaches shrink it to 1.15;
    # a margin drifting up by one deviation (0.82) still falls short of 2 x 1.15
    wide = options(("AS", 2.0), ("KS", 1.0), se=1.0)
    assert Keep().settled(wide, deals=16, expected=24)
    # with many more deals to come, it is worth going on
    assert not Keep().settled(wide, deals=16, expected=1600)


def test_a_forced_or_hopeless_decision_is_settled_and_a_close_one_goes_on():
    assert Keep().settled(options(("AS", 2.0), se=0.1), deals=16, expected=120)
    hopeless = searched_calls(("pass", 0.5), ("bid:4", -5.0), made=0.1)
    assert Keep().settled(hopeless, deals=16, expected=120)
    close = options(("AS", 2.0), ("KS", 1.6), se=0.2)  # 0.4 apart, error 0.28: wait and see
    assert not Keep().settled(close, deals=24, expected=120)


def test_a_settled_analysis_stops_before_its_deal_limit_and_an_open_one_does_not(monkeypatch):
    state = MatchState(MatchSetup.partnerships(4, 2), 0).deal_round(Random(5))
    while state.current_player() is not None and state.round.bidder is None:
        state = state.apply(GreedyBot().choose(state.view_for(state.current_player()),
                                               state.legal_actions(), Random(0)))  # fmt: skip
    view = state.view_for(state.current_player())
    analyst = ExpertBot(budget_ms=1e9, max_deals=40)
    seen = []

    def settled_at_once(options, deals, expected):
        seen.append((deals, expected))
        return True

    monkeypatch.setattr(Keep, "settled", lambda self, *args: settled_at_once(*args))
    analysis, _ = core_analysis.price(view, analyst, Random(1), Keep())
    assert analysis.deals == seen[0][0] < 40 and seen == [(analysis.deals, 40)]
    monkeypatch.setattr(Keep, "settled", lambda self, *args: False)
    assert core_analysis.price(view, analyst, Random(1), Keep())[0].deals == 40


# --- The quick look before a dear analysis ---------------------------------------------


def test_a_quick_look_with_a_clear_margin_is_worth_the_long_analysis():
    assert Keep().promising(options(("AS", 2.0), ("KS", 1.0), se=0.3), deals=12, expected=120)


def test_a_quick_look_that_cannot_reach_the_margin_even_given_the_doubt_is_dropped():
    # 0.1 apart, each value uncertain by 0.05: at best 0.1 + 2 * 0.07 < 0.3
    assert not Keep().promising(options(("AS", 2.0), ("KS", 1.9), se=0.05), 12, 120)
    assert Keep().promising(options(("AS", 2.0), ("KS", 1.9), se=0.2), 12, 120)


def test_a_quick_look_that_finds_two_options_level_or_too_few_deals_is_dropped():
    level = options(("QC", -3.98), ("KC", -3.98), ("7D", -4.2), se=0.34)
    assert not Keep().promising(level, deals=23, expected=120)
    clear = options(("AS", 2.0), ("KS", 0.0), se=0.1)
    assert not Keep().promising(clear, deals=1, expected=120)
    assert not Keep(min_deals=8).promising(clear, deals=12, expected=7)
    assert not Keep().promising(searched_calls(("pass", 0.5), ("bid:4", -5.0), made=0.1), 12, 120)


def test_only_a_dear_analysis_gets_a_quick_look_first():
    budget = Budget()
    assert budget.screener(ExpertBot(budget_ms=40, max_deals=120)) is None
    assert budget.screener(ExpertBot(budget_ms=1e9, max_deals=4)) is None  # no room for a look
    look = budget.screener(ExpertBot(budget_ms=20_000, max_deals=120))
    assert look.budget_ms == 2000 and look.max_deals == budget.screen_deals


# --- Options from the analysis -------------------------------------------------------------


@dataclass(frozen=True)
class SearchedStats:
    """ActionStats as the expert's search of the rest of the auction reports them."""

    action: int
    value: float
    value_se: float
    points: tuple[float, float] | None
    made: float | None
    auction: SimpleNamespace | None = None
    margin_se: float | None = None


def test_an_auction_option_keeps_its_outcome_and_a_searched_pass_its_points():
    searched = SimpleNamespace(
        lead=0.2, outbid=0.0, winning_bid=2.4567, made=0.51234, others_made=0.7, others_points=2.9
    )
    option = core_analysis._option(
        SearchedStats(PASS, 0.4, 0.1, (1.0, 2.0), None, searched, margin_se=0.04567), "auction"
    )
    assert option.code == "pass" and option.points == (1.0, 2.0)
    assert option.margin_se == 0.046
    assert option.auction.lead == 0.2 and option.auction.winning_bid == 2.46
    assert option.auction.made == 0.512 and option.auction.others_points == 2.9


def test_an_older_analysis_gives_no_outcome_and_a_pass_no_points():
    old = ActionStats(PASS, 0.5, 0.0, (0, 0), None)
    assert core_analysis._option(old, "auction").points is None
    assert core_analysis._option(old, "auction").auction is None
    bid = core_analysis._option(ActionStats(bid_action(2), 0.3, 0.1, (2.5, 2.5), 0.8), "auction")
    assert bid.points == (2.5, 2.5) and bid.auction is None


def test_a_quick_look_prices_the_opening_lead_as_the_full_analysis_does_without_points():
    state = MatchState(MatchSetup.partnerships(4, 2), 0).deal_round(Random(5))
    while state.round.in_auction():
        state = state.apply(GreedyBot().choose(state.view_for(state.current_player()),
                                               state.legal_actions(), Random(0)))  # fmt: skip
    view = state.view_for(state.current_player())
    analyst = ExpertBot(budget_ms=1e9, max_deals=8)
    _, detailed = core_analysis.price(view, analyst, Random(1))
    _, look = core_analysis.price(view, analyst, Random(1), detailed=False)
    assert [(o.code, o.value) for o in look] == [(o.code, o.value) for o in detailed]
    assert len({o.value for o in look}) > 1  # the leads differ: the comparison says something
    assert all(o.points is None for o in look) and all(o.points is not None for o in detailed)
