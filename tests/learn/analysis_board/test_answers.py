"""The analysis board's answers, pure: the exact table as the board's core gives it, and the
expert's answer the very one a live table's expert gives for the same view and seed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.bots import choose_once
from game.bots.expert import ExpertBot
from game.engine import board as boards
from game.engine import record as records
from game.engine import variants
from game.engine.board import BoardError
from game.engine.rules import Phase, action_code
from game.engine.state import MatchState
from learn.analysis_board import answers
from learn.analysis_board.links import analysis_link
from learn.core.positions import AnalysedPosition, phase_of
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


def _moment(rules, players, seed, moment):
    """A random round at ``moment``: "auction" (one action into it) or a number of cards
    into the play; the seat to act's board (its own hand alone) and the true round."""
    cards = 0 if moment == "auction" else moment
    setup, deal, actions, state = random_round(rules, players, seed, cards_played=cards)
    if moment == "auction":
        actions = actions[:1]
        state = boards.replay(board_of(setup, deal, actions)).state
    seat = state.current_player()
    board = board_of(setup, deal, actions, seat=seat, known=())  # the seat's own hand alone
    return board, state.view_for(seat)  # the true round, as the live table holds it


SHARED_MOMENTS = [
    (variants.HOUSE, 4, "auction"),
    (variants.CLASSIC, 4, "auction"),
    (variants.CLASSIC, 4, 2),
    (variants.SEVEN_POINT, 4, "auction"),
]
SHARED_IDS = ["house-auction", "classic-auction", "classic-in-play", "seven-point-auction"]


@pytest.mark.parametrize(
    ("rules", "players", "moment"),
    [*SHARED_MOMENTS, (variants.HOUSE, 4, 0), (variants.HOUSE, 4, 5)],
    ids=[*SHARED_IDS, "house-auction-over", "house-in-play"],
)
def test_the_boards_expert_answer_is_the_live_tables_for_the_same_view_and_seed(
    rules, players, moment
):
    board, live_view = _moment(rules, players, 3, moment)
    view = answers.seat_view(boards.replay(board))
    assert view == live_view
    live = choose_once(
        "expert", live_view, live_view.legal_actions(), answers.seed_of(live_view), EXACT_BUDGET
    )
    found = answers.expert_answer(view, EXACT_BUDGET)
    assert found["choice"] == action_code(live)
    assert {o["code"] for o in found["options"]} == {
        action_code(a) for a in live_view.legal_actions()
    }


@pytest.mark.parametrize(("rules", "players", "moment"), SHARED_MOMENTS, ids=SHARED_IDS)
def test_one_search_gives_the_choice_and_the_prices_where_the_live_expert_searches_so(
    rules, players, moment, monkeypatch
):
    """Where the live expert's own search is the detailed one, the board searches once and
    takes the choice from it as ``ExpertBot.choose`` does; the live table's choice from
    the same seed, made by ``choose`` itself, is that same search's best."""
    board, view = _moment(rules, players, 3, moment)
    searches = []
    analyse = ExpertBot.analyse

    def counted(bot, *args, **kwargs):
        analysis = analyse(bot, *args, **kwargs)
        if bot.budget_ms == EXACT_BUDGET["budget_ms"]:  # not the quick bidders of a line
            searches.append(analysis)
        return analysis

    monkeypatch.setattr(ExpertBot, "analyse", counted)
    found = answers.expert_answer(view, EXACT_BUDGET)
    assert len(searches) == 1
    assert found["choice"] == action_code(searches[0].best)
    assert [o["code"] for o in found["options"]] == [
        action_code(s.action) for s in searches[0].actions
    ]
    live = choose_once("expert", view, view.legal_actions(), answers.seed_of(view), EXACT_BUDGET)
    assert len(searches) == 2
    assert searches[1].actions == searches[0].actions  # the live choice's search: the same
    assert live == searches[1].best


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


def _past_the_fill():
    """A seven-point round two cards into the play, at a live table: the seat to act drew
    three cards in its fill."""
    setup, deal, actions, state = random_round(variants.SEVEN_POINT, 4, 3, cards_played=2)
    seat = state.current_player()
    assert state.fills[seat].bit_count() == 3
    return setup, deal, actions, state, seat


def test_a_seven_point_review_link_past_the_fill_opens_the_seats_real_hand():
    setup, deal, actions, state, seat = _past_the_fill()
    match = MatchState(setup, deal.dealer, (state,))
    view = match.view_for(seat)
    position = AnalysedPosition(
        record=records.write(match), seat=seat, phase=phase_of(view), options=(), themes=(),
        deals=0, line=(), line_hands=(),
    )  # fmt: skip
    replayed = answers.read(analysis_link(position))
    assert answers.expert_view(replayed) == view  # its dealt hand, its fill, nothing else
    assert replayed.board.fill == state.fills[seat]
    assert [h for s, h in enumerate(replayed.board.hands) if s != seat] == [None] * 3
    live = choose_once("expert", view, view.legal_actions(), answers.seed_of(view), EXACT_BUDGET)
    assert answers.expert_answer(answers.expert_view(replayed), EXACT_BUDGET)["choice"] == (
        action_code(live)
    )


def test_past_a_fill_the_board_is_not_given_the_expert_refuses_in_words():
    setup, deal, actions, state, seat = _past_the_fill()
    replayed = boards.replay(board_of(setup, deal, actions, seat=seat, known=()))
    with pytest.raises(BoardError) as refused:
        answers.expert_view(replayed)
    assert refused.value.reason.startswith(f"seat {seat} drew 3 cards from the pack, and the")
