"""Choices priced over the same deals."""

import pytest

from game.bots.pricing import Prices, mean_and_se, weighted_mean_and_se


@pytest.mark.parametrize("order", [[1, 2, 3], [1, 3, 2]])
def test_the_best_choice_has_the_best_weighted_mean(order):
    prices = Prices(order)
    prices.add({1: 0.0, 2: 4.0, 3: 1.0}, weight=1.0)
    prices.add({1: 6.0, 2: 0.0, 3: 1.0}, weight=3.0)
    assert prices.deals == 2
    assert prices.ranked() == order  # 4.5, then 1.0 twice: between equals the first listed
    assert prices.best() == 1


def test_no_deal_no_best():
    assert Prices([5, 6]).best() is None and Prices([5, 6]).figures() == []


def test_the_lead_over_a_choice_is_measured_deal_by_deal():
    prices = Prices([1, 2])
    for base in (0.0, 10.0, -7.0, 3.0):  # deals that move both choices alike
        prices.add({1: base + 1.0, 2: base})
    (best, mean, error, lead), (other, other_mean, _, other_lead) = prices.figures()
    assert (best, other) == (1, 2) and mean == pytest.approx(other_mean + 1.0)
    assert error > 3 and lead == 0.0 and other_lead == 0.0  # the lead is the same in every deal


def test_means_and_errors():
    assert mean_and_se([1.0, 3.0]) == (2.0, 1.0)
    assert mean_and_se([]) == (0.0, 0.0)
    mean, error = weighted_mean_and_se([1.0, 3.0, 3.0], [1.0, 1.0, 2.0])
    assert mean == pytest.approx(2.5) and error > 0
