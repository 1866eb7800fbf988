"""Positions: JSON round trips, stable keys, strict reading, and the seat's view alone."""

import copy
import json
import math
from dataclasses import replace

import pytest

from game.engine import record as records
from game.engine.cards import cards_of
from game.engine.rules import action_code
from game.engine.state import MatchState
from learn.core.positions import (
    PHASES,
    AnalysedPosition,
    AuctionOutcome,
    Option,
    PositionError,
    outcome_to_json,
    phase_of,
    position_key,
)
from learn.core.themes import THEMES
from tests.learn.fixtures.factories import (
    sample_json,
    sample_positions,
    three_player_round,
    with_outcomes,
)


@pytest.fixture(scope="module")
def bank() -> list[AnalysedPosition]:
    return sample_positions()


def lead_position() -> AnalysedPosition:
    """Seat 0 about to set trump, with hand-made options."""
    state = three_player_round("bid:3 pass pass")
    view = state.view_for(0)
    codes = [action_code(a) for a in view.legal_actions()]
    options = tuple(
        Option(code=code, value=2.0 - i, value_se=0.2, points=(3.0 - i / 2, 2.0), made=0.9)
        for i, code in enumerate(codes)
    )
    return AnalysedPosition(
        record=_record_of(state),
        seat=0,
        phase="lead",
        options=options,
        themes=("choosing-trump",),
        deals=12,
        line=((0, codes[0]),),
        line_hands=(),
    )


def _record_of(state) -> dict:
    return records.write(MatchState(state.setup, state.dealer, (state,)))


# --- Round trips and keys ---------------------------------------------------------------


def test_sample_bank_covers_three_and_four_players_and_every_house_phase(bank):
    assert len(bank) >= 10
    assert {p.players for p in bank} == {3, 4}
    # naming trump and the discard come only at the full-deck tables
    assert {p.phase for p in bank} == set(PHASES) - {"trump", "discard"}
    assert any(p.phase == "lead" and p.view().trump is None for p in bank)


def test_to_json_and_from_json_round_trip_exactly(bank):
    for position in [*bank, lead_position()]:
        data = json.loads(json.dumps(position.to_json()))
        again = AnalysedPosition.from_json(data)
        assert again == position
        assert again.to_json() == position.to_json()


def test_an_auction_outcome_is_stored_with_each_call_and_read_back(bank):
    auction = with_outcomes(next(p for p in bank if p.phase == "auction"))
    data = json.loads(json.dumps(auction.to_json()))
    assert all("auction" in option for option in data["options"])
    again = AnalysedPosition.from_json(data)
    assert again == auction
    assert isinstance(again.option("pass").auction, AuctionOutcome)
    assert again.option("pass").auction.others_made == pytest.approx(0.7)


def test_a_bank_line_without_auction_outcomes_still_reads(bank):
    # the starter bank was written before the rest of the auction was searched
    old = next(d for d in sample_json() if d["phase"] == "auction")
    assert not any("auction" in option for option in old["options"])
    position = AnalysedPosition.from_json(old)
    assert all(option.auction is None for option in position.options)
    assert all("auction" not in option for option in position.to_json()["options"])


def test_a_margin_error_is_stored_with_an_option_and_read_back(bank):
    position = bank[0]
    paired = tuple(replace(o, margin_se=0.05 * n) for n, o in enumerate(position.options))
    data = replace(position, options=paired).to_json()
    assert [o["margin_se"] for o in data["options"]] == [0.05 * n for n in range(len(paired))]
    again = AnalysedPosition.from_json(json.loads(json.dumps(data)))
    second = again.options[1]
    assert second.margin_se == pytest.approx(0.05)
    assert second.margin_error(again.best) == pytest.approx(0.05)


def test_an_option_without_a_margin_error_counts_the_two_errors_as_independent(bank):
    position = bank[0]  # written before the margin's own error was stored
    assert all("margin_se" not in o for o in position.to_json()["options"])
    best, second = position.options[0], position.options[1]
    assert second.margin_se is None
    assert second.margin_error(best) == pytest.approx(math.hypot(best.value_se, second.value_se))


def test_key_is_sixteen_hex_digits_of_the_record_and_seat(bank):
    for position in bank:
        assert len(position.key) == 16 and int(position.key, 16) >= 0
        assert position.key == position_key(position.record, position.seat)
        assert position.to_json()["key"] == position.key


def test_key_is_stable_across_runs_and_spellings():
    position = lead_position()
    assert position.key == "a473aeb12625d32b"  # pinned: a changed key orphans stored ratings
    lowercase = copy.deepcopy(position.to_json())
    lowercase.pop("key")
    first_round = lowercase["record"]["rounds"][0]
    first_round["hands"] = [[code.lower() for code in hand] for hand in first_round["hands"]]
    assert AnalysedPosition.from_json(lowercase).key == position.key


def test_key_changes_with_the_decision():
    first = lead_position()
    state = three_player_round("bid:3 pass pass AS")
    assert position_key(_record_of(state), 1) != first.key


def test_best_margin_players_and_legal_codes():
    position = lead_position()
    assert position.best == position.options[0]
    assert position.margin == pytest.approx(1.0)
    assert position.players == 3
    assert set(position.legal_codes()) == {o.code for o in position.options}
    assert "J1" not in position.legal_codes()  # a joker may not set trump


def test_positions_hash_by_key():
    assert len({lead_position(), lead_position()}) == 1


# --- The view --------------------------------------------------------------------------


def test_view_shows_only_the_seats_own_cards(bank):
    for position in bank:
        view = position.view()
        assert view.seat == position.seat and view.to_act == position.seat
        assert phase_of(view) == position.phase
        rounds = position.record["rounds"]
        last = rounds[-1]
        played = {a["play"] for a in last["actions"] if "play" in a}
        own = set(last["hands"][position.seat]) - played
        assert {action_code(c) for c in cards_of(view.hand)} == own
        others = {
            code
            for seat, hand in enumerate(last["hands"])
            if seat != position.seat
            for code in hand
            if code not in played
        } | set(last["hidden"])
        shown = {action_code(c) for c in cards_of(view.hand | view.played)}
        assert not shown & others
        assert view.result is None


# --- Strict reading ----------------------------------------------------------------------


def spoil(change):
    data = copy.deepcopy(sample_json()[0])
    change(data)
    return data


def spoil_auction(change):
    auction = next(p for p in sample_positions() if p.phase == "auction")
    data = with_outcomes(auction).to_json()
    change(data["options"][0]["auction"])
    return data


AUCTION_SPOILERS = {
    "share above one": lambda a: a.update(lead=1.2),
    "negative share": lambda a: a.update(outbid=-0.1),
    "missing share": lambda a: a.pop("lead"),
    "bid beyond the top": lambda a: a.update(winning_bid=7),
    "text points": lambda a: a.update(others_points="2"),
    "made above one": lambda a: a.update(others_made=2.0),
}


@pytest.mark.parametrize("name", AUCTION_SPOILERS)
def test_from_json_rejects_a_malformed_auction_outcome(name):
    with pytest.raises(PositionError, match="auction"):
        AnalysedPosition.from_json(spoil_auction(AUCTION_SPOILERS[name]))


def test_a_card_play_has_no_auction_outcome():
    data = spoil(lambda d: None)
    auction = with_outcomes(next(p for p in sample_positions() if p.phase == "auction"))
    data["options"][0]["auction"] = outcome_to_json(auction.options[0].auction)
    with pytest.raises(PositionError, match="only an auction action"):
        AnalysedPosition.from_json(data)


def drop_option(data):
    data["options"].pop()


def duplicate_option(data):
    data["options"].append(dict(data["options"][0]))


def illegal_option(data):
    data["options"][-1]["code"] = "bid:9"


def unsorted_options(data):
    data["options"].reverse()
    data["options"][0]["value"] -= 100


def nan_value(data):
    data["options"][0]["value"] = math.nan


def text_value(data):
    data["options"][0]["value"] = "2.5"


def bool_value(data):
    data["options"][0]["value"] = True


def negative_error(data):
    data["options"][0]["value_se"] = -0.1


def negative_margin_error(data):
    data["options"][1]["margin_se"] = -0.1


def text_margin_error(data):
    data["options"][1]["margin_se"] = "0.2"


def chance_above_one(data):
    data["options"][0]["made"] = 1.5


def three_points(data):
    data["options"][0]["points"] = [1, 2, 3]


def unknown_theme(data):
    data["themes"] = ["squeeze"]


def theme_twice(data):
    data["themes"] = ["endgame", "endgame"]


def negative_deals(data):
    data["deals"] = -1


def wrong_seat(data):
    data["seat"] = (data["seat"] + 1) % data["record"]["players"]


def seat_as_text(data):
    data["seat"] = str(data["seat"])


def unknown_phase(data):
    data["phase"] = "discard"


def other_phase(data):
    data["phase"] = next(p for p in PHASES if p != data["phase"])


def broken_record(data):
    data["record"]["format"] = "pgn"


def illegal_action_in_record(data):
    data["record"]["rounds"][-1]["actions"][0]["bid"] = 9


def no_record(data):
    data.pop("record")


def finished_round(data):
    data["record"]["rounds"] = data["record"]["rounds"][:-1] or [{"nothing": True}]


def line_from_a_stranger(data):
    data["line"] = [[99, "AS"]]


def line_with_nonsense(data):
    data["line"] = [[data["seat"], "XX"]]


def line_hands_with_wrong_own_hand(data):
    hands = data["line_hands"]
    other = (data["seat"] + 1) % len(hands)
    hands[data["seat"]], hands[other] = hands[other], hands[data["seat"]]


def line_hands_short(data):
    data["line_hands"] = data["line_hands"][:-1]


def wrong_key(data):
    data["key"] = "0" * 16


def negative_points(data):
    data["options"][0]["points"] = [-1, 2]


SPOILERS = [
    drop_option,
    duplicate_option,
    illegal_option,
    unsorted_options,
    nan_value,
    text_value,
    bool_value,
    negative_error,
    negative_margin_error,
    text_margin_error,
    chance_above_one,
    three_points,
    negative_points,
    unknown_theme,
    theme_twice,
    negative_deals,
    wrong_seat,
    seat_as_text,
    unknown_phase,
    other_phase,
    broken_record,
    illegal_action_in_record,
    no_record,
    finished_round,
    line_from_a_stranger,
    line_with_nonsense,
    line_hands_with_wrong_own_hand,
    line_hands_short,
    wrong_key,
]


@pytest.mark.parametrize("change", SPOILERS, ids=lambda f: f.__name__)
def test_from_json_rejects_each_kind_of_malformed_input(change):
    with pytest.raises(PositionError) as caught:
        AnalysedPosition.from_json(spoil(change))
    assert str(caught.value)  # a message for a person


@pytest.mark.parametrize("data", [None, [], "position", 3])
def test_from_json_rejects_anything_but_an_object(data):
    with pytest.raises(PositionError, match="JSON object"):
        AnalysedPosition.from_json(data)


def test_a_record_error_names_where_it_is():
    with pytest.raises(PositionError, match=r"round \d+, action 0"):
        AnalysedPosition.from_json(spoil(illegal_action_in_record))


def test_position_error_is_a_value_error():
    assert issubclass(PositionError, ValueError)


def test_every_sample_theme_is_known(bank):
    assert all(theme in THEMES for p in bank for theme in p.themes)


def test_an_unknown_option_code_is_refused_by_option():
    position = lead_position()
    with pytest.raises(PositionError):
        position.option("J1")
