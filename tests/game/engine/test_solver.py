"""The solver against a brute-force minimax over the engine's own rounds: it knows nothing
but the rules, and shares no code with the search it checks."""

from random import Random
from time import perf_counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import rules, solver
from game.engine.cards import cards_of
from game.engine.solver import (
    Utility,
    action_values,
    position_of,
    principal_variation,
    solve,
)
from game.engine.state import MatchSetup, RoundState, shuffle_deal
from tests.game.engine.builders import auction_won_by
from tests.game.engine.test_properties import setups

# A bid-shaped utility: making 3 is worth much more than 2; the other side's points count less.
BID_TABLE = tuple(
    tuple((10 + a if a >= 3 else -3) - (b if b < 4 else 4) for b in range(7)) for a in range(7)
)


def brute_force(state: RoundState, utility: Utility) -> int:
    """The value by the engine's own rounds (legal actions, apply, the round's result): every
    legal card, to the end; none of the solver's code is used to check it."""
    if state.is_terminal():
        return final_value(state, utility)
    maximizing = state.setup.unit_of[state.current_player()] in utility.side
    values = [brute_force(state.apply(c), utility) for c in state.legal_actions()]
    return max(values) if maximizing else min(values)


def final_value(state: RoundState, utility: Utility) -> int:
    raw = state.result.raw
    a = sum(p for unit, p in enumerate(raw) if unit in utility.side)
    return utility.table[a][sum(raw) - a]


def each_card(state: RoundState, utility: Utility) -> dict[int, int]:
    return {c: brute_force(state.apply(c), utility) for c in state.legal_actions()}


def endgame(setup: MatchSetup, seed: int, cards_left: int) -> RoundState:
    """A random round played at random until each seat holds ``cards_left`` cards (or a few
    cards into that trick)."""
    rng = Random(seed)
    state = RoundState(setup, shuffle_deal(setup, rng.randrange(setup.players), rng))
    stop_at = setup.players + (6 - cards_left) * setup.players + rng.randrange(setup.players)
    while len(state.history) < stop_at:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@settings(max_examples=60, deadline=None)
@given(setups(), st.integers(0, 2**32), st.booleans())
def test_solver_matches_brute_force_on_endgames(setup, seed, bid_shaped):
    cards_left = 2 if setup.players <= 5 else 1
    state = endgame(setup, seed, cards_left)
    position = position_of(state)
    side = frozenset({position.unit_of[position.to_act]})
    utility = Utility(side, BID_TABLE if bid_shaped else ())
    assert action_values(position, utility) == each_card(state, utility)


@pytest.mark.parametrize("seed", range(6))
def test_solver_matches_brute_force_from_the_third_trick_with_four_players(seed):
    state = endgame(MatchSetup.partnerships(4, 2), seed, 3)
    utility = Utility(frozenset({1}), BID_TABLE)
    assert action_values(position_of(state), utility) == each_card(state, utility)


def test_solving_from_the_first_lead_chooses_trump_among_the_leads():
    setup = MatchSetup.partnerships(4, 2)
    rng = Random(5)
    state = RoundState(setup, shuffle_deal(setup, 0, rng))
    while state.in_auction():
        state = state.apply(
            rules.PASS if rules.PASS in state.legal_actions() else rules.bid_action(1)
        )
    position = position_of(state)
    utility = Utility(frozenset({setup.unit_of[position.to_act]}))
    values = action_values(position, utility)
    assert set(values) == set(state.legal_actions())
    assert solve(position, utility) == max(values.values())


def test_the_principal_variation_plays_out_the_round_with_its_value():
    state = endgame(MatchSetup.cutthroat(3), 7, 3)
    position = position_of(state)
    utility = Utility(frozenset({position.unit_of[position.to_act]}))
    end = state
    for card in principal_variation(position, utility):
        end = end.apply(card)
    assert end.is_terminal()
    assert final_value(end, utility) == solve(position, utility)


@settings(max_examples=80, deadline=None)
@given(st.integers(6, 8), st.integers(0, 2**32))
def test_merging_equivalent_low_cards_keeps_the_exact_value_at_big_tables(players, seed):
    # ranks below 10 are all worth nothing toward game here, so many cards merge
    state = endgame(MatchSetup.cutthroat(players), seed, 2)
    position = position_of(state)
    utility = Utility(frozenset({position.unit_of[position.to_act]}), BID_TABLE)
    expected = each_card(state, utility)
    values = action_values(position, utility)
    assert max(values.values()) == max(expected.values())
    assert all(values[c] == expected[c] for c in values)


def test_touching_cards_merge_only_when_no_card_in_play_lies_between():
    from game.engine.cards import SUITS, mask_of, parse_card
    from game.engine.solver_py import Position, _Search

    def m(*codes):
        return mask_of(parse_card(c) for c in codes)

    setup = MatchSetup.cutthroat(6)
    hands = (m("6D", "7D", "9D"), m("8D"), m("AH"), m("KH"), m("QH"), m("JH"))
    dealt = hands  # a 1-trick-long toy deal is enough for the helper
    position = Position(setup.unit_of, hands, dealt, SUITS.index("H"), leader=0)
    search = _Search(position, position.trump, Utility(frozenset({0})), stats=None)
    kept = search._merge_equivalent(hands[0], hands, trick_mask=0)
    assert kept == m("6D", "9D")  # 7D is 6D's twin; 8D, held by seat 1, separates 9D
    assert search._merge_equivalent(hands[0], hands, trick_mask=m("8D")) == m("6D", "9D")


@pytest.mark.parametrize("threads", [1, 2])
def test_solving_each_of_several_positions_gives_each_its_own_value(monkeypatch, threads):
    monkeypatch.setattr(solver, "idle_threads", lambda: threads)
    jobs = []
    for seed in range(5):
        position = position_of(endgame(MatchSetup.partnerships(4, 2), seed, 4))
        jobs.append((position, Utility(frozenset({position.unit_of[position.to_act]}))))
    found = solver.solve_each(jobs, deadline=float("inf"), share=1.0, least_s=0.0)
    assert found == [solve(*job) for job in jobs]


def test_a_position_whose_time_is_spent_has_no_value():
    setup = MatchSetup.partnerships(8, 2)  # a first lead at eight seats: never instant
    state = auction_won_by(RoundState(setup, shuffle_deal(setup, 0, Random(8))), 1)
    position = position_of(state)
    utility = Utility(frozenset({position.unit_of[position.to_act]}))
    spent = solver.solve_each([(position, utility)], deadline=perf_counter(), share=1.0, least_s=0)
    assert spent == [None]
    assert solver.solve_each([], deadline=perf_counter(), share=1.0, least_s=0) == []


# --- Full-deck tables: the Python search against the engine's own rounds --------------

from game.engine.rules import Phase, discard_action  # noqa: E402
from game.engine.variants import PRESETS  # noqa: E402

FAMILY = [
    table.with_options(**options)
    for table in PRESETS.values()
    if not table.is_house
    for options in ({}, {"follow": "schmier"}, {"jick": not table.jick})
]
# a table as large as the seven-point game's 7 points needs: rows and columns 0..7
WIDE_TABLE = tuple(
    tuple((10 + a if a >= 3 else -3) - min(b, 4) for b in range(8)) for a in range(8)
)


def family_endgame(table, seed: int, cards_left: int, players: int | None = None) -> RoundState:
    """A full-deck round played at random (any bid, trump and legal discard) until each
    seat holds ``cards_left`` cards, or a few cards into that trick; at ``players`` seats,
    or any the table allows."""
    rng = Random(seed)
    players = players or rng.choice(table.players)
    setup = rng.choice(MatchSetup.layouts(players, table))
    while True:
        state = RoundState(setup, shuffle_deal(setup, rng.randrange(players), rng))
        state = state.apply(rng.choice([a for a in state.legal_actions() if a != rules.PASS]))
        while state.phase() is Phase.AUCTION:
            state = state.apply(rules.PASS)
        state = state.apply(rng.choice(state.legal_actions()))  # trump
        while state.phase() is Phase.EXCHANGE:
            rule = state.discard_rule()
            spare = rng.sample(cards_of(rule.optional), rule.count - rule.must.bit_count())
            state = state.apply(discard_action(rule.pick(spare)))
        stop = (6 - cards_left) * players + rng.randrange(players)
        for _ in range(stop):
            state = state.apply(rng.choice(state.legal_actions()))
        return state


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(FAMILY), st.integers(0, 2**32), st.booleans())
def test_the_search_matches_the_engine_on_full_deck_endgames(table, seed, bid_shaped):
    state = family_endgame(table, seed, 3 if max(table.players) <= 4 else 2)
    position = position_of(state)
    side = frozenset({position.unit_of[position.to_act]})
    utility = Utility(
        side, WIDE_TABLE if bid_shaped else tuple(tuple(a - b for b in range(8)) for a in range(8))
    )
    assert action_values(position, utility) == each_card(state, utility)


@pytest.mark.parametrize("seed", range(4))
def test_the_search_matches_the_engine_from_the_fourth_trick_of_classic(seed):
    state = family_endgame(PRESETS["classic"], seed, 3)
    position = position_of(state)
    utility = Utility(frozenset({position.unit_of[position.to_act]}), WIDE_TABLE)
    assert action_values(position, utility) == each_card(state, utility)
