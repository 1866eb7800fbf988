"""Bots cannot cheat: their code never touches the true state, and their choices depend
only on what the seat may see."""

import ast
from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.bots import LEVELS, make_bot
from game.bots.levels import LEVELS_BY_NAME
from game.engine.state import IllegalAction, RoundState
from tests.game.engine.test_properties import random_states, reshuffle_unseen, setups

BOTS = Path(__file__).resolve().parents[3] / "game" / "bots"
# the true state and its parts (game.engine.state names them), and the record
TRUE_STATE = ("state", "setup", "house_round", "full_deck_round", "match")
FORBIDDEN_IMPORTS = {f"game.engine.{name}" for name in TRUE_STATE} | {"game.engine.record"}
FORBIDDEN_NAMES = {
    "RoundState",
    "MatchState",
    "Deal",
    "shuffle_deal",
    "solver_position",
    "position_of",
}
FORBIDDEN_ATTRIBUTES = {"deal", "hidden", "history", "captured", "solver_position", "position_of"}


def bot_sources() -> list[Path]:
    return sorted(BOTS.glob("*.py"))


@pytest.mark.parametrize("path", bot_sources(), ids=lambda p: p.name)
def test_bot_code_never_reaches_the_true_state(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            assert module not in FORBIDDEN_IMPORTS and module not in TRUE_STATE, (path.name, module)
            if node.level and module.split(".")[-1] in TRUE_STATE:
                raise AssertionError(f"{path.name} imports {module}")
            assert not {alias.name for alias in node.names} & FORBIDDEN_NAMES, path.name
        elif isinstance(node, ast.Import):
            assert not {alias.name for alias in node.names} & FORBIDDEN_IMPORTS, path.name
        elif isinstance(node, ast.Name):
            assert node.id not in FORBIDDEN_NAMES, (path.name, node.id)
        elif isinstance(node, ast.Attribute):
            assert node.attr not in FORBIDDEN_ATTRIBUTES, (path.name, node.attr)


def test_every_bot_chooses_among_the_legal_actions_and_all_but_random_read_the_view():
    readers = set()
    for path in bot_sources():
        tree = ast.parse(path.read_text())
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            for node in cls.body:
                if (
                    isinstance(node, ast.FunctionDef)
                    and node.name == "choose"
                    and not _is_stub(node)
                ):
                    assert [arg.arg for arg in node.args.args][1:4] == ["view", "legal", "rng"]
                    used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
                    assert "legal" in used, f"{cls.name} ignores the legal actions"
                    if "view" in used:
                        readers.add(cls.name)
    # RandomBot reads the view only for what a discard must be
    assert readers == {"RandomBot", "GreedyBot", "ExpertBot", "LevelBot"}


def _is_stub(function: ast.FunctionDef) -> bool:
    body = function.body
    return len(body) == 1 and isinstance(body[0], ast.Expr) and body[0].value.value is Ellipsis


def searches(level: str) -> bool:
    """The expert and the levels built on it (levels.py) search sampled deals."""
    return level.startswith("expert") or level in LEVELS_BY_NAME


def honest_bot(level: str):
    # a fixed number of deals and no clock, so that a searching bot's choice is repeatable
    return make_bot(level, budget_ms=1e9, max_deals=4) if searches(level) else make_bot(level)


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(sorted(LEVELS)), setups(), st.integers(0, 2**32), st.integers(0, 40))
def test_a_bot_chooses_the_same_whatever_the_cards_it_cannot_see(level, setup, seed, cut):
    if searches(level) and setup.players > 5:
        setup = type(setup).cutthroat(3)  # keep exact search quick in the test suite
    states = [s for s in random_states(setup, seed) if not s.is_terminal()]
    state = states[min(cut, len(states) - 1)]
    seat = state.current_player()
    twin_deal = reshuffle_unseen(state, seat, Random(seed + 1))
    try:
        twin = RoundState(setup, twin_deal, state.scores)
        for action in state.history:
            twin = twin.apply(action)
    except IllegalAction:
        return  # that reshuffle contradicts a void the seat has seen
    assert twin.view_for(seat) == state.view_for(seat)
    bot = honest_bot(level)
    first = bot.choose(state.view_for(seat), state.legal_actions(), Random(7))
    second = bot.choose(twin.view_for(seat), twin.legal_actions(), Random(7))
    assert first == second
    assert first in state.legal_actions()
