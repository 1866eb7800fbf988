"""The ladder's schedule and its ratings: pure, no database."""

from collections import Counter

import pytest

from game.offline import ladder
from game.offline.ladder import LadderGame, Result


def test_a_round_gives_every_pair_the_same_deals_twice_with_the_sides_swapped():
    games = ladder.schedule(["a", "b", "c"], "house", 11, rounds=1)

    assert sorted(g.lineup for g in games) == [
        ("a", "b"), ("a", "c"), ("b", "a"), ("b", "c"), ("c", "a"), ("c", "b"),
    ]  # fmt: skip
    deals = {g.lineup: g.seed for g in games}
    assert deals["a", "b"] == deals["b", "a"] != deals["a", "c"]
    sides = Counter((level, side) for g in games for side, level in enumerate(g.lineup))
    assert set(sides.values()) == {2}  # every level twice on each side


def test_a_longer_schedule_starts_with_the_shorter_ones_games_under_the_same_keys():
    short = ladder.schedule(ladder.LEVELS, "classic", 11, rounds=2)
    longer = ladder.schedule(ladder.LEVELS, "classic", 11, rounds=3)

    assert longer[: len(short)] == short
    assert len({g.key for g in longer}) == len(longer)


def test_the_deals_differ_by_preset_target_and_seed():
    def seed(**kwargs):
        options = {"preset": "house", "target": 11, "rounds": 1, "seed": 0, **kwargs}
        return ladder.schedule(["a", "b"], **options)[0].seed

    assert len({seed(), seed(preset="classic"), seed(target=21), seed(seed=1)}) == 4


def test_a_ladder_needs_two_levels():
    with pytest.raises(ValueError, match="two different levels"):
        ladder.schedule(["club", "club"], "house", 11, rounds=1)


def test_every_preset_is_laddered_by_two_sides_at_its_usual_size():
    sizes = {preset: ladder.setup_for(preset).players for preset in ladder.PRESETS}

    assert sizes == {"house": 4, "classic": 4, "six_handed": 6, "seven_point": 4}
    assert all(len(ladder.setup_for(preset, 11).teams) == 2 for preset in ladder.PRESETS)


def _results(levels, rounds, winner_of):
    """Every scheduled match won by ``winner_of(lineup)``."""
    out = []
    for g in ladder.schedule(levels, "house", 11, rounds):
        out.append(Result(g.key, g.round, g.lineup, winner_of(g.lineup), 10))
    return out


def test_the_level_that_wins_every_match_is_rated_first_and_greedy_anchors_the_scale():
    strength = {"beginner": 0, "greedy": 1, "expert": 2}
    results = _results(
        strength, 3, lambda lineup: 0 if strength[lineup[0]] > strength[lineup[1]] else 1
    )

    rows = ladder.standings(strength, results)

    assert [row.level for row in rows] == ["expert", "greedy", "beginner"]
    by_level = {row.level: row for row in rows}
    assert by_level["greedy"].rating.rating == 1500
    assert by_level["expert"].wins == by_level["expert"].matches == 12
    assert by_level["beginner"].wins == 0
    assert by_level["expert"].rating.deviation < 350


def test_matches_called_off_are_draws_and_leave_equals_equal():
    rows = ladder.standings(["a", "b"], _results(["a", "b"], 2, lambda lineup: None))

    assert rows[0].rating.rating == pytest.approx(rows[1].rating.rating)
    assert rows[0].wins == 0


def _beats_three_in_four(strength):
    """The stronger level wins the first three matches of a round's four against each
    weaker one (two fair pairs: the round's two matches and the next round's two)."""

    def winner_of(game):
        first, second = game.lineup
        upset = game.round % 2 == 0 and strength[first] > strength[second]
        return 0 if (strength[first] > strength[second]) != upset else 1

    return winner_of


def _played_out(levels, rounds, winner_of):
    return [
        Result(g.key, g.round, g.lineup, winner_of(g), 10)
        for g in ladder.schedule(levels, "house", 11, rounds)
    ]


def test_a_bots_interval_keeps_narrowing_as_rounds_are_added():
    strength = {"a": 0, "b": 1, "c": 2}
    winner_of = _beats_three_in_four(strength)

    def half_width(rounds):
        rows = ladder.standings(strength, _played_out(strength, rounds, winner_of))
        return max(row.rating.half_width95 for row in rows)

    ten, forty = half_width(10), half_width(40)
    # a fixed strength's deviation falls as one over the root of its matches: four times
    # the rounds, half the interval; a person's volatility would hold it near +-90
    assert forty == pytest.approx(ten / 2, rel=0.15)
    assert forty < 80


def test_the_head_to_head_sets_each_pairs_share_beside_the_ratings_prediction():
    strength = {"a": 0, "b": 1, "c": 2}
    results = _played_out(strength, 40, _beats_three_in_four(strength))
    results.append(Result("extra", 41, ("a", "b"), None, 200))  # called off: a half each

    rows = ladder.standings(strength, results)
    pairs = ladder.head_to_head(rows, results)

    assert [(p.first, p.second) for p in pairs] == [("c", "b"), ("c", "a"), ("b", "a")]
    by_pair = {(p.first, p.second): p for p in pairs}
    assert by_pair["c", "b"].matches == 80 and by_pair["c", "b"].score == 60
    assert by_pair["b", "a"].matches == 81 and by_pair["b", "a"].score == 60.5
    # the ratings say what the matches did: each pair's share within two standard errors
    assert all(abs(p.z) < 2 for p in pairs)
    # though c beat a exactly as often as b: the logistic curve spreads three levels
    assert by_pair["c", "a"].expected > by_pair["c", "b"].expected


def test_one_match_of_the_schedule_is_played_to_its_end():
    game = LadderGame("house", 3, 1, ("greedy", "random"), seed=7)

    result = ladder.play(game)

    assert result.key == game.key == "house/3/r1/greedy-random"
    assert result.winner in (0, 1)
    assert result.rounds >= 1
