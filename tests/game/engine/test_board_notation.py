"""The board's notation: written and read back, and every string it cannot read refused
in words, never with another exception."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import board as boards
from game.engine import board_notation as notation
from game.engine import variants
from game.engine.board import Board, BoardError
from game.engine.cards import card_code, cards_of

from .test_board import TABLE_IDS, TABLES, board_of, random_round


@pytest.mark.parametrize(("rules", "players"), TABLES, ids=TABLE_IDS)
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("known", [None, ()], ids=["every-card", "own-hand"])
def test_a_board_reads_back_as_it_was_written(rules, players, seed, known):
    setup, deal, actions, _ = random_round(rules, players, seed, cards_played=seed * 5)
    board = board_of(setup, deal, actions, seat=seed % players, known=known, scores=None)
    board = replace(board, scores=tuple(range(-2, setup.units - 2)))
    text = notation.write(board)
    assert notation.read(text) == board
    assert notation.write(notation.read(text)) == text
    assert len(text) <= notation.MAX_LENGTH


def test_the_asking_seats_fill_travels_in_a_tenth_field_written_only_where_given():
    setup, deal, actions, state = random_round(variants.SEVEN_POINT, 4, 3, cards_played=2)
    seat = (deal.dealer + 1) % 4
    board = board_of(setup, deal, actions, seat=seat, known=())
    nine_fields = notation.write(board)
    assert len(nine_fields.split("~")) == 9  # a board without a fill is written as before
    assert notation.read(nine_fields).fill is None
    drawn = replace(board, fill=state.fills[seat])
    text = notation.write(drawn)
    assert text == nine_fields + "~" + "".join(card_code(c) for c in cards_of(state.fills[seat]))
    assert notation.read(text) == drawn
    assert notation.read(nine_fields + "~x") == board


def test_options_on_a_preset_travel_in_the_rules_field():
    rules = variants.CLASSIC.with_options(follow="schmier", target=11, jokers=2, jick=True)
    nine = sum(1 << c for c in range(9))  # the 2 to the 10 of spades
    board = Board(rules, ((0, 2), (1, 3)), 1, (3, -1), 0, (nine, None, None, None))
    text = notation.write(board)
    assert text.split("~")[1] == (
        "classic.jokers-2.jick-1.bids-2-7.follow-schmier"
        ".points-high-low-jack-jick-joker_high-joker_low-game.target-11"
    )
    assert notation.read(text).rules == rules


def test_the_example_in_the_docs_reads():
    board = notation.read("1~house~02.13~3~0.0~0~AS10SJSJ1KHQD.x.x.x~x~b2.p.p.p.AS")
    assert board.dealer == 3 and board.teams == ((0, 2), (1, 3))
    state = boards.replay(board).state
    assert state.trump == 0 and state.current_player() == 1


def test_cards_and_actions_read_in_either_case():
    upper = notation.read("1~house~02.13~3~0.0~0~AS10SJSJ1KHQD.x.x.x~x~b2.p.p.p.AS")
    lower = notation.read("1~house~02.13~3~0.0~0~as10sjsj1khqd.X.X.X~X~B2.P.p.p.as")
    assert lower == upper


VALID = "1~house~02.13~3~0.0~0~AS10SJSJ1KHQD.x.x.x~x~b2.p.p.p.AS"


@pytest.mark.parametrize(
    ("text", "field", "reason"),
    [
        ("1" * 5000, "notation", "the board is 5000 characters long; at most 1200"),
        (VALID.replace("~x~", "~x%20~"), "notation", "'%' is not used in a board"),
        ("1~house~02.13", "notation", "a board has 9 fields split by ~"),
        (VALID.replace("1~", "2~", 1), "notation", "this is board notation 1, not '2'"),
        (VALID.replace("house", "poker"), "rules", "no preset called 'poker'"),
        (VALID.replace("house", "classic.colour-red"), "rules", "no rules option called 'colour'"),
        (VALID.replace("house", "house.target-5.target-7"), "rules", "target is given twice"),
        (VALID.replace("house", "classic.deal-7"), "rules", "deal is 6 or 9 cards, not 7"),
        (VALID.replace("02.13", "0a.13"), "teams", "teams are seat digits"),
        (VALID.replace("~3~", "~33~"), "dealer", "the dealer is one seat digit, not '33'"),
        (VALID.replace("0.0", "0.12345"), "scores", "a score is a whole number of at most 4"),
        (VALID.replace("AS10S", "ZZ10S"), "hands", "'ZZ1' in seat 0's hand is not a card"),
        (VALID.replace("AS10SJS", "AS10SAS"), "hands", "AS is written twice in seat 0's hand"),
        (VALID.replace("b2.p", "b9.p"), "actions", "action 1: a bid is 1 to 7, not 9"),
        (VALID.replace("b2.p", "bid2.p"), "actions", "action 1, 'bid2', is not p, bN"),
        (VALID.replace("~x~b2", "~QQ~b2"), "pack", "'QQ' in the pack is not a card"),
        (VALID + "~QQ", "fill", "'QQ' in the fill is not a card"),
        (VALID + "~AHAH", "fill", "AH is written twice in the fill"),
        (VALID + "~", "fill", "the fill is the cards the seat drew, or x where not given"),
        (VALID + "~x~x", "notation", "a board has 9 fields split by ~"),
    ],
)
def test_a_string_that_is_not_a_board_is_refused_with_its_reason(text, field, reason):
    with pytest.raises(BoardError) as caught:
        notation.read(text)
    assert caught.value.field == field
    assert reason in str(caught.value)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (VALID.replace("AS10SJSJ1KHQD", "AS10SJSJ1KH"), "seat 0 holds 5 cards; a hand is 6"),
        (VALID.replace("AS10SJSJ1KHQD", "AS10SJSJ1KH2D"), "2D is not in the 4-player deck"),
        (VALID.replace(".x.x.x", ".ASKSQSJHJDJC.x.x"), "AS is in two hands: seat 0's and seat 1's"),
        (VALID.replace(".x.x.x", ".x.x.x.x"), "5 hands for 4 players"),
        (VALID.replace("b2.p.p.p", "b3.b2.p.p"), "a bid must beat the high bid of 3: 2 does not"),
        (
            VALID.replace("02.13", "02.1.3"),
            "2 match scores for 3 scoring units",
        ),
        (VALID.replace("~3~", "~7~"), "the dealer must be a seat 0 to 3"),
    ],
)
def test_an_impossible_position_in_notation_is_refused_by_the_replay(text, reason):
    board = notation.read(text)
    with pytest.raises(BoardError) as caught:
        boards.replay(board)
    assert reason in str(caught.value)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_mangled_board_is_read_or_refused_in_words_never_an_exception(data):
    text = list(VALID)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text) - 1))
        text[at] = data.draw(st.sampled_from("0123456789xASHDCJKQpbtd.~-_%"))
    try:
        board = notation.read("".join(text))
        boards.replay(board)
    except BoardError as error:
        assert error.reason


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_any_text_is_read_or_refused_in_words(text):
    try:
        boards.replay(notation.read(text))
    except BoardError as error:
        assert error.reason
