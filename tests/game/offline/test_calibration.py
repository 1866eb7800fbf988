"""Fitting the hand model: the regression finds the weights that made the points."""

from random import Random

from game.bots.hand_model import dot, suit_features
from game.engine.cards import functional_deck
from game.engine.knowledge import cards_of
from game.offline.calibration import fit


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
