"""A playout scores a full-deck round as the engine does."""

from random import Random

import pytest

from game.bots.playout import play_out
from game.engine.solver import position_of
from game.engine.variants import PRESETS
from tests.game.bots.test_full_deck import played_round

FAMILY = [table for table in PRESETS.values() if not table.is_house]


@pytest.mark.parametrize("table", FAMILY, ids=lambda t: t.preset)
@pytest.mark.parametrize("seed", range(8))
def test_the_last_trick_played_out_scores_as_the_engine_does(table, seed):
    players = 4 if 4 in table.players else max(table.players)
    state = played_round(table, seed, plays=5 * players + seed % players)
    points = play_out(position_of(state))
    rng = Random(seed)
    while not state.is_terminal():
        state = state.apply(rng.choice(state.legal_actions()))  # one card each: forced
    assert points == state.result.raw


@pytest.mark.parametrize("table", FAMILY, ids=lambda t: t.preset)
@pytest.mark.parametrize("seed", range(4))
def test_a_playout_from_the_first_trick_gives_out_at_most_the_rounds_points(table, seed):
    state = played_round(table, seed, plays=seed)
    points = play_out(position_of(state))
    assert len(points) == state.setup.units and min(points) >= 0
    assert sum(points) <= table.point_count
