"""smear-record/1: writing, reading and the replay output, exactly as shared/spec/record.md."""

import copy
import json
from random import Random

import pytest

from game.engine import record
from game.engine.state import MatchSetup, MatchState
from tests.game.engine.builders import act, round_with
from tests.game.engine.test_state import SCRIPT, SCRIPTED_HANDS, play_out


def scripted_record() -> dict:
    """The scripted 3-player round of test_state as a record."""
    seats = [0, 1, 2] * 5 + [1, 2, 0] * 2  # the dealer's left bids first; seat 1 leads tricks 5-6
    actions = []
    for seat, code in zip(seats, SCRIPT, strict=True):
        if code == "pass":
            actions.append({"seat": seat, "pass": True})
        elif code.startswith("bid:"):
            actions.append({"seat": seat, "bid": int(code[4:])})
        else:
            actions.append({"seat": seat, "play": code})
    return {
        "format": "smear-record/1",
        "players": 3,
        "teams": [[0], [1], [2]],
        "target": 21,
        "rounds": [
            {
                "dealer": 2,
                "hands": [SCRIPTED_HANDS[0], SCRIPTED_HANDS[1], SCRIPTED_HANDS[2]],
                "hidden": ["JC", "QC", "KC", "AC"],
                "actions": actions,
            }
        ],
    }


def with_actions(data: dict, count: int) -> dict:
    trimmed = copy.deepcopy(data)
    trimmed["rounds"][0]["actions"] = trimmed["rounds"][0]["actions"][:count]
    return trimmed


# --- Writing -----------------------------------------------------------------------


def test_a_written_round_lists_dealer_hands_hidden_and_seated_actions():
    state = act(round_with(SCRIPTED_HANDS, players=3, dealer=2), *SCRIPT)
    written = record.write(MatchState(state.setup, 2, (state,)))

    expected = scripted_record()
    assert list(written) == ["format", "players", "teams", "target", "rounds"]
    assert written["rounds"][0]["actions"] == expected["rounds"][0]["actions"]
    assert [sorted(hand) for hand in written["rounds"][0]["hands"]] == [
        sorted(hand) for hand in expected["rounds"][0]["hands"]
    ]
    assert sorted(written["rounds"][0]["hidden"]) == ["AC", "JC", "KC", "QC"]
    assert record.read(written) == record.read(expected)


def test_reading_a_written_match_gives_the_same_match():
    rng = Random(3)
    match = MatchState(MatchSetup.partnerships(6, 3), first_dealer=4)
    for _ in range(3):
        match = play_out(match.deal_round(rng), rng)
    assert record.read(record.dumps(match)) == match


# --- Replay output -----------------------------------------------------------------


def test_replay_scores_a_finished_round():
    result = record.replay(scripted_record())

    assert result["winner"] is None
    (summary,) = result["rounds"]
    assert list(summary) == [
        "legal", "trump", "points", "raw", "match_after", "bidder_unit", "bid", "made",
    ]  # fmt: skip
    assert summary["trump"] == "S"
    assert summary["points"] == {"high": 0, "low": 1, "jack": 0, "jokers": [0, 0], "game": 1}
    assert summary["raw"] == [4, 2, 0]
    assert summary["match_after"] == [4, 2, 0]
    assert (summary["bidder_unit"], summary["bid"], summary["made"]) == (0, 2, True)


def test_replay_lists_the_sorted_legal_actions_before_every_action():
    legal = record.replay(scripted_record())["rounds"][0]["legal"]

    assert len(legal) == len(SCRIPT)
    assert legal[0] == ["bid:1", "bid:2", "bid:3", "bid:4", "bid:5", "bid:6", "pass"]
    assert legal[1] == ["bid:3", "bid:4", "bid:5", "bid:6", "pass"]
    assert legal[3] == ["10H", "AS", "JH", "KS", "QH", "QS"]  # plain string order
    assert legal[4] == ["10S", "J1", "JS"]  # spades led: trump or joker only
    assert legal[5] == ["J2"]


def test_an_unfinished_round_has_no_points_and_trump_once_the_first_card_is_led():
    in_auction = record.replay(with_actions(scripted_record(), 2))["rounds"][0]
    assert in_auction["trump"] is None and in_auction["bidder_unit"] is None
    assert in_auction["bid"] is None

    after_lead = record.replay(with_actions(scripted_record(), 4))["rounds"][0]
    assert after_lead["trump"] == "S"
    assert (after_lead["bidder_unit"], after_lead["bid"]) == (0, 2)
    for key in ("points", "raw", "match_after", "made"):
        assert after_lead[key] is None


def test_card_codes_are_read_case_insensitively_and_extra_keys_ignored():
    data = scripted_record()
    data["comment"] = "kitchen table, Saskatoon"
    data["rounds"][0]["hands"][0] = [code.lower() for code in data["rounds"][0]["hands"][0]]
    data["rounds"][0]["actions"][3]["play"] = "as"
    data["rounds"][0]["actions"][3]["thinking_ms"] = 1200
    assert record.replay(data) == record.replay(scripted_record())


def test_a_record_may_arrive_as_json_text():
    assert record.replay(json.dumps(scripted_record())) == record.replay(scripted_record())


# --- Errors ------------------------------------------------------------------------


def error_of(data) -> dict:
    result = record.replay(data)
    assert set(result) == {"error", "round", "action"}, result
    return result


def test_an_illegal_action_is_named_by_round_and_action_index():
    data = scripted_record()
    data["rounds"][0]["actions"][5]["play"] = "10C"  # seat 2 must answer the trump lead with J2
    result = error_of(data)
    assert (result["round"], result["action"]) == (0, 5)
    assert "trump was led" in result["error"]


def test_an_out_of_turn_action_is_an_error():
    data = scripted_record()
    data["rounds"][0]["actions"][1]["seat"] = 0
    result = error_of(data)
    assert (result["round"], result["action"]) == (0, 1)
    assert "not your turn" in result["error"]


def test_a_wrong_deck_is_an_error_for_the_round():
    data = scripted_record()
    data["rounds"][0]["hidden"] = ["JC", "QC", "KC", "9C"]  # 9C is not in the 3-player deck
    result = error_of(data)
    assert (result["round"], result["action"]) == (0, None)
    assert "deck" in result["error"]


def test_a_card_dealt_twice_is_an_error():
    data = scripted_record()
    data["rounds"][0]["hidden"] = ["JC", "QC", "KC", "AS"]
    assert error_of(data)["round"] == 0


def test_a_play_after_the_match_ended_is_an_error():
    data = scripted_record()
    data["target"] = 3  # seat 0's 4 points win at once
    extra = copy.deepcopy(data["rounds"][0])
    extra["dealer"] = 0
    extra["actions"] = [{"seat": 1, "pass": True}]
    data["rounds"].append(extra)
    result = error_of(data)
    assert (result["round"], result["action"]) == (1, 0)
    assert "match is already over" in result["error"]


def test_an_action_after_the_round_ended_is_an_error():
    data = scripted_record()
    data["rounds"][0]["actions"].append({"seat": 1, "play": "AD"})
    assert (error_of(data)["round"], error_of(data)["action"]) == (0, len(SCRIPT))


def test_a_round_after_an_unfinished_round_is_an_error():
    data = with_actions(scripted_record(), 5)
    data["rounds"].append(copy.deepcopy(scripted_record()["rounds"][0]))
    data["rounds"][1]["dealer"] = 0
    result = error_of(data)
    assert (result["round"], result["action"]) == (1, None)


def test_the_dealer_must_rotate_clockwise():
    rng = Random(4)
    match = play_out(MatchState(MatchSetup.cutthroat(3)).deal_round(rng), rng)
    match = play_out(match.deal_round(rng), rng)
    data = record.write(match)
    data["rounds"][1]["dealer"] = 2
    assert error_of(data) == {
        "error": "seat 1 deals this round, not seat 2",
        "round": 1,
        "action": None,
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "smear-record/2"}, "format"),
        ({"players": 9}, "3 to 8"),
        ({"players": "4"}, "players"),
        ({"teams": [[0, 1], [1, 2]]}, "partition"),
        ({"rounds": {}}, "rounds"),
    ],
)
def test_a_malformed_record_is_an_error_without_a_round(change, message):
    data = scripted_record()
    data.update(change)
    result = error_of(data)
    assert message in result["error"]
    assert (result["round"], result["action"]) == (None, None)


@pytest.mark.parametrize(
    "action",
    [
        {"seat": 1, "bid": 7},
        {"seat": 1, "bid": True},
        {"seat": 1, "pass": False},
        {"seat": 1, "bid": 2, "pass": True},
        {"seat": 1},
        {"pass": True},
        {"seat": 1, "play": "ZZ"},
        "pass",
    ],
)
def test_a_malformed_action_is_an_error_at_that_action(action):
    data = scripted_record()
    data["rounds"][0]["actions"][0] = action
    result = error_of(data)
    assert (result["round"], result["action"]) == (0, 0)


def test_text_that_is_not_json_is_an_error():
    assert error_of("{not json") == {
        "error": error_of("{not json")["error"],
        "round": None,
        "action": None,
    }
    assert error_of("{not json")["error"].startswith("not valid JSON")


def test_records_split_into_json_lines_or_one_pretty_printed_object():
    one = json.dumps(scripted_record(), indent=2)
    assert record.split_records(one) == [one.strip()]
    lines = json.dumps(scripted_record()) + "\n\n" + json.dumps(scripted_record()) + "\n"
    assert len(record.split_records(lines)) == 2
    assert record.split_records("  \n") == []
