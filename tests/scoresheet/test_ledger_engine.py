"""The sheet's fold is the engine's match scoring: random matches of every preset, each
finished round written on the sheet as a hand, keep the sheet's standings and winner equal
to the table's after every round (seeds pinned)."""

from dataclasses import replace
from random import Random

import pytest

from game.engine import notation, variants
from game.engine.cards import cards_of
from game.engine.rules import PASS, Phase, bid_amount, discard_action
from game.engine.state import MatchSetup, MatchState, RoundState
from scoresheet import ledger
from scoresheet.ledger import Hand, tally

SEEDS = range(4)
LOW_TARGET = 7  # a short match, so that many of them end with a winner
MOST_ROUNDS = 60


def layouts() -> list[tuple[str, MatchSetup]]:
    """Every preset at every player count it allows: cutthroat, and its partnerships."""
    found = []
    for key, table in variants.PRESETS.items():
        for players in table.players:
            found += [(key, setup) for setup in MatchSetup.layouts(players, rules=table)]
    return found


def layout_id(layout: tuple[str, MatchSetup]) -> str:
    key, setup = layout
    return f"{key}-" + "v".join(str(len(unit)) for unit in setup.teams)


def random_discard(state: RoundState, rng: Random) -> int:
    """A legal discard: every card it must hold, then cards it may hold up to its count."""
    rule = state.discard_rule()
    optional = cards_of(rule.optional)
    rng.shuffle(optional)
    return discard_action(rule.pick(optional))


def random_action(state: RoundState, rng: Random) -> int:
    if state.phase() is Phase.EXCHANGE:
        return random_discard(state, rng)
    legal = state.legal_actions()
    if state.phase() is Phase.AUCTION:
        # lean to passes and low bids: a wholly random auction misses so many bids
        # that few matches ever reach the target
        bids = [action for action in legal if action != PASS]
        if not bids or (PASS in legal and rng.random() < 0.5):
            return PASS
        return min(bids) if rng.random() < 0.7 else rng.choice(bids)
    return rng.choice(legal)


def play_match(setup: MatchSetup, seed: int) -> list[MatchState]:
    """A random match, as the state after each finished round (at most MOST_ROUNDS)."""
    rng = Random(seed)
    match = MatchState(setup, first_dealer=rng.randrange(setup.players))
    finished = []
    while not match.is_terminal() and len(finished) < MOST_ROUNDS:
        match = match.deal_round(rng)
        while not match.round.is_terminal():
            match = match.apply(random_action(match.round, rng))
        finished.append(match)
    return finished


def sheet_hand(match: MatchState) -> Hand:
    """The round as the table writes it down: who bid, how much, what each side took."""
    result = match.round.result
    return Hand(bidder=result.bidder_unit, bid=result.bid, made=result.raw)


TARGETS = {"preset-target": None, "low-target": LOW_TARGET}


def table_case(layout, target: int | None, seed: int):
    """One case of the table tests: a random match of ``layout`` (to ``target``, or the
    preset's), its setup, the sheet's rules, and its rounds that were played out."""
    key, setup = layout
    rules = ledger.PRESETS[key].rules
    if target is not None:
        # what the new-sheet form does with a target typed in
        setup = MatchSetup(setup.players, setup.teams, target, setup.rules)
        rules = replace(rules, target=target)
    rounds = [match for match in play_match(setup, seed) if not match.round.result.redeal]
    return setup, rules, rounds


def table_cases():
    """Every case of the table tests, as (id, sides, rules, hands): what the page's own
    fold (static/scoresheet/ledger.js) is held to in tests/browser."""
    for seed in SEEDS:
        for layout in layouts():
            for name, target in TARGETS.items():
                setup, rules, rounds = table_case(layout, target, seed)
                hands = [sheet_hand(match) for match in rounds]
                yield f"{seed}-{layout_id(layout)}-{name}", setup.units, rules, hands


@pytest.mark.parametrize("target", list(TARGETS.values()), ids=list(TARGETS))
@pytest.mark.parametrize("layout", layouts(), ids=layout_id)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_sheet_of_a_preset_keeps_the_tables_match_score_after_every_round(layout, target, seed):
    setup, rules, rounds = table_case(layout, target, seed)

    sheet = tally([sheet_hand(match) for match in rounds], sides=setup.units, rules=rules)

    before = (0,) * setup.units
    for row, match in zip(sheet.rows, rounds, strict=True):
        result = match.round.result
        assert row.standings == match.scores == result.match_after
        assert row.made is result.made
        assert row.winner == result.winner == match.winner
        assert row.bankable is (result.winner is not None)
        assert row.at_target == tuple(score >= setup.target for score in match.scores)
        if rules.missed_bid == "negative":
            assert row.totals == match.scores
            assert row.entries == tuple(a - b for a, b in zip(match.scores, before, strict=True))
            assert row.debts == (0,) * setup.units
        else:
            # seed 002's paper sheet: never a negative entry, the missed bids carried as debt
            assert min(row.entries) >= 0 and min(row.debts) >= 0
            assert tuple(t - d for t, d in zip(row.totals, row.debts, strict=True)) == match.scores
        before = match.scores


@pytest.mark.parametrize("key", list(variants.PRESETS))
def test_the_sheet_offers_the_bids_and_counts_the_points_a_table_of_its_preset_plays(key):
    preset, table = ledger.PRESETS[key], variants.PRESETS[key]
    offered, most = set(), 0
    for players in table.players:
        for setup in MatchSetup.layouts(players, rules=table):
            # the bids the auction's first seat may make: every bid the table takes
            opening = MatchState(setup).deal_round(Random(0)).legal_actions()
            offered |= {bid_amount(action) for action in opening if action != PASS}
            for seed in range(15):
                for match in play_match(setup, seed):
                    most = max(most, sum(match.round.result.raw))

    assert set(preset.rules.bids) == offered
    # some round takes every point in play, and none takes more than the sheet holds
    assert most == preset.rules.points_per_hand
    assert preset.points == notation.point_names(table)
    assert len(preset.points) == preset.rules.points_per_hand


def test_the_presets_are_the_engines_with_the_sheets_way_of_writing_a_missed_bid():
    assert list(ledger.PRESETS) == [*variants.PRESETS, "custom"]
    for key, table in variants.PRESETS.items():
        preset = ledger.PRESETS[key]
        assert preset.table is table
        assert preset.label == notation.preset_name(key)
        assert preset.rules.bidder_only_out is (table.going_out == "bidder_only")
        assert preset.rules.missed_bid == ("negative" if key == "house" else "debt")
        assert f"bids {table.min_bid}–{table.max_bid}" in preset.note
        assert ", ".join(notation.point_names(table)) in preset.note
    assert ledger.PRESETS["custom"].table is None
