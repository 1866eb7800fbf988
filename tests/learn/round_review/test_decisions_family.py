"""The review of one's own round at a full-deck table: every decision of the seat,
naming trump and the discard among them, priced from its view; a discard the expert
would never consider is priced with the ones it would; forced discards are no decision."""

from random import Random

import pytest

from game.bots.basic import GreedyBot
from game.bots.expert import ExpertBot
from game.engine.cards import cards_of
from game.engine.rules import Phase, discard_action, is_discard, parse_action_code
from game.engine.state import MatchSetup, MatchState
from game.engine.variants import PRESETS
from learn.round_review import decisions, presenters
from tests.learn.family import FAMILY

QUICK = ExpertBot(budget_ms=5000, max_deals=6)  # deals, not time, bound it


def played_round(preset: str, bidder_discards_high: bool = True) -> tuple[MatchState, int]:
    """A round in which the first seat to speak bids the least and, at its discard,
    throws the highest cards it may (no player's first idea); the rest is greedy's."""
    players = 6 if preset == "six_handed" else 4
    setup = MatchSetup.layouts(players, PRESETS[preset])[-1]
    match = MatchState(setup, 0).deal_round(Random(f"review/{preset}"))
    bidder, rng, greedy = 1, Random(1), GreedyBot()
    while match.current_player() is not None:
        seat = match.current_player()
        view = match.view_for(seat)
        action = greedy.choose(view, view.legal_actions(), rng)
        if seat == bidder and view.phase is Phase.AUCTION:
            action = view.legal_actions()[0]  # the lowest bid
        if seat == bidder and view.phase is Phase.EXCHANGE and bidder_discards_high:
            rule = view.discard_rule
            action = discard_action(rule.pick(reversed(cards_of(rule.optional))))
        match = match.apply(action, seat)
    return match, bidder


@pytest.mark.parametrize("preset", FAMILY)
def test_every_decision_of_a_full_deck_round_is_reviewed(preset):
    match, seat = played_round(preset)
    moments = decisions.moments(match, 0, seat)
    phases = {moment.view.phase for moment in moments}
    assert {Phase.AUCTION, Phase.TRUMP, Phase.PLAY} <= phases
    for moment in moments:
        decision = decisions.review_moment(moment, QUICK, seed="t")
        assert decision.position.preset == preset
        assert decision.chosen in decision.position.legal_codes()
        shown = presenters._shown(decision)
        assert shown.explanation and shown.chosen


def test_a_discard_the_expert_would_not_consider_is_priced_with_its_own():
    match, seat = played_round("classic")
    moment = next(m for m in decisions.moments(match, 0, seat) if is_discard(m.action))
    decision = decisions.review_moment(moment, QUICK, seed="t")
    assert decision.chosen in {o.code for o in decision.position.options}
    assert is_discard(parse_action_code(decision.position.best.code))


def test_a_forced_discard_is_no_decision():
    # at seven-point, a seat but the dealer throws every card that is not a trump
    match, _ = played_round("seven_point", bidder_discards_high=False)
    state = match.rounds[0]
    dealer = state.dealer
    for seat in range(4):
        for moment in decisions.moments(match, 0, seat):
            if moment.view.phase is Phase.EXCHANGE and seat != dealer:
                rule = moment.view.discard_rule
                assert rule.optional.bit_count() > rule.count - rule.must.bit_count()
    forced = [
        seat
        for seat in range(4)
        if seat != dealer
        and not any(m.view.phase is Phase.EXCHANGE for m in decisions.moments(match, 0, seat))
    ]
    assert forced, "some seat's discard was forced and left out"
