"""The trainer cannot use what the seat cannot see.

A position's record holds every hand, but its analysis, themes, sampled line and
explanations come from the seat's view alone: the same view with the other hands and
the hidden cards dealt differently gives the same position data for the same rng.
"""

import ast
from dataclasses import replace
from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.bots.expert import ExpertBot
from game.engine.cards import card_code, cards_of
from game.engine.state import IllegalAction, MatchSetup, MatchState, RoundState
from learn.core.analysis import assess, position_at
from learn.core.explain import explain
from tests.game.engine.test_properties import random_states, reshuffle_unseen

LEARN = Path(__file__).resolve().parents[3] / "learn"
PURE_MODULES = [
    "core/positions.py",
    "core/themes.py",
    "core/explain.py",
    "core/explain_family.py",
    "core/variant_themes.py",
    "core/analysis.py",
    "core/lines.py",
    "core/grades.py",
    "bank/generation.py",
    "bank/bank_file.py",
    "round_review/decisions.py",
]
# a fixed number of deals and no clock, so that the analysis is repeatable
ANALYST = ExpertBot(budget_ms=1e9, max_deals=3)


def twins(setup: MatchSetup, seed: int, cut: int) -> tuple[RoundState, RoundState] | None:
    """A state with a decision, and a twin that differs only in cards the seat has not seen."""
    states = [s for s in random_states(setup, seed) if len(s.legal_actions()) >= 2]
    state = states[min(cut, len(states) - 1)]
    seat = state.current_player()
    twin = RoundState(setup, reshuffle_unseen(state, seat, Random(seed + 1)), state.scores)
    try:
        for action in state.history:
            twin = twin.apply(action)
    except IllegalAction:
        return None  # that reshuffle contradicts a void the seat has shown
    return state, twin


def as_match(state: RoundState) -> MatchState:
    return MatchState(state.setup, state.dealer, (state,))


CASES = [
    (MatchSetup.cutthroat(3), 11, 0),  # the auction
    (MatchSetup.cutthroat(3), 12, 3),  # the opening lead
    (MatchSetup.cutthroat(3), 13, 9),
    (MatchSetup.partnerships(4, 2), 14, 12),
    (MatchSetup.partnerships(4, 2), 17, 10),  # a later lead
    (MatchSetup.cutthroat(4), 16, 16),
]


@pytest.mark.parametrize(("setup", "seed", "cut"), CASES)
def test_the_same_view_gives_the_same_position_whatever_the_hidden_cards(setup, seed, cut):
    pair = twins(setup, seed, cut)
    if pair is None:
        pytest.skip("the reshuffle broke a shown void")
    state, twin = pair
    seat = state.current_player()
    assert state.deal != twin.deal
    assert state.view_for(seat) == twin.view_for(seat)

    first = assess(state.view_for(seat), ANALYST, Random(7))
    second = assess(twin.view_for(seat), ANALYST, Random(7))
    assert first == second

    position = position_at(as_match(state), seat, first)
    twin_position = position_at(as_match(twin), seat, second)
    assert position.key != twin_position.key  # the records differ ...
    assert replace(position, record=twin_position.record) == twin_position  # ... nothing else
    for option in position.options:
        assert explain(position, option.code) == explain(twin_position, option.code)


def test_the_sampled_line_gives_the_seat_its_real_hand():
    pair = twins(MatchSetup.partnerships(4, 2), 14, 12)
    assert pair is not None
    state, _ = pair
    seat = state.current_player()
    position = position_at(as_match(state), seat, assess(state.view_for(seat), ANALYST, Random(1)))
    view = position.view()
    assert set(position.line_hands[seat]) == _codes(view.hand)
    assert position.line[0] == (seat, position.best.code)


def _codes(mask: int) -> set[str]:
    return {card_code(c) for c in cards_of(mask)}


@pytest.mark.parametrize("name", PURE_MODULES)
def test_the_trainers_core_never_imports_django(name):
    tree = ast.parse((LEARN / name).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not any(alias.name.startswith("django") for alias in node.names), name
        elif isinstance(node, ast.ImportFrom):
            assert not (node.module or "").startswith("django"), name


@pytest.mark.parametrize(
    "name",
    ["core/themes.py", "core/explain.py", "core/variant_themes.py", "core/explain_family.py"],
)
def test_themes_and_explanations_never_read_the_record(name):
    tree = ast.parse((LEARN / name).read_text())
    read = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert not read & {"record", "hands", "hidden", "deal", "line_hands"}, name


def test_the_analysis_is_given_the_view_and_nothing_else():
    tree = ast.parse((LEARN / "core" / "analysis.py").read_text())
    assess_def = next(
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name == "assess"
    )
    assert [arg.arg for arg in assess_def.args.args] == ["view", "analyst", "rng"]


@settings(max_examples=12, deadline=None)
@given(st.sampled_from([3, 4]), st.booleans(), st.integers(0, 2**32), st.integers(0, 30))
def test_any_view_gives_the_same_analysis_whatever_the_hidden_cards(players, teams, seed, cut):
    partners = players == 4 and teams
    setup = MatchSetup.partnerships(4, 2) if partners else MatchSetup.cutthroat(players)
    pair = twins(setup, seed, cut)
    if pair is None:
        return
    state, twin = pair
    seat = state.current_player()
    assert state.view_for(seat) == twin.view_for(seat)
    first = assess(state.view_for(seat), ANALYST, Random(seed))
    assert first == assess(twin.view_for(seat), ANALYST, Random(seed))
