"""The table's rules and actions in words."""

from dataclasses import replace

from game.engine import notation
from game.engine.rules import discard_action, trump_action
from game.engine.variants import CLASSIC, HOUSE, SEVEN_POINT, SIX_HANDED
from tests.game.engine.builders import cards


def test_each_joker_is_its_own_point_where_the_house_counts_jokers_as_a_list():
    assert notation.point_names(HOUSE) == ("High", "Low", "Jack", "Joker 1", "Joker 2", "Game")
    assert notation.point_names(SIX_HANDED) == ("High", "Low", "Jack", "Jick", "Joker", "Game")
    assert notation.point_names(SEVEN_POINT)[4:6] == ("High joker", "Low joker")


def test_a_summary_says_the_deal_the_bids_the_trump_the_exchange_and_going_out():
    summary = notation.rules_summary(CLASSIC)
    assert summary[0] == "Classic four-point"
    assert "9 cards each from the full deck" in summary
    assert "bids 2 to 4, for 4 points: High, Low, Jack, Game" in summary
    assert "the bidder names trump" in summary
    assert "to 21; anyone can go out, the bidder first" in summary
    assert "the first card led sets trump" in notation.rules_summary(HOUSE)


def test_naming_trump_and_a_discard_are_said_in_words():
    assert notation.said(trump_action(1)) == "hearts"
    assert notation.said(discard_action(cards("9H", "3C", "4D"))) == "discard 3"


def test_a_games_brief_is_read_from_its_rules_so_it_follows_a_change_of_them():
    assert notation.preset_brief(CLASSIC) == (
        "Classic four-point: 2 to 5 players, 9 cards, the bidder names trump, discard to six"
    )
    assert "1 joker and the jick" in notation.preset_brief(SIX_HANDED)
    changed = replace(CLASSIC, players=(4,), jokers=2)
    assert notation.preset_brief(changed).startswith(
        "Classic four-point: 4 players, 9 cards, 2 jokers"
    )


def test_a_list_in_a_sentence_joins_its_last_two_words_with_and():
    assert notation.listed(["High", "Low", "Jack"]) == "High, Low and Jack"
    assert notation.listed(("High", "Low")) == "High and Low"
    assert notation.listed(["Game"]) == "Game"
    assert notation.listed([]) == "nothing"
