"""The rules page's facts about the Smear family's tables, computed from the engine.

The expected answers are worked out by hand from ``shared/spec/variants.md`` and the
seeds, not copied from the code."""

import pytest

from game import rules_guide
from game.engine import variants


def guide(name: str) -> rules_guide.PresetGuide:
    return rules_guide.preset_guide(variants.PRESETS[name])


def test_a_guide_per_preset_house_first_anchored_by_its_name():
    guides = rules_guide.preset_guides()

    assert [g.anchor for g in guides] == ["house", "classic", "six_handed", "seven_point"]


@pytest.mark.parametrize(
    ("preset", "points", "bids"),
    [
        ("house", ["High", "Low", "Jack", "Joker 1", "Joker 2", "Game"], (1, 6)),
        ("classic", ["High", "Low", "Jack", "Game"], (2, 4)),
        ("six_handed", ["High", "Low", "Jack", "Jick", "Joker", "Game"], (3, 6)),
        (
            "seven_point",
            ["High", "Low", "Jack", "Jick", "High joker", "Low joker", "Game"],
            (2, 7),
        ),
    ],
)
def test_each_preset_names_its_points_and_bids(preset, points, bids):
    found = guide(preset)

    assert [line.name for line in found.points] == points
    assert found.rules.bids == bids
    assert f"bids {bids[0]} to {bids[1]}, for {len(points)} points" in " ".join(found.summary)


def test_classic_seats_four_as_two_sides_and_two_three_or_five_cutthroat():
    seating = {s.counts: s.said for s in guide("classic").seating}

    assert seating["2, 3 or 5"] == "cutthroat, everyone for themselves"
    assert seating["4"].startswith("two teams of two, partners sitting opposite (2 v 2)")


def test_six_handed_seats_three_against_three_alternately():
    (seating,) = guide("six_handed").seating

    assert seating.players == (6,)
    assert "two teams of three, partners seated alternately (3 v 3)" in seating.said


@pytest.mark.parametrize(
    ("preset", "left"),
    [("classic", {2: 34, 3: 25, 4: 16, 5: 7}), ("six_handed", {6: 17}), ("seven_point", {4: 18})],
)
def test_the_pack_left_after_the_deal(preset, left):
    # 52 cards plus the table's jokers, less the hands dealt
    assert {row.players: row.left for row in guide(preset).deal_rows} == left


@pytest.mark.parametrize(
    ("preset", "order"),
    [
        ("classic", "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"),
        ("six_handed", "AS KS QS JS JC J1 10S 9S 8S 7S 6S 5S 4S 3S 2S"),
        ("seven_point", "AS KS QS JS JC J1 J2 10S 9S 8S 7S 6S 5S 4S 3S 2S"),
    ],
)
def test_trump_ranking_with_spades_trump(preset, order):
    ranked = guide(preset).trump_order

    assert [rank.code for rank in ranked] == order.split()
    names = {rank.code: rank.name for rank in ranked}
    if "JC" in names:
        assert names["JC"] == "the jick (jack of clubs)"
    if "J2" in names:
        assert (names["J1"], names["J2"]) == ("the high joker", "the low joker")


def test_one_joker_is_simply_the_joker():
    names = {rank.code: rank.name for rank in guide("six_handed").trump_order}

    assert names["J1"] == "the joker" and "J2" not in names


@pytest.mark.parametrize("preset", ["six_handed", "seven_point"])
def test_trumping_while_holding_the_suit_led_is_what_schmier_forbids(preset):
    example = guide(preset).follow_examples[0]

    assert (example.trump, example.led, example.hand) == ("H", "AD", ("9D", "10H", "J1", "KS"))
    assert example.trump_any_time == ("9D", "10H", "J1")
    assert example.schmier == ("9D",)


def test_classic_without_jokers_trumps_with_the_ten_only():
    example = guide("classic").follow_examples[0]

    assert example.hand == ("9D", "10H", "KS")
    assert (example.trump_any_time, example.schmier) == (("9D", "10H"), ("9D",))


@pytest.mark.parametrize("preset", ["six_handed", "seven_point"])
def test_the_jick_is_a_heart_so_a_diamond_lead_finds_the_hand_void(preset):
    example = guide(preset).follow_examples[1]

    assert (example.trump, example.led, example.hand) == ("H", "AD", ("JD", "10H", "KS", "QC"))
    assert example.trump_any_time == example.schmier == example.hand


@pytest.mark.parametrize("preset", ["six_handed", "seven_point"])
def test_a_trump_lead_is_followed_by_the_jick_and_the_joker(preset):
    example = guide(preset).follow_examples[-1]

    assert example.led == "5H"
    assert example.trump_any_time == example.schmier == ("JD", "3H", "J1")


def test_classic_discards_to_six_keeping_every_trump_up_to_six():
    three, seven = guide("classic").discard_examples

    assert (three.count, three.must_go, three.must_stay) == (3, (), ("AS", "7S", "2S"))
    assert three.choice == ("KH", "9H", "4D", "QC", "8C", "3C")
    # seven trumps: the plain cards go and any one trump, the ace and the two included
    assert (seven.count, seven.must_go, seven.must_stay) == (3, ("4D", "8C"), ())
    assert {"AS", "2S"} <= set(seven.choice) and seven.chosen == 1


def test_seven_point_throws_every_plain_card_and_never_a_point_card():
    four, seven, dealer = guide("seven_point").discard_examples

    assert four.must_go == ("KH", "9H", "4D", "QC", "3C") and four.choice == ()
    assert four.must_stay == ("AS", "JC", "J2", "7S")
    assert seven.must_go == ("4D", "8C") and seven.choice == ("KS", "9S") and seven.chosen == 1
    assert seven.must_stay == ("AS", "JS", "JC", "J1", "2S")
    assert dealer.dealer and dealer.count == 14 - 6 and dealer.must_stay == ("AS", "J2")


def test_six_handed_dealer_keeps_every_point_card_of_the_pack():
    (dealer,) = guide("six_handed").discard_examples

    assert len(dealer.hand) == 23 and dealer.count == 17
    assert set(dealer.must_stay) == {"AS", "2S", "JC", "J1"} and dealer.kept == 2
    assert dealer.must_go == ()


def test_adding_jokers_or_the_jick_adds_points_and_raises_the_top_bid():
    one, both, none = rules_guide.option_examples()

    assert (one.points, one.bids) == (("High", "Low", "Jack", "Joker", "Game"), (2, 5))
    assert both.bids == (2, 7) and "Jick" in both.points and "Low joker" in both.points
    assert (none.points, none.bids) == (("High", "Low", "Jack", "Game"), (3, 4))
