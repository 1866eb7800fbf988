"""The rules value: presets as the contract names them, options, and refusals by option."""

import pytest

from game.engine.variants import CLASSIC, HOUSE, PRESETS, SEVEN_POINT, SIX_HANDED, RulesError
from game.engine.variants import from_record as rules_from


@pytest.mark.parametrize(
    "name, players, points, bids",
    [
        ("house", (3, 4, 5, 6, 7, 8), 6, (1, 6)),
        ("classic", (2, 3, 4, 5), 4, (2, 4)),
        ("six_handed", (6,), 6, (3, 6)),
        ("seven_point", (4,), 7, (2, 7)),
    ],
)
def test_each_preset_has_the_players_points_and_bids_of_the_contract(name, players, points, bids):
    rules = PRESETS[name]
    assert (rules.players, rules.point_count, rules.bids) == (players, points, bids)


def test_the_classic_game_discards_to_six_from_nine_and_the_bidder_names_trump():
    assert (CLASSIC.deal, CLASSIC.exchange, CLASSIC.trump) == (9, "discard_to_six", "bidder_names")
    assert (CLASSIC.follow, CLASSIC.high_low, CLASSIC.all_pass) == (
        "trump_any_time",
        "ace_two",
        "redeal",
    )


def test_six_handed_plays_one_joker_and_the_jick_and_the_dealer_takes_the_pack():
    assert (SIX_HANDED.jokers, SIX_HANDED.jick, SIX_HANDED.exchange) == (
        1,
        True,
        "dealer_takes_pack",
    )
    assert SIX_HANDED.points == ("high", "low", "jack", "jick", "jokers", "game")


def test_seven_point_counts_each_joker_as_its_own_point():
    assert SEVEN_POINT.points == ("high", "low", "jack", "jick", "joker_high", "joker_low", "game")


@pytest.mark.parametrize("rules", list(PRESETS.values()))
def test_a_preset_is_written_as_its_name_and_read_back(rules):
    assert rules.to_record() == rules.preset
    assert rules_from(rules.to_record()) == rules


def test_options_are_written_as_the_preset_and_what_differs():
    rules = rules_from({"preset": "classic", "follow": "schmier", "target": 11})
    assert rules.to_record() == {"preset": "classic", "follow": "schmier", "target": 11}
    assert rules_from(rules.to_record()) == rules


def test_adding_jokers_and_the_jick_adds_their_points_and_raises_the_top_bid():
    rules = rules_from({"preset": "classic", "jokers": 2, "jick": True})
    assert rules.points == ("high", "low", "jack", "jick", "joker_high", "joker_low", "game")
    assert rules.bids == (2, 7)
    one = CLASSIC.with_options(jokers=1)
    assert (one.points, one.bids) == (("high", "low", "jack", "jokers", "game"), (2, 5))


def test_a_table_that_sets_its_bids_keeps_them_when_it_adds_jokers():
    rules = rules_from({"preset": "classic", "jokers": 1, "bids": [2, 4]})
    assert rules.bids == (2, 4)
    assert rules.point_count == 5


def test_six_handed_without_its_extras_plays_four_points():
    rules = rules_from({"preset": "six_handed", "jokers": 0, "jick": False})
    assert (rules.points, rules.bids) == (("high", "low", "jack", "game"), (3, 4))


@pytest.mark.parametrize(
    "value, option",
    [
        ("pinochle", "preset"),
        ({"follow": "schmier"}, "preset"),
        (7, "rules"),
        ({"preset": "classic", "trumps": "S"}, "trumps"),
        ({"preset": "classic", "follow": "house"}, "follow"),
        ({"preset": "classic", "follow": "sometimes"}, "follow"),
        ({"preset": "classic", "deal": 6}, "exchange"),
        ({"preset": "classic", "deal": 7}, "deal"),
        ({"preset": "classic", "jokers": 3}, "jokers"),
        ({"preset": "classic", "jick": "yes"}, "jick"),
        ({"preset": "classic", "points": ["high", "jick"]}, "points"),
        ({"preset": "classic", "points": ["high", "high"]}, "points"),
        ({"preset": "classic", "points": ["high", "trick"]}, "points"),
        ({"preset": "classic", "bids": [2, 5]}, "bids"),
        ({"preset": "classic", "bids": [3, 2]}, "bids"),
        ({"preset": "classic", "target": 4}, "target"),
        ({"preset": "classic", "target": 101}, "target"),
        ({"preset": "classic", "trump": "first_lead"}, "trump"),
        ({"preset": "seven_point", "jokers": 0}, "jokers"),
        ({"preset": "house", "jick": True}, "jick"),
        ({"preset": "house", "follow": "schmier"}, "follow"),
        ({"preset": "house", "deck": "full"}, "deck"),
    ],
)
def test_unknown_or_contradictory_rules_are_refused_naming_the_option(value, option):
    with pytest.raises(RulesError) as refused:
        rules_from(value)
    assert refused.value.option == option
    assert str(refused.value)


def test_the_house_preset_takes_its_target_bids_and_going_out():
    rules = rules_from({"preset": "house", "target": 11, "going_out": "bidder_first"})
    assert rules.is_house and rules.target == 11 and not rules.non_bidders_capped


@pytest.mark.parametrize(
    "rules, players, teams, allowed",
    [
        (CLASSIC, 4, ((0, 2), (1, 3)), True),
        (CLASSIC, 4, ((0, 1), (2, 3)), False),
        (CLASSIC, 3, ((0,), (1,), (2,)), True),
        (CLASSIC, 5, ((0,), (1,), (2,), (3,), (4,)), True),
        (SIX_HANDED, 6, ((0, 2, 4), (1, 3, 5)), True),
        (SIX_HANDED, 6, ((0, 3), (1, 4), (2, 5)), False),
        (SIX_HANDED, 6, tuple((seat,) for seat in range(6)), True),
        (SEVEN_POINT, 4, ((0, 2), (1, 3)), True),
        (HOUSE, 6, ((0, 3), (1, 4), (2, 5)), True),
    ],
)
def test_each_preset_takes_its_own_team_layouts(rules, players, teams, allowed):
    assert rules.allows_layout(players, teams) is allowed
