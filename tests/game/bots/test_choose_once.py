"""choose_once: what a worker process runs for one bot decision at a live table."""

import time
from dataclasses import replace
from random import Random

import pytest

import game.bots
from game.bots import MIN_THINK_MS, choose_once
from game.bots.levels import Tuning
from game.engine.state import MatchSetup, RoundState, shuffle_deal


@pytest.fixture
def budgets(monkeypatch):
    seen = []

    class Recorder:
        def __init__(self, budget_ms, max_deals):
            seen.append(budget_ms)

        def choose(self, view, legal, rng):
            return legal[0]

    monkeypatch.setitem(game.bots.LEVELS, "expert", Recorder)
    return seen


def first_decision():
    setup = MatchSetup.partnerships(4, 2)
    state = RoundState(setup, shuffle_deal(setup, 0, Random(3)))
    return state.view_for(state.current_player()), state.legal_actions()


def test_a_choice_due_later_keeps_its_full_budget(budgets):
    view, legal = first_decision()
    options = {"budget_ms": 200.0, "max_deals": 50}
    choose_once("expert", view, legal, 1, options, think_until=time.time() + 5)
    assert budgets == [200.0]


def test_a_choice_that_waited_thinks_only_until_its_move_is_due(budgets):
    view, legal = first_decision()
    options = {"budget_ms": 200.0, "max_deals": 50}
    choose_once("expert", view, legal, 1, options, think_until=time.time() + 0.08)
    choose_once("expert", view, legal, 1, options, think_until=time.time() - 1)
    assert 10.0 < budgets[0] <= 80.0
    assert budgets[1] == MIN_THINK_MS


def test_a_bot_without_a_budget_is_left_as_it_is():
    view, legal = first_decision()
    assert choose_once("greedy", view, legal, 1, {}, think_until=time.time() - 1) in legal


def test_a_level_seated_without_options_thinks_no_longer_than_its_turn_allows(monkeypatch):
    seen = []

    def recorder(**options):
        seen.append(options["budget_ms"])
        return type("Recorder", (), {"choose": lambda self, view, legal, rng: legal[0]})()

    monkeypatch.setitem(game.bots.LEVELS, "club", recorder)
    view, legal = first_decision()
    choose_once("club", view, legal, 1, {}, think_until=time.time() + 5)
    choose_once("club", view, legal, 1, {}, think_until=time.time() + 0.03)
    assert seen[0] == game.bots.LEVELS_BY_NAME["club"].budget_at(view.rules)
    assert MIN_THINK_MS <= seen[1] <= 30.0


def test_a_level_seated_at_a_preset_of_its_own_starts_from_that_presets_budget(monkeypatch):
    seen = []

    def recorder(**options):
        seen.append(options["budget_ms"])
        return type("Recorder", (), {"choose": lambda self, view, legal, rng: legal[0]})()

    club = game.bots.LEVELS_BY_NAME["club"]
    tuned = replace(club, presets={"house": Tuning(club.max_deals, club.errors, 41.0)})
    monkeypatch.setitem(game.bots.LEVELS_BY_NAME, "club", tuned)
    monkeypatch.setitem(game.bots.LEVELS, "club", recorder)
    view, legal = first_decision()
    choose_once("club", view, legal, 1, {}, think_until=time.time() + 5)
    assert seen == [41.0]
