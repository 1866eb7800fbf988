"""The rollouts' calibration: prices before the tricks set against the rounds they led to."""

from dataclasses import dataclass, replace
from random import Random

import pytest

from game.bots.auction import standing
from game.bots.basic import GreedyBot
from game.bots.expert import ExpertBot
from game.bots.rollouts import MATCH_WORTH, BidStyle, reach_chance
from game.bots.valuation import WIN_VALUE
from game.engine import variants
from game.engine.rules import PASS, Phase, is_bid
from game.offline.rollout_calibration import (
    BidChoice,
    Decision,
    by_price,
    fit,
    fit_bidding,
    free_bids,
    report,
    self_play,
    table_setup,
)

# a budget no decision reaches: the deals are counted, not timed, so runs repeat exactly
COUNTED = {"budget_ms": 1e7, "max_deals": 3}


@dataclass
class Shifted:
    """An expert whose every price is ``shift`` higher: the same choices, dearer."""

    shift: float
    inner: ExpertBot

    def analyse(self, view, legal, rng):
        analysis = self.inner.analyse(view, legal, rng)
        actions = tuple(replace(a, value=a.value + self.shift) for a in analysis.actions)
        return replace(analysis, actions=actions)


def _played(rules, rounds, bot, seed=3, target=None, reprice=False, players=None):
    return self_play(
        rules, rounds, seed=seed, bot=bot, card_bot=GreedyBot(), target=target,
        reprice=reprice, players=players,
    )  # fmt: skip


def test_a_bot_whose_prices_are_shifted_by_k_shows_a_bias_greater_by_k():
    rules = variants.preset("classic")
    plain, _ = _played(rules, 3, ExpertBot(**COUNTED))
    shifted, _ = _played(rules, 3, Shifted(1.5, ExpertBot(**COUNTED)))
    assert [d.realized for d in shifted] == [d.realized for d in plain]
    assert fit(shifted).bias == pytest.approx(fit(plain).bias + 1.5)
    assert fit(shifted).slope == pytest.approx(fit(plain).slope)
    low, high = fit(shifted).bias_95
    assert low < fit(shifted).bias < high


def test_outcomes_are_the_score_changes_of_the_rounds_played():
    rules = variants.preset("classic")
    decisions, matches = _played(rules, 8, ExpertBot(**COUNTED), target=5)
    rounds = [state for match in matches for state in match.rounds]
    assert len(rounds) == 8 and len(matches) > 1  # a match ended and the next began
    units = matches[0].setup.unit_of
    for d in decisions:
        state = rounds[d.round]
        unit = units[d.seat]
        gains = [a - b for a, b in zip(state.result.match_after, state.scores, strict=True)]
        worth = gains[unit] - gains[1 - unit]
        if state.result.winner is not None:
            worth += MATCH_WORTH if state.result.winner == unit else -MATCH_WORTH
        assert d.realized == worth
    # every round's auction was priced: each seat with a choice to make is counted
    kinds = {d.kind for d in decisions}
    assert {"bid", "pass", "trump", "discard"} <= kinds
    assert {d.round for d in decisions if d.kind in ("bid", "pass")} == set(range(8))
    figures = report(decisions)
    assert figures["all"]["decisions"] == len(decisions)
    assert figures["all"]["realized"] == pytest.approx(
        sum(d.realized for d in decisions) / len(decisions)
    )


def test_pricing_again_over_fresh_deals_leaves_the_rounds_as_they_were():
    rules = variants.preset("classic")
    plain, _ = _played(rules, 2, ExpertBot(**COUNTED))
    again, _ = _played(rules, 2, ExpertBot(**COUNTED), reprice=True)
    assert [replace(d, repriced=None) for d in again] == plain
    assert all(d.repriced is not None for d in again)
    # fresh deals give another price to some choice (three deals are noisy)
    assert any(d.repriced != d.predicted for d in again)
    figures = report(again)
    assert figures["repriced"]["all"]["decisions"] == len(again)
    assert figures["repriced"]["all"]["realized"] == figures["all"]["realized"]
    assert "repriced" not in report(plain)


def test_six_handed_prices_the_dealers_discard_and_both_sides_bids():
    decisions, matches = _played(variants.preset("six_handed"), 2, ExpertBot(**COUNTED))
    assert matches[0].setup.players == 6
    assert {matches[0].setup.unit_of[d.seat] for d in decisions} == {0, 1}
    dealers = {d.seat for d in decisions if d.kind == "discard"}
    assert dealers == {state.dealer for state in matches[0].rounds if not state.redealt}


def test_the_fit_reads_bias_and_slope_off_the_decisions():
    decisions = [
        Decision("bid", round=i // 2, seat=i % 4, predicted=x, realized=2 * x - 1)
        for i, x in enumerate([-3.0, -1.0, 0.0, 0.5, 2.0, 4.0, 5.0, 7.5])
    ]
    found = fit(decisions)
    mean = sum(d.predicted for d in decisions) / len(decisions)
    assert found.decisions == 8 and found.rounds == 4
    assert found.slope == pytest.approx(2.0)
    assert found.bias == pytest.approx(mean - (2 * mean - 1))
    # an exact line leaves nothing to doubt in the slope
    assert found.slope_95 == pytest.approx((2.0, 2.0))


def test_rounds_count_as_one_draw_in_the_interval():
    alone = [Decision("pass", i, 0, float(i % 3), 0.0) for i in range(12)]
    repeated = [replace(d, seat=seat) for d in alone for seat in range(4)]
    # four copies of each decision in its round say no more than one: the same interval
    assert fit(repeated).bias_95 == pytest.approx(fit(alone).bias_95)


def test_bins_split_the_decisions_by_price_lowest_first():
    decisions = [Decision("bid", i, 0, float(x), 0.0) for i, x in enumerate([5, 1, 3, 2, 4, 0])]
    groups = by_price(decisions, 3)
    assert [(low, high) for low, high, _ in groups] == [(0, 1), (2, 3), (4, 5)]
    assert sum(found.decisions for *_, found in groups) == len(decisions)


def test_at_three_house_players_the_auction_alone_is_priced_cutthroat_by_the_lead():
    decisions, matches = _played(variants.preset("house"), 4, ExpertBot(**COUNTED), players=3)
    assert matches[0].setup.teams == ((0,), (1,), (2,))
    assert {d.kind for d in decisions} <= {"bid", "pass"} and decisions
    rounds = [state for match in matches for state in match.rounds]
    for d in decisions:
        state = rounds[d.round]
        after, before = state.result.match_after, state.scores
        lead = after[d.seat] - max(s for u, s in enumerate(after) if u != d.seat)
        lead -= before[d.seat] - max(s for u, s in enumerate(before) if u != d.seat)
        winner = state.result.winner
        bonus = 0 if winner is None else WIN_VALUE if winner == d.seat else -WIN_VALUE
        assert d.realized == lead + bonus
        # a bid's chance of being made is known where some deal had it lead, and whether
        # it was made, where it led
        if d.kind == "bid" and d.made_chance is not None:
            assert 0.0 <= d.made_chance <= 1.0
            assert (d.made is not None) == (state.result.bidder_unit == d.seat)
        else:
            assert d.made is None
    assert any(d.made_chance is not None for d in decisions)


def test_the_bidding_fit_finds_the_style_that_made_the_choices():
    truth = BidStyle(0.5, 1.5, 0.8)
    rng = Random(0)
    choices = []
    for _ in range(1000):
        estimate, raise_to = rng.uniform(0, 3), rng.choice((2, 3, 4))
        judged = truth.scale * estimate + truth.shift + rng.gauss(0, truth.spread)
        choices.append(BidChoice(estimate, raise_to, raise_to if judged >= raise_to - 0.5 else 0))
    fitted, _ = fit_bidding(choices)
    for estimate in (0.5, 1.5, 2.5):
        for amount in (2, 3, 4):
            expected = reach_chance(truth, estimate, amount)
            assert reach_chance(fitted, estimate, amount) == pytest.approx(expected, abs=0.05)
    always = [BidChoice(rng.uniform(0, 3), 2, 2) for _ in range(50)]
    assert reach_chance(fit_bidding(always)[0], 0.0, 2) > 0.95


def test_the_free_bids_of_self_play_are_open_choices_with_no_partner_holding_the_bid():
    setup = table_setup(variants.PRESETS["classic"], 4, None)
    seen = list(free_bids(setup, 3, Random(1), budget_ms=5, play_ms=2))

    assert seen
    for view, action in seen:
        held = standing(view.auction).holder
        assert view.phase is Phase.AUCTION and view.bidder is None
        assert held is None or view.unit_of[held] != view.unit
        assert action == PASS or is_bid(action)
