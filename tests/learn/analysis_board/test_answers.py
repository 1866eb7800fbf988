"""The analysis board's answers, pure: the exact table as the board's core gives it, and the
expert's answer the very one a live table's expert gives for the same view and seed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.bots import choose_once
from game.engine import board as boards
from game.engine import variants
from game.engine.board import BoardError
from game.engine.rules import Phase, action_code
from learn.analysis_board import answers
from learn.analysis_board.links import analysis_link
from learn.core.positions import AnalysedPosition
from tests.game.engine.test_board import TABLE_IDS, TABLES, board_of, random_round
from tests.learn.conftest import sample_data

# a budget the deals bound, never the clock: the same view and seed give the same answer
EXACT_BUDGET = {"budget_ms": 60_000.0, "max_deals": 6}


@pytest.mark.parametrize(("rules", "players"), TABLES, ids=TABLE_IDS)
def test_the_exact_answer_is_the_solvers_table_and_card_values(rules, players):
    no_exchange = rules.exchange == "none" and not rules.is_house
    setup, deal, actions, _ = random_round(rules, players, 1, stop_at_trump=no_exchange)
    board = board_of(setup, deal, actions)
    found = answers.exact_answer(board)
    table = boards.opening_table(board)
    assert [(row["lead"], tuple(row["points"])) for row in found["table"]] == [
        (row.lead, row.points) for row in table
    ]
    assert found["table_note"] == ""
    setup, deal, actions, state = random_round(rules, players, 1, cards_played=players + 1)
    played = answers.exact_answer(board_of(setup, deal, actions))
    assert played["cards"] == boards.card_values(board_of(setup, deal, actions))
    assert played["to_play"] == state.current_player()
    assert "first lead" in played["table_note"]


@pytest.mark.parametrize(
    ("rules", "players", "cards_played"),
    [(variants.HOUSE, 4, 0), (variants.HOUSE, 4, 5), (variants.CLASSIC, 4, 2)],
    ids=["house-auction-over", "house-in-play", "classic-in-play"],
)
def test_the_boards_expert_answer_is_the_live_tables_for_the_same_view_and_seed(
    rules, players, cards_played
):
    setup, deal, actions, state = random_round(rules, players, 3, cards_played=cards_played)
    seat = state.current_player()
    board = board_of(setup, deal, actions, seat=seat, known=())  # the seat's own hand alone
    view = answers.seat_view(boards.replay(board))
    live_view = state.view_for(seat)  # the true round, as the live table holds it
    assert view == live_view
    live = choose_once(
        "expert", live_view, live_view.legal_actions(), answers.seed_of(live_view), EXACT_BUDGET
    )
    found = answers.expert_answer(view, EXACT_BUDGET)
    assert found["choice"] == action_code(live)
    assert {o["code"] for o in found["options"]} == {
        action_code(a) for a in live_view.legal_actions()
    }


def test_the_expert_answer_and_its_key_ignore_the_hands_the_seat_cannot_see():
    setup, deal, actions, state = random_round(variants.HOUSE, 4, 5)
    seat = state.current_player()
    every_hand = boards.replay(board_of(setup, deal, actions, seat=seat))
    own_hand = boards.replay(board_of(setup, deal, actions, seat=seat, known=()))
    other = replace(
        every_hand.board, hands=tuple(h if s == seat else None for s, h in enumerate(deal.hands))
    )
    views = [answers.seat_view(r) for r in (every_hand, own_hand, boards.replay(other))]
    assert len({answers.view_key(v, EXACT_BUDGET) for v in views}) == 1
    assert answers.expert_answer(views[0], EXACT_BUDGET) == answers.expert_answer(
        views[1], EXACT_BUDGET
    )


def test_the_expert_answers_only_the_seat_to_act():
    setup, deal, actions, state = random_round(variants.HOUSE, 4, 2)
    waiting = (state.current_player() + 1) % 4
    view = answers.seat_view(boards.replay(board_of(setup, deal, actions, seat=waiting)))
    with pytest.raises(BoardError) as refused:
        answers.expert_answer(view, EXACT_BUDGET)
    assert refused.value.reason == (
        f"seat {state.current_player()} is to act, not seat {waiting}: the expert answers for "
        "the seat asking when it is its turn"
    )
    assert state.phase() is Phase.PLAY


def test_a_trainer_positions_analyse_link_opens_the_board_the_seat_saw():
    for data in sample_data()[:12]:
        position = AnalysedPosition.from_json(data)
        notation = analysis_link(position)
        replayed = answers.read(notation)
        assert answers.seat_view(replayed) == position.view()
        others = [h for s, h in enumerate(replayed.board.hands) if s != position.seat]
        assert others == [None] * len(others)  # no other hand leaves the position
