"""A move's public events (game.engine.events) agree with the states before and after it,
over random rounds of every preset: the trick's winner leads next, the points told add up to
the round's score, a count is the cards' count, and no event names a card nobody has seen."""

from __future__ import annotations

from collections import Counter
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import events, record
from game.engine.cards import ace_of, cards_of
from game.engine.rules import Phase, discard_action
from game.engine.state import MatchSetup, MatchState, RoundState, shuffle_deal
from game.engine.variants import PRESETS
from tests.game.engine.test_properties import setups as house_setups
from tests.game.engine.test_variant_properties import setups as family_setups


def random_action(state: RoundState, rng: Random) -> int:
    if state.phase() is Phase.EXCHANGE:
        rule = state.discard_rule()
        optional = cards_of(rule.optional)
        rng.shuffle(optional)
        return discard_action(rule.pick(optional))
    return rng.choice(state.legal_actions())


def stepped(setup: MatchSetup, seed: int, scores=None) -> list[tuple[RoundState, int, tuple]]:
    """Each move of a random round as (state before, action, its events), and the end."""
    rng = Random(seed)
    state = RoundState(setup, shuffle_deal(setup, rng.randrange(setup.players), rng), scores)
    moves = []
    while not state.is_terminal():
        action = random_action(state, rng)
        after, told = state.step(action)
        moves.append((state, action, told))
        state = after
    moves.append((state, None, ()))
    return moves


def check_round(setup: MatchSetup, seed: int, scores=None) -> None:
    moves = stepped(setup, seed, scores)
    end = moves[-1][0]
    view = end.public_view()
    # the moves' events, one after another, are the round's: none is told twice or taken back
    assert tuple(e for _, _, told in moves for e in told) == view.events
    for (before, action, told), (after, _, _) in zip(moves, moves[1:], strict=False):
        for event in told:
            check_event(event, before, action, after)
    public = view.played
    for event in view.events:  # only cards played face up: never a hand, a discard, the pack
        cards = [getattr(event, "card", None)] + [c for _, c in getattr(event, "plays", ())]
        assert all(card is None or public >> card & 1 for card in cards), event
    check_points(view)


def check_event(event, before: RoundState, action: int, after: RoundState) -> None:
    seat = before.current_player()
    if isinstance(event, events.TrickWon):
        assert after.trick_winners[event.number] == event.seat
        assert after.current_player() in (event.seat, None)  # the winner leads next
        assert (event.seat, event.card) in event.plays
        assert event.unit == after.setup.unit_of[event.seat]
        assert after.public_view().trick(event.number) == event.plays
    elif isinstance(event, events.TrumpSet):
        assert before.trump < 0 and after.trump == event.suit and event.seat == seat
    elif isinstance(event, events.Discarded):
        assert event.seat == seat and event.count == after.discards[seat].bit_count()
    elif isinstance(event, events.Filled):
        assert event.count == after.fills[event.seat].bit_count() > before.fills[event.seat]
        assert event.took_pack == (event.seat == after.dealer)
    elif isinstance(event, events.AuctionWon):
        assert (event.seat, event.bid) == (after.bidder_seat, after.bid)
    elif isinstance(event, events.Redealt):
        assert after.redealt and event.dealer == after.dealer
    elif isinstance(event, events.RoundScored):
        result = after.result
        assert (event.raw, event.match_after, event.made) == (
            result.raw,
            result.match_after,
            result.made,
        )
    elif isinstance(event, events.MatchWon):
        assert event.unit == after.result.winner is not None


def check_points(view) -> None:
    """The points told, each once, are the round's: each unit's count is its round points."""
    if view.result.redeal:
        assert view.events[-1] == events.Redealt(view.dealer)
        return
    taken = view.points_taken
    counted = Counter(point.unit for point in taken)
    assert tuple(counted[unit] for unit in range(len(view.teams))) == view.result.raw
    scored = next(e for e in view.events if isinstance(e, events.RoundScored))
    assert sorted(map(repr, (p.line for p in taken))) == sorted(
        repr(line) for line in scored.points if line.unit is not None
    )
    for point in taken:  # a point told before the end was the unit's for good
        assert point.seat is None or view.unit_of[point.seat] == point.unit


@settings(max_examples=30, deadline=None)
@given(house_setups(), st.integers(0, 2**32))
def test_a_house_rounds_events_agree_with_its_states(setup, seed):
    check_round(setup, seed)


@settings(max_examples=40, deadline=None)
@given(family_setups(), st.integers(0, 2**32))
def test_a_full_deck_rounds_events_agree_with_its_states(setup, seed):
    check_round(setup, seed)


def test_high_is_told_in_play_only_once_the_decks_highest_trump_is_taken():
    # at the house rules high is the highest trump dealt: while the deck's highest may be
    # in a hand it can still beat the others, so high waits for the round's end
    setup = MatchSetup.partnerships(4, 2)
    seen = set()
    for seed in range(40):
        moves = stepped(setup, seed)
        trump = moves[-1][0].trump
        top = ace_of(trump)
        for _, _, told in moves[:-1]:
            ending = any(isinstance(e, events.RoundScored) for e in told)
            for point in (e for e in told if isinstance(e, events.PointTaken)):
                if point.kind == "high":
                    seen.add(ending)
                    assert ending or point.card == top
    assert seen == {True, False}  # told in play in some rounds, at the end in others


def test_the_match_won_is_told_by_the_move_that_wins_it():
    setup = MatchSetup.partnerships(4, 2, target=3, rules=PRESETS["house"])
    match = MatchState(setup)
    rng = Random(5)
    told = ()
    while not match.is_terminal():
        match = match.deal_round(rng) if match.needs_deal() else match
        match, told = match.step(rng.choice(match.legal_actions()))
    assert told[-1] == events.MatchWon(match.winner)
    assert isinstance(told[-2], events.RoundScored)


def test_a_match_is_one_list_of_chance_deals_and_actions_that_replays_it_exactly():
    for preset in ("house", "seven_point"):
        setup = MatchSetup.partnerships(4, 2, target=5, rules=PRESETS[preset])
        rng = Random(7)
        match = MatchState(setup, first_dealer=2)
        while not match.is_terminal():
            if match.is_chance_node():
                match = match.deal_round(rng)
            else:
                match = match.apply(random_action(match.round, rng))
        steps = match.steps()
        assert MatchState.from_steps(setup, steps) == match
        assert record.read(record.dumps(match)).steps() == steps  # the record holds them all
