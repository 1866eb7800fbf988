"""Fitting the hand model: the regression finds the weights that made the points."""

import math
from random import Random

from game.bots.auction import STYLE, Auction, model_action
from game.bots.hand_model import dot, suit_features
from game.engine.cards import functional_deck
from game.engine.knowledge import cards_of
from game.offline.calibration import BidSample, bid_likelihood, fit, fit_bidding


def test_the_fit_recovers_points_that_follow_the_features_exactly():
    rng = Random(1)
    deck = cards_of(functional_deck(4))
    truth = (0.5, 0.8, 0.0, 1.5, 0.3, 0.0, 0.7, 0.2, 0.9, 0.0, 0.6, 0.1, 0.1)
    samples = []
    for _ in range(400):
        hand = sum(1 << c for c in rng.sample(deck, 6))
        best = max(dot(truth, row) for row in suit_features(hand, 4))
        samples.append((hand, best))
    weights, spread = fit(samples, 4)
    for hand, points in samples[:50]:
        estimate = max(dot(weights, row) for row in suit_features(hand, 4))
        assert abs(estimate - points) < 0.35
    assert spread < 0.3


def test_the_bidding_fit_finds_the_shift_and_spread_that_made_the_bids():
    # seats that bid by the model from their hand's worth plus 0.5, give or take 0.8
    rng = Random(2)
    samples = []
    for _ in range(600):
        value, high, last = rng.uniform(0.5, 5.5), rng.choice((0, 0, 2, 3)), rng.random() < 0.3
        limit = value + 0.5 + rng.gauss(0.0, 0.8)
        action = model_action(limit, Auction(high, 0 if high else None), last, False)
        samples.append(BidSample(value, high, last, action))
    shift, style = fit_bidding(samples)
    assert abs(shift - 0.5) <= 0.2 and abs(style - 0.8) <= 0.2
    # the same choices are less likely under today's plain model than under the fitted one
    assert sum(math.log(bid_likelihood(s, shift, style)) for s in samples) > sum(
        math.log(max(1e-9, bid_likelihood(s, 0.0, STYLE))) for s in samples
    )
