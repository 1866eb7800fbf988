"""Glicko-2 against the worked example of Glickman's paper, and the trainer's use of it."""

import pytest

from game.players import glicko
from game.players.glicko import Rating, Result


def test_the_papers_worked_example_player_after_three_games():
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1),
        Result(Rating(1550, 100), 0),
        Result(Rating(1700, 300), 0),
    ]

    after = glicko.rate(player, results, tau=0.5)

    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_player_without_games_only_grows_less_certain():
    player = Rating(1500, 200, 0.06)

    after = glicko.rate(player, [])

    assert after.rating == 1500
    phi = 200 / glicko.SCALE
    assert after.deviation == pytest.approx(glicko.SCALE * (phi**2 + 0.06**2) ** 0.5)
    assert after.volatility == 0.06


def test_idle_time_grows_the_deviation_with_the_number_of_periods_but_not_past_a_newcomers():
    player = Rating(1600, 60, 0.06)

    assert glicko.after_idle(player, 0) == player
    one, ten = glicko.after_idle(player, 1), glicko.after_idle(player, 10)
    assert 60 < one.deviation < ten.deviation
    assert glicko.after_idle(player, 10**9).deviation == glicko.MAX_DEVIATION
    assert ten.rating == 1600


def test_a_win_raises_the_winner_and_lowers_the_loser_in_one_game():
    learner, position = Rating(1500, 350), Rating(1500, 200)

    learner_after, position_after = glicko.rate_game(learner, position, 1)

    assert learner_after.rating > 1500 > position_after.rating
    assert learner_after.deviation < 350
    # the less certain rating moves further
    assert learner_after.rating - 1500 > 1500 - position_after.rating


def test_beating_a_much_stronger_opponent_moves_a_rating_more_than_beating_a_weaker_one():
    learner = Rating(1500, 100)
    strong = glicko.rate(learner, [Result(Rating(1900, 100), 1)])
    weak = glicko.rate(learner, [Result(Rating(1100, 100), 1)])

    assert strong.rating - 1500 > weak.rating - 1500 > 0


def test_expected_score_is_a_half_between_equals_and_symmetric():
    a, b = Rating(1500, 100), Rating(1700, 100)

    assert glicko.expected_score(a, a) == pytest.approx(0.5)
    assert glicko.expected_score(a, b) + glicko.expected_score(b, a) == pytest.approx(1)
    assert glicko.expected_score(a, b) < 0.5


def test_the_expected_share_between_two_ratings_reckons_both_deviations_and_sums_to_one():
    a, b = Rating(1500, 30), Rating(1700, 30)
    unsure = Rating(1500, 300)

    assert glicko.expected_between(a, b) + glicko.expected_between(b, a) == pytest.approx(1)
    assert glicko.expected_between(a, b) == pytest.approx(1 / (1 + 10 ** (200 / 400)), abs=0.005)
    # the less certain a rating, the nearer a half its prediction
    assert glicko.expected_between(a, b) < glicko.expected_between(unsure, b) < 0.5


def test_the_95_percent_interval_spans_1_96_deviations_either_side():
    low, high = Rating(1464.06, 151.52).interval95

    assert low == pytest.approx(1464.06 - 296.98, abs=0.01)
    assert high == pytest.approx(1464.06 + 296.98, abs=0.01)


def test_a_period_among_a_pool_rates_each_against_the_others_ratings_from_before():
    pool = {"a": Rating(1500, 200), "b": Rating(1400, 30), "c": Rating(1550, 100)}
    games = [("a", "b", 1), ("c", "a", 1)]

    after = glicko.rate_period(pool, games)

    # the paper's player, against two of its three opponents, each rated from before
    assert after["a"] == glicko.rate(pool["a"], [Result(pool["b"], 1), Result(pool["c"], 0)])
    assert after["b"] == glicko.rate(pool["b"], [Result(pool["a"], 0)])
    assert after["c"].rating > 1550


def test_a_pool_member_without_a_game_in_the_period_only_grows_less_certain():
    pool = {"a": Rating(1500, 200), "b": Rating(1400, 30), "idle": Rating(1600, 80)}

    after = glicko.rate_period(pool, [("a", "b", 0.5)])

    assert after["idle"].rating == 1600
    assert after["idle"].deviation > 80
