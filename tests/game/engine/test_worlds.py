"""A world built from a seat's view and a guess at the rest is the round the guess makes,
replayed to the seat's decision: with the true deal as the guess, it is the round itself."""

from random import Random

import pytest

from game.bots.basic import GreedyBot
from game.engine.cards import cards_of
from game.engine.rules import PASS, Phase, trump_action
from game.engine.state import MatchSetup, RoundState, shuffle_deal
from game.engine.variants import PRESETS
from game.engine.worlds import world

FAMILY = [table for table in PRESETS.values() if not table.is_house]
GREEDY = GreedyBot()


def greedy(view):
    return GREEDY.choose(view, view.legal_actions(), Random(0))


def before_play(table, seed: int) -> list[RoundState]:
    """Every state of one round before its first card, every seat playing greedy's rules
    (the first bidder opens at the lowest bid, so that the round is not redealt)."""
    rng = Random(seed)
    players = 4 if 4 in table.players else max(table.players)
    setup = MatchSetup.partnerships(players, 2, rules=table)
    state = RoundState(setup, shuffle_deal(setup, rng.randrange(players), rng))
    states = []
    while state.phase() is not Phase.PLAY:
        states.append(state)
        view = state.view_for(state.current_player())
        first = state.phase() is Phase.AUCTION and not view.auction
        state = state.apply(view.legal_actions()[1] if first else greedy(view))
    return states


def true_guess(state: RoundState) -> tuple[list[int], list[int]]:
    return list(state.deal.hands), list(state.deal.pack_order())


@pytest.mark.parametrize("table", FAMILY, ids=lambda t: t.preset)
@pytest.mark.parametrize("seed", range(4))
def test_the_true_deal_as_the_guess_rebuilds_the_round(table, seed):
    for state in before_play(table, seed):
        seat = state.current_player()
        view = state.view_for(seat)
        built = world(view, *true_guess(state), discard_for=greedy)
        assert built is not None
        assert built.view_for(seat) == view
        assert built.hands == state.hands and built.pack == state.pack


@pytest.mark.parametrize("table", FAMILY, ids=lambda t: t.preset)
def test_each_other_seats_public_action_is_shown_to_the_observer(table):
    state = before_play(table, 1)[-1]
    seat = state.current_player()
    view = state.view_for(seat)
    seen = []
    world(
        view, *true_guess(state), discard_for=greedy, observe=lambda v, a: seen.append((v.seat, a))
    )  # noqa: E501
    public = [(s, a) for s, a in view.auction if s != seat]
    if view.trump is not None and view.bidder != seat:
        public.append((view.bidder, trump_action(view.trump)))
    assert seen == public


def test_a_guess_whose_discards_do_not_match_the_counts_makes_no_world():
    table = PRESETS["seven_point"]
    states = [s for s in before_play(table, 3) if s.phase() is Phase.EXCHANGE]
    state = next(s for s in states if any(s.discards))  # someone has discarded for a fill
    seat = state.current_player()
    view = state.view_for(seat)
    dealt, pack = true_guess(state)
    discarder = next(s for s, mask in enumerate(state.discards) if mask)
    # give the discarder one more trump in place of a plain card: it would discard one fewer
    trumps = view.trumps.cards
    plain = next(c for c in cards_of(dealt[discarder]) if not trumps >> c & 1)
    holder = next(
        s for s in range(view.players) if s not in (seat, discarder) and dealt[s] & trumps
    )
    trump = next(c for c in cards_of(dealt[holder] & trumps))
    dealt[discarder] ^= 1 << plain | 1 << trump
    dealt[holder] ^= 1 << plain | 1 << trump
    assert world(view, dealt, pack, discard_for=greedy) is None


def test_a_world_is_built_before_the_first_card_only():
    table = PRESETS["classic"]
    state = before_play(table, 0)[-1]
    state = state.apply(greedy(state.view_for(state.current_player())))
    while state.phase() is not Phase.PLAY:
        state = state.apply(greedy(state.view_for(state.current_player())))
    state = state.apply(state.legal_actions()[0])
    view = state.view_for(state.current_player())
    with pytest.raises(ValueError, match="before the first card"):
        world(view, *true_guess(state), discard_for=greedy)


def test_the_auction_replays_passes_and_bids_alike():
    table = PRESETS["classic"]
    state = before_play(table, 2)[0]
    state = state.apply(PASS)
    view = state.view_for(state.current_player())
    built = world(view, *true_guess(state), discard_for=greedy)
    assert built.view_for(view.seat).auction == view.auction
