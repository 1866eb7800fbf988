"""Properties of the Smear family's tables over random deals: every preset and option, every
player count and layout each allows (shared/spec/variants.md)."""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import record, rules
from game.engine.cards import JOKER_1, JOKER_2, cards_of, game_total, jack_of
from game.engine.rules import Phase, discard_action
from game.engine.state import IllegalAction, MatchSetup, MatchState, RoundState, shuffle_deal
from game.engine.variants import PRESETS
from tests.game.engine.test_state import snapshot

FAMILY = [rules for name, rules in PRESETS.items() if name != "house"]


@st.composite
def setups(draw) -> MatchSetup:
    base = draw(st.sampled_from(FAMILY))
    options = {"follow": draw(st.sampled_from(["trump_any_time", "schmier"]))}
    if base.exchange != "discard_and_fill":  # seven_point always plays both jokers
        options["jokers"] = draw(st.integers(0, 2))
    options["jick"] = draw(st.booleans())
    table = base.with_options(**options)
    players = draw(st.sampled_from(table.players))
    layouts = MatchSetup.layouts(players, table)
    return draw(st.sampled_from(layouts))


def random_discard(state: RoundState, rng: Random) -> int:
    rule = state.discard_rule()
    optional = cards_of(rule.optional)
    rng.shuffle(optional)
    return discard_action(rule.pick(optional))


def random_action(state: RoundState, rng: Random) -> int:
    if state.phase() is Phase.EXCHANGE:
        return random_discard(state, rng)
    return rng.choice(state.legal_actions())


def random_states(setup: MatchSetup, seed: int) -> list[RoundState]:
    rng = Random(seed)
    state = RoundState(setup, shuffle_deal(setup, rng.randrange(setup.players), rng))
    states = [state]
    while not state.is_terminal():
        state = state.apply(random_action(state, rng))
        states.append(state)
    return states


def played(state: RoundState) -> int:
    mask = 0
    for action in state.history:
        if rules.is_card(action):
            mask |= 1 << action
    return mask


@settings(max_examples=60, deadline=None)
@given(setups(), st.integers(0, 2**32))
def test_cards_are_conserved_through_the_exchange_and_play(setup, seed):
    for state in random_states(setup, seed):
        parts = [*state.hands, *state.discards, played(state), rules_pack(state)]
        seen = 0
        for part in parts:
            assert not seen & part
            seen |= part
        assert seen == setup.deck


def rules_pack(state: RoundState) -> int:
    mask = 0
    for card in state.pack:
        mask |= 1 << card
    return mask


@settings(max_examples=60, deadline=None)
@given(setups(), st.integers(0, 2**32), st.integers(0, 2**16))
def test_an_action_that_is_not_legal_is_refused_and_changes_nothing(setup, seed, pick):
    for state in random_states(setup, seed)[:-1]:
        rng = Random(pick)
        legal = set(state.legal_actions())
        if state.phase() is Phase.EXCHANGE:
            rule = state.discard_rule()
            wrong = rule.may ^ (1 << rng.randrange(54))
            if rule.allows(wrong):
                continue
            candidate = discard_action(wrong)
        else:
            candidate = rng.choice([a for a in range(rules.TRUMPS[-1] + 1) if a not in legal])
        before = snapshot(state)
        try:
            state.apply(candidate)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{rules.action_code(candidate)} was accepted")
        assert snapshot(state) == before


@settings(max_examples=60, deadline=None)
@given(setups(), st.integers(0, 2**32))
def test_every_round_awards_exactly_the_points_that_were_in_play(setup, seed):
    final = random_states(setup, seed)[-1]
    result = final.result
    if result.redeal:
        assert result.raw == (0,) * setup.units
        return
    table, trump = setup.rules, final.trump
    out = played(final)
    in_play = {
        "high": out >> (trump * 13 + 12) & 1,
        "low": out >> (trump * 13) & 1,
        "jack": out >> jack_of(trump) & 1,
        "jick": table.jick and out >> final.trumps.jick & 1,
        "joker_high": out >> JOKER_1 & 1,
        "joker_low": out >> JOKER_2 & 1,
        "jokers": (out >> JOKER_1 & 1) + (out >> JOKER_2 & 1),
    }
    totals = [game_total(cards) for cards in final.captured]
    in_play["game"] = totals.count(max(totals)) == 1
    assert sum(result.raw) == sum(int(in_play[name]) for name in table.points)


@settings(max_examples=60, deadline=None)
@given(setups(), st.integers(0, 2**32))
def test_each_seat_keeps_what_the_exchange_says_it_must(setup, seed):
    states = random_states(setup, seed)
    playing = next((s for s in states if s.phase() in (Phase.PLAY, Phase.OVER)), None)
    if playing is None or playing.trumps is None:
        return  # redealt
    trumps = playing.trumps
    exchange = setup.rules.exchange
    for seat in range(setup.players):
        kept, dealt = playing.hands[seat], playing.deal.hands[seat] | playing.fills[seat]
        assert kept.bit_count() == 6
        if exchange == "discard_to_six":
            assert (kept & trumps.cards).bit_count() == min(6, (dealt & trumps.cards).bit_count())
        elif exchange == "discard_and_fill" and seat != playing.dealer:
            assert not (kept & ~trumps.cards & ~playing.fills[seat])
        if exchange != "discard_to_six":
            assert kept & trumps.point_cards == dealt & trumps.point_cards


@settings(max_examples=60, deadline=None)
@given(setups(), st.integers(0, 2**32))
def test_a_seat_never_sees_another_seats_hand_discard_or_fill(setup, seed):
    for state in random_states(setup, seed):
        for seat in range(setup.players):
            view = state.view_for(seat)
            assert view.hand == state.hands[seat]
            assert (view.discard, view.fill) == (state.discards[seat], state.fills[seat])
            others = rules_pack(state)
            for other in range(setup.players):
                if other != seat:
                    others |= state.hands[other] | state.discards[other]
            assert view.unseen == others


@settings(max_examples=40, deadline=None)
@given(setups(), st.integers(0, 2**32))
def test_a_written_match_reads_back_the_same_and_replays_cleanly(setup, seed):
    rng = Random(seed)
    match = MatchState(setup, rng.randrange(setup.players))
    for _ in range(3):
        if match.is_terminal():
            break
        match = match.deal_round(rng)
        while not match.round.is_terminal():
            match = match.apply(random_action(match.round, rng))
    data = record.write(match)
    assert record.read(data) == match
    assert "error" not in record.replay(data)
