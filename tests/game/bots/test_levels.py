"""The levels named by strength: the expert's way with less search and a player's errors,
always legal, repeatable for a seed and blind to what the seat cannot see."""

from random import Random

import pytest

from game.bots import LEVELS, OFFERED_LEVELS, SEATED_LEVELS, full_deck, make_bot
from game.bots.expert import ActionStats, Analysis, ExpertBot
from game.bots.levels import (
    LEVEL_TABLE,
    Errors,
    Level,
    LevelBot,
    Tuning,
    forgotten,
    level_bot,
)
from game.bots.sampling import knowledge
from game.engine.cards import JOKERS, SUIT_MASK
from game.engine.rules import PASS, bid_action
from game.engine.solver import sample_deals
from game.engine.state import MatchSetup, MatchState
from game.engine.variants import PRESETS
from game.offline import arena
from tests.game.bots.test_full_deck import FAMILY, played_round, twin
from tests.game.engine.test_properties import random_states

LOWER = [level.name for level in LEVEL_TABLE]


def repeatable(level: str):
    # a fixed number of deals and no clock, so that a choice repeats for a seed
    return make_bot(level, budget_ms=1e9, max_deals=4)


def sizes(table) -> list[int]:
    allowed = sorted(table.players)
    return sorted({allowed[0], 4 if 4 in allowed else allowed[-1], allowed[-1]} - {7, 8})


def one_round(bot, setup: MatchSetup, seed: int) -> list[int]:
    """The actions of one round where ``bot`` plays every seat; each one applies."""
    match = MatchState(setup, first_dealer=seed % setup.players).deal_round(Random(seed))
    choices = Random(seed + 1)
    actions = []
    while match.current_player() is not None:
        seat = match.current_player()
        action = bot.choose(match.view_for(seat), match.legal_actions(), choices)
        match = match.apply(action, seat)  # an illegal action would raise here
        actions.append(action)
    return actions


CASES = [
    (level, preset, players)
    for preset, table in PRESETS.items()
    for players in sizes(table)
    for level in LOWER
]


@pytest.mark.parametrize(("level", "preset", "players"), CASES)
def test_every_level_plays_legal_actions_and_repeats_them_for_a_seed(level, preset, players):
    table = PRESETS[preset]
    units = 2 if players % 2 == 0 else players
    setup = MatchSetup.partnerships(players, units, rules=table)
    first = one_round(repeatable(level), setup, seed=players)
    assert first == one_round(repeatable(level), setup, seed=players)


def test_the_levels_are_offered_weakest_first_and_random_is_not_offered():
    assert OFFERED_LEVELS[:4] == ("beginner", "casual", "club", "expert")
    assert "random" not in OFFERED_LEVELS
    # a table stored with a random or greedy seat still seats it
    assert {"random", "greedy"} <= set(SEATED_LEVELS) <= set(LEVELS)
    assert make_bot("expert").__class__ is ExpertBot  # the expert level is the expert
    for level in LOWER:
        assert make_bot(level).name == level


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_at_every_preset_the_weaker_level_searches_less_and_errs_more(preset):
    rules = PRESETS[preset]
    bots = [level_bot(level.name).at(rules) for level in LEVEL_TABLE]
    budgets = [bot.budget_ms for bot in bots]
    deals = [bot.max_deals for bot in bots]
    assert budgets == sorted(budgets) and max(budgets) < ExpertBot().budget_ms
    assert deals == sorted(deals) and max(deals) < ExpertBot().max_deals
    for field in ("misbid", "bid_shift", "forget", "slip", "slip_loss"):
        rates = [getattr(bot.errors, field) for bot in bots]
        assert rates == sorted(rates, reverse=True), field


def test_a_level_plays_a_preset_by_its_own_tuning_there_and_the_house_one_elsewhere():
    tuned = Tuning(max_deals=9, errors=Errors(slip=0.1))
    bot = LevelBot(max_deals=5, errors=Errors(slip=0.7), presets={"classic": tuned})
    at_classic = bot.at(PRESETS["classic"])
    assert (at_classic.max_deals, at_classic.errors) == (9, tuned.errors)
    assert at_classic.budget_ms == bot.budget_ms and at_classic.level == bot.level
    assert bot.at(PRESETS["house"]) is bot and bot.at(PRESETS["seven_point"]) is bot
    for level in LEVEL_TABLE:  # a test's fixed deals and budget hold at every preset
        fixed = level_bot(level.name, max_deals=4, budget_ms=7.0)
        assert {fixed.at(rules).max_deals for rules in PRESETS.values()} == {4}
        assert {fixed.at(rules).budget_ms for rules in PRESETS.values()} == {7.0}


def test_a_preset_may_give_a_level_more_time_and_a_live_turn_still_caps_it():
    level = Level("club", "Club", 30.0, 6, Errors(), {"classic": Tuning(12, Errors(), 45.0)})
    bot = LevelBot(budget_ms=level.budget_ms, max_deals=6, presets=level.presets)

    assert bot.at(PRESETS["classic"]).budget_ms == 45.0 == level.budget_at(PRESETS["classic"])
    assert bot.at(PRESETS["house"]).budget_ms == 30.0 == level.budget_at(PRESETS["house"])


def analysis(*values: tuple[int, float]) -> Analysis:
    stats = tuple(ActionStats(action, value, 0.0, None, None) for action, value in values)
    return Analysis(0, stats, 10, True, (), ())


def test_a_slip_is_one_of_the_next_best_choices_never_far_below_the_best():
    bot = LevelBot(errors=Errors(slip=1.0, slip_loss=0.5, slip_among=3))
    priced = analysis((10, 1.0), (11, 0.8), (12, 0.6), (13, 0.55))
    chosen = {bot._slipped(priced, Random(seed)) for seed in range(40)}
    assert chosen == {11, 12}  # 13 is below the three best; the best is not a slip
    far = analysis((10, 1.0), (11, -2.0))
    assert bot._slipped(far, Random(0)) == 10  # nothing near: no slip


def test_a_misjudged_hand_shifts_each_bid_against_passing_by_its_size():
    misjudged = LevelBot(errors=Errors(misbid=1.0, bid_shift=0.25))
    priced = analysis((bid_action(2), 0.5), (PASS, 0.3), (bid_action(3), 0.3))
    chosen = {misjudged._judged_bid(priced, Random(seed)) for seed in range(40)}
    # over-valued, the three outbids the best bid of two; under-valued, the pass
    assert chosen == {PASS, bid_action(3)}
    steady = LevelBot(errors=Errors(misbid=0.0, bid_shift=0.25))
    assert {steady._judged_bid(priced, Random(s)) for s in range(10)} == {bid_action(2)}


def test_a_forgotten_void_lets_the_deals_give_the_suit_back():
    setup = MatchSetup(4, [[0, 2], [1, 3]])
    for seed in range(40):
        for state in random_states(setup, seed)[8:]:
            if state.is_terminal():
                break
            known = knowledge(state.view_for(state.current_player()))
            if any(known.barred):
                break
        else:
            continue
        break
    else:
        pytest.fail("no random round shows a void")
    assert forgotten(known, 0.0, Random(0)) == known
    lost = forgotten(known, 1.0, Random(0))
    assert not any(lost.barred)
    pieces = [*SUIT_MASK, JOKERS]
    half = forgotten(known, 0.5, Random(3))
    for before, after in zip(known.barred, half.barred, strict=True):
        assert after & ~before == 0  # forgetting never adds a void
        assert all(after & p in (0, before & p) for p in pieces)  # a suit at a time
    for deal in sample_deals(lost, 4, 1):
        assert deal.hands[known.seat] == known.hand


def test_a_lower_level_sometimes_chooses_otherwise_than_the_expert():
    setup = MatchSetup(4, [[0, 2], [1, 3]])
    expert = ExpertBot(budget_ms=1e9, max_deals=8)
    beginner = make_bot("beginner", budget_ms=1e9, max_deals=8)
    decisions = differ = 0
    for seed in range(6):
        for state in random_states(setup, seed)[:-1]:
            legal = state.legal_actions()
            if len(legal) < 2:
                continue
            view = state.view_for(state.current_player())
            ours = beginner.choose(view, legal, Random(seed))
            assert ours in legal
            decisions += 1
            differ += ours != expert.choose(view, legal, Random(seed))
    assert 0 < differ < decisions


@pytest.mark.parametrize("table", FAMILY, ids=lambda t: t.preset)
@pytest.mark.parametrize("level", LOWER)
def test_a_level_chooses_the_same_whatever_the_cards_it_cannot_see_at_a_full_deck(table, level):
    state = played_round(table, 21, plays=2 * max(table.players) + 1)
    seat = state.current_player()
    other = twin(state, seat)
    if other is None:
        pytest.skip("no swap of two unseen cards leaves the seat's view as it is")
    bot = repeatable(level)
    first = bot.choose(state.view_for(seat), state.legal_actions(), Random(7))
    second = bot.choose(other.view_for(seat), other.legal_actions(), Random(7))
    assert first == second and first in state.legal_actions()


def test_the_levels_play_a_short_match_in_the_arena():
    setup = MatchSetup(4, [[0, 2], [1, 3]], target=5)
    for lineup in (("beginner", "club"), ("casual", "expert")):
        outcome = arena.play(setup, arena.Game(3, lineup), {"expert": {"budget_ms": 60.0}})
        assert outcome.rounds >= 1 and outcome.winner in (0, 1)
        assert all(outcome.latencies[name] for name in lineup)


@pytest.mark.parametrize("table", FAMILY, ids=lambda t: t.preset)
def test_at_a_full_deck_a_forgotten_void_may_be_dealt_its_suit_again(table):
    for seed in range(30):
        state = played_round(table, seed + 10, plays=3 * max(table.players) + 1)
        view = state.view_for(state.current_player())
        shown = full_deck._voids(view)
        if any(shown):
            break
    else:
        pytest.skip("no round shows a void")
    assert full_deck._voids(view, 0.0, Random(1)) == shown
    assert not any(full_deck._voids(view, 1.0, Random(1)))
    regained = False
    for index in range(30):
        position = full_deck.sample_position(view, Random(index), forget=1.0, forget_seed=5)
        assert position.hands[view.seat] == view.hand
        regained |= any(hand & bar for hand, bar in zip(position.hands, shown, strict=True))
    assert regained
