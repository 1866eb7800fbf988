"""The ledger: the score sheet's one copy of its rules, as a pure fold over hands."""

import ast
from dataclasses import fields
from pathlib import Path

import pytest

from scoresheet import ledger
from scoresheet.ledger import Hand, Rules, tally

CLASSIC = Rules()  # the defaults: to 21, four points, bids 2-4, a missed bid is owed


def test_rules_keep_the_contract_field_names_and_defaults():
    assert [f.name for f in fields(Rules)] == [
        "target",
        "points_per_hand",
        "min_bid",
        "max_bid",
        "missed_bid",
        "bidder_only_out",
    ]
    assert Rules() == Rules(
        target=21, points_per_hand=4, min_bid=2, max_bid=4, missed_bid="debt", bidder_only_out=False
    )


def test_seed_002_worked_hand_enters_one_and_zero_and_carries_the_three_point_debt():
    # Sam-and-Alex (side 0) take High; Mum-and-Dad (side 1) bid 3, take Jack and Game
    sheet = tally([Hand(bidder=1, bid=3, made=(1, 2))], sides=2, rules=CLASSIC)

    (row,) = sheet.rows
    assert row.made is False
    assert row.entries == (1, 0)
    assert row.debts == (0, 3)
    assert row.totals == (1, 0)
    assert row.standings == (1, -3)
    assert sheet.bankable is False
    assert sheet.winner is None


def test_a_debt_is_paid_from_the_sides_next_points_before_anything_is_entered():
    sheet = tally(
        [
            Hand(bidder=1, bid=3, made=(1, 2)),  # the worked hand: side 1 owes 3
            Hand(bidder=0, bid=2, made=(2, 2)),  # side 1 pays 2 of its debt, enters 0
            Hand(bidder=1, bid=2, made=(1, 3)),  # side 1 pays the last 1, enters 2
        ],
        sides=2,
        rules=CLASSIC,
    )

    assert [row.entries for row in sheet.rows] == [(1, 0), (2, 0), (1, 2)]
    assert [row.debts for row in sheet.rows] == [(0, 3), (0, 1), (0, 0)]
    assert [row.totals for row in sheet.rows] == [(1, 0), (3, 0), (4, 2)]
    assert [row.standings for row in sheet.rows] == [(1, -3), (3, -1), (4, 2)]
    assert [row.made for row in sheet.rows] == [False, True, True]


def test_a_made_bid_enters_every_point_taken_not_just_the_bid():
    sheet = tally([Hand(bidder=0, bid=2, made=(4, 0))], sides=2, rules=CLASSIC)

    assert sheet.rows[0].entries == (4, 0)
    assert sheet.rows[0].made is True


def test_missed_bids_add_up_as_debt_and_a_missed_bidder_enters_nothing_it_took():
    sheet = tally(
        [Hand(bidder=0, bid=4, made=(3, 1)), Hand(bidder=0, bid=3, made=(2, 2))],
        sides=2,
        rules=CLASSIC,
    )

    assert [row.entries for row in sheet.rows] == [(0, 1), (0, 2)]
    assert sheet.debts == (7, 0)
    assert sheet.standings == (-7, 3)


def test_negative_mode_enters_minus_the_bid_and_keeps_no_debt():
    rules = Rules(missed_bid="negative")
    sheet = tally(
        [Hand(bidder=1, bid=3, made=(1, 2)), Hand(bidder=1, bid=2, made=(0, 4))],
        sides=2,
        rules=rules,
    )

    assert [row.entries for row in sheet.rows] == [(1, -3), (0, 4)]
    assert [row.debts for row in sheet.rows] == [(0, 0), (0, 0)]
    assert sheet.totals == sheet.standings == (1, 1)


def test_bidder_only_out_stops_the_other_sides_one_short_of_the_target():
    rules = Rules(target=11, points_per_hand=6, min_bid=1, max_bid=6, bidder_only_out=True)
    sheet = tally(
        [
            Hand(bidder=0, bid=1, made=(1, 5)),
            Hand(bidder=0, bid=1, made=(1, 5)),  # side 1 would have 10 + ... capped at 10
            Hand(bidder=0, bid=1, made=(1, 5)),
        ],
        sides=2,
        rules=rules,
    )

    assert [row.standings for row in sheet.rows] == [(1, 5), (2, 10), (3, 10)]
    assert sheet.rows[2].entries == (1, 0)
    assert sheet.bankable is False
    # the capped side goes out only as the bidder
    out = tally([*(row.hand for row in sheet.rows), Hand(1, 2, (1, 5))], sides=2, rules=rules)
    assert out.standings == (4, 15)
    assert out.bankable and out.winner == 1


def test_house_rules_preset_caps_non_bidders_in_negative_mode():
    sheet = tally([Hand(bidder=0, bid=6, made=(0, 6))] * 4, sides=2, rules=ledger.HOUSE_RULES)

    assert [row.standings for row in sheet.rows] == [(-6, 6), (-12, 12), (-18, 18), (-24, 20)]
    assert sheet.rows[-1].entries == (-6, 2)


def test_the_bidder_at_the_target_wins_even_when_another_side_is_higher():
    rules = Rules(target=5, points_per_hand=6, max_bid=6)
    sheet = tally(
        [Hand(bidder=0, bid=2, made=(4, 2)), Hand(bidder=1, bid=2, made=(3, 3))],
        sides=2,
        rules=rules,
    )

    # both sides reach the target on the same hand: the bidding side wins, higher or not
    assert sheet.standings == (7, 5)
    assert sheet.at_target == (True, True)
    assert sheet.bankable is True
    assert sheet.winner == 1


def test_a_non_bidder_at_the_target_wins_with_the_highest_standing():
    sheet = tally(
        [Hand(bidder=1, bid=2, made=(4, 0)), Hand(bidder=1, bid=2, made=(1, 3))],
        sides=2,
        rules=Rules(target=5),
    )

    assert sheet.standings == (5, 1)
    assert sheet.at_target == (True, False)
    assert sheet.bankable is True
    assert sheet.winner == 0


def test_a_tie_for_the_lead_at_the_target_waits_for_a_later_hand():
    rules = Rules(target=5, points_per_hand=6, max_bid=6)
    tied = tally(
        [Hand(bidder=2, bid=2, made=(2, 2, 0)), Hand(bidder=2, bid=2, made=(3, 3, 0))],
        sides=3,
        rules=rules,
    )

    assert tied.standings == (5, 5, -4)
    assert tied.at_target == (True, True, False)
    assert tied.bankable is False and tied.winner is None
    broken = ledger.tally(
        [*(row.hand for row in tied.rows), Hand(bidder=2, bid=2, made=(1, 0, 2))],
        sides=3,
        rules=rules,
    )
    assert broken.standings == (6, 5, -2)
    assert broken.bankable is True and broken.winner == 0


def test_no_hands_is_an_empty_sheet():
    sheet = tally([], sides=3)

    assert sheet.rows == ()
    assert sheet.standings == (0, 0, 0)
    assert sheet.bankable is False and sheet.winner is None


@pytest.mark.parametrize(
    ("hand", "why"),
    [
        (Hand(bidder=2, bid=2, made=(1, 1)), "bidder"),
        (Hand(bidder=-1, bid=2, made=(1, 1)), "bidder"),
        (Hand(bidder=0, bid=1, made=(1, 1)), "bid"),
        (Hand(bidder=0, bid=5, made=(1, 1)), "bid"),
        (Hand(bidder=0, bid=2, made=(-1, 1)), "from 0 up"),
        (Hand(bidder=0, bid=2, made=(3, 2)), "more than the 4"),
        (Hand(bidder=0, bid=2, made=(1, 1, 1)), "3 numbers"),
        (Hand(bidder=0, bid=2, made=(1,)), "1 numbers"),
        (Hand(bidder=0, bid=2.0, made=(2, 1)), "bid"),
    ],
)
def test_an_impossible_hand_raises_a_value_error_naming_its_index(hand, why):
    good = Hand(bidder=0, bid=2, made=(2, 2))

    with pytest.raises(ValueError, match=rf"^hand 2: .*{why}") as raised:
        tally([good, good, hand, good], sides=2, rules=CLASSIC)
    assert raised.value.index == 2


def test_rules_that_cannot_work_are_refused():
    with pytest.raises(ValueError):
        Rules(min_bid=5, max_bid=4)
    with pytest.raises(ValueError):
        Rules(max_bid=5)
    with pytest.raises(ValueError):
        Rules(missed_bid="forgiven")
    with pytest.raises(ValueError):
        Rules(target=0)
    with pytest.raises(ValueError):
        tally([], sides=1)


def test_presets_hold_the_issue_rules():
    presets = ledger.PRESETS
    assert set(presets) == {"house", "classic", "six_handed", "seven_point", "custom"}
    house = presets["house"].rules
    assert (house.points_per_hand, house.min_bid, house.max_bid) == (6, 1, 6)
    assert house.missed_bid == "negative" and house.bidder_only_out is True
    assert presets["classic"].rules == ledger.CLASSIC_FOUR_POINT == Rules()
    six = presets["six_handed"].rules
    assert (six.points_per_hand, six.min_bid, six.max_bid, six.missed_bid) == (6, 3, 6, "debt")
    seven = presets["seven_point"].rules
    assert (seven.points_per_hand, seven.min_bid, seven.max_bid) == (7, 2, 7)
    for preset in presets.values():
        assert preset.key != "custom" or preset.points == ()
        assert not preset.points or len(preset.points) == preset.rules.points_per_hand


def test_made_from_takers_counts_each_sides_points():
    # the worked hand, point by point: High, Low (nobody), Jack, Game
    assert ledger.made_from_takers([0, None, 1, 1], sides=2) == (1, 2)
    with pytest.raises(ValueError):
        ledger.made_from_takers([2], sides=2)


def test_edit_resumes_the_fold_at_the_edited_hand():
    hands = [Hand(bidder=1, bid=3, made=(1, 2)), Hand(bidder=0, bid=2, made=(2, 2))]
    sheet = tally(hands, sides=2)

    edited = ledger.edit(sheet, 0, Hand(bidder=1, bid=2, made=(1, 2)))
    assert edited.rows[0].made is True
    assert edited.standings == (3, 4)
    assert edited == tally([Hand(bidder=1, bid=2, made=(1, 2)), hands[1]], sides=2)


def test_ledger_imports_the_standard_library_and_the_pure_engine_only():
    # the presets read the engine's rules values and its match scoring; nothing else
    source = Path(ledger.__file__).read_text()
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")

    top = {name.split(".")[0] for name in imported}
    assert "django" not in top
    assert top <= {"__future__", "collections", "dataclasses", "typing", "game"}
    assert all(name.startswith("game.engine") for name in imported if name.startswith("game"))
