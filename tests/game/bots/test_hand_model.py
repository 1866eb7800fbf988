"""The hand model: what a hand is worth to its leader, from the hand alone."""

import pytest

from game.bots.hand_model import FEATURES, hand_model, suit_features
from game.engine.cards import mask_of, parse_card
from game.engine.state import MatchSetup


def hand(*codes: str) -> int:
    return mask_of(parse_card(code) for code in codes)


@pytest.mark.parametrize("players", range(3, 9))
def test_every_usual_layout_has_a_model_and_a_strong_hand_beats_a_weak_one(players):
    strong = hand("AS", "KS", "QS", "JS", "10S", "J1")
    weak = hand("10H", "JD", "QC", "KH", "10D", "JC")
    for setup in MatchSetup.layouts(players):
        model = hand_model(players, len(setup.teams[0]) - 1)
        assert model.value(strong, players) > model.value(weak, players) + 0.5


def test_a_hand_has_one_row_per_suit_it_could_lead_as_trump():
    rows = suit_features(hand("AS", "2S", "KH", "J1", "J2", "10D"), players=8)
    assert len(rows) == 3
    spades = dict(zip(FEATURES, rows[0], strict=True))
    assert spades["trumps"] == 2 and spades["ace"] == 1 and spades["lowest"] == 0
    assert spades["jokers"] == 2 and spades["side_tens"] == 1
    eight_low = dict(zip(FEATURES, suit_features(hand("3S", "AS"), 8)[0], strict=True))
    assert eight_low["lowest"] == 1  # the 3 is the lowest spade in the 8-player deck


def test_the_tabled_value_is_the_best_suit_row_weighted():
    from random import Random

    from game.bots.hand_model import dot
    from game.engine.cards import cards_of, functional_deck

    rng = Random(3)
    for players in (3, 5, 8):
        model = hand_model(players, 0)
        deck = cards_of(functional_deck(players))
        for _ in range(200):
            h = mask_of(rng.sample(deck, 6))
            rows = suit_features(h, players)
            assert (
                abs(model.exact_value(h, players) - max(dot(model.weights, r) for r in rows)) < 1e-9
            )
