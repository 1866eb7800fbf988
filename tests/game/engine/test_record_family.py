"""Records of the Smear family written by hand from the seeds' own examples
(records/family.jsonl), replayed against what the seeds say of them."""

import json
from pathlib import Path

import pytest

from game.engine import record

RECORDS = [
    json.loads(line)
    for line in (Path(__file__).parent / "records" / "family.jsonl").read_text().splitlines()
]


def replayed(index: int) -> dict:
    return record.replay(RECORDS[index])


def without_legal(summary: dict) -> dict:
    return {key: value for key, value in summary.items() if key != "legal"}


def test_a_classic_round_every_seat_passed_is_redealt_and_scores_nothing():
    redealt = replayed(0)["rounds"][0]
    assert without_legal(redealt) == {
        "trump": None,
        "points": {"high": None, "low": None, "jack": None, "game": None},
        "raw": [0, 0],
        "match_after": [0, 0],
        "bidder_unit": None,
        "bid": None,
        "made": None,
        "redeal": True,
    }
    assert redealt["legal"][0] == ["bid:2", "bid:3", "bid:4", "pass"]
    assert redealt["legal"][3] == ["bid:2", "bid:3", "bid:4", "pass"]  # the dealer may pass


def test_seed_002s_worked_hand_sam_high_mum_and_dad_jack_and_game_dad_misses_his_three():
    worked = replayed(0)["rounds"][1]
    # Dad bids 3 and names spades; Sam plays the ace; the jack falls in Mum-and-Dad's
    # trick; nobody plays the two; 27 card points to 19: Mum-and-Dad take game
    assert without_legal(worked) == {
        "trump": "S",
        "points": {"high": 0, "low": None, "jack": 1, "game": 1},
        "raw": [1, 2],
        "match_after": [1, -3],
        "bidder_unit": 1,
        "bid": 3,
        "made": False,
    }
    assert replayed(0)["winner"] is None


def test_the_replay_lists_the_suits_before_naming_trump_and_the_discardable_cards():
    legal = replayed(0)["rounds"][1]["legal"]
    assert legal[4] == ["trump:C", "trump:D", "trump:H", "trump:S"]
    # Dad holds QS KS AH 7H 5D 6C 10H JH 4H: only his plain cards may go
    assert legal[5] == ["10H", "4H", "5D", "6C", "7H", "AH", "JH"]


def test_schmier_refuses_a_trump_from_a_seat_that_holds_the_suit_led():
    assert replayed(1) == {
        "error": "JS is not allowed: follow the suit led while you can",
        "round": 0,
        "action": 14,
    }


def test_a_trump_discarded_while_holding_six_trumps_or_fewer_is_refused():
    assert replayed(2) == {"error": "QS may not be discarded", "round": 0, "action": 5}


def test_six_handed_the_dealer_takes_the_pack_and_the_jack_beats_the_jick_and_the_joker():
    summary = replayed(3)["rounds"][0]
    assert (summary["trump"], summary["bid"], summary["bidder_unit"]) == ("S", 4, 0)
    legal = summary["legal"]
    assert len(legal[7]) == 23  # the dealer's 6 and the pack's 17: none a point card
    assert legal[9] == ["J1"]  # spades led: the joker is seat 1's only trump
    assert legal[10] == ["JC"]  # the jack of clubs is the jick, seat 2's only trump
    assert legal[13] == ["3S", "8S", "9S", "KS", "QS"]  # the dealer kept five trumps


def test_seven_point_discards_every_plain_card_then_fills_from_the_top_of_the_pack():
    legal = replayed(4)["rounds"][0]["legal"]
    assert legal[0] == ["bid:2", "bid:3", "bid:4", "bid:5", "bid:6", "bid:7", "pass"]
    assert legal[5] == ["3C", "4C", "5C", "6C", "7C", "8C"]  # every plain card must go
    # eight trumps: the plain 4S and two trumps go, never the low joker
    assert legal[7] == ["10H", "4S", "5H", "6H", "7H", "8H", "9H", "QH"]
    assert len(legal[8]) == 21  # the dealer took the twelve cards the fill left
    # a joker led is a trump led: the dealer kept 3H 4H AS KS AC 10C
    assert legal[10] == ["3H", "4H"]
    # seat 2 kept JH JD J1 and was filled with KD AD 2C
    assert legal[12] == ["J1", "JD", "JH"]


@pytest.mark.parametrize(
    "index, named",
    [(5, "preset"), (6, "follow"), (7, "target"), (8, "teams")],
)
def test_rules_that_are_unknown_contradictory_or_not_the_records_are_an_error(index, named):
    error = replayed(index)
    assert named in error["error"]
    assert (error["round"], error["action"]) == (None, None)
