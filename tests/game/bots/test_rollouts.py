"""The expert's choices before the tricks at full-deck tables: guesses that fit what the
seat knows, choices that depend on nothing else, and the plain cases priced right."""

from random import Random

import pytest

from game.bots import make_bot
from game.bots.basic import GreedyBot
from game.bots.rollouts import MAX_DISCARDS, _deal, _discards, _guess, bid_style, price, styled_bid
from game.engine.cards import SUIT_OF, card_code, cards_of, parse_card
from game.engine.rules import PASS, Phase, bid_action, discard_action, trump_action
from game.engine.state import MatchSetup, RoundState
from game.engine.variants import PRESETS
from tests.game.bots.test_full_deck import twin
from tests.game.engine.builders import full_deal
from tests.game.engine.test_worlds import before_play

FAMILY = [table for table in PRESETS.values() if not table.is_house]
GREEDY = GreedyBot()


@pytest.mark.parametrize("table", FAMILY, ids=lambda t: t.preset)
@pytest.mark.parametrize("seed", range(3))
def test_every_guess_fits_what_the_seat_knows(table, seed):
    for state in before_play(table, seed):
        seat = state.current_player()
        view = state.view_for(seat)
        for index in range(4):
            dealt, pack = _deal(view, Random(index))
            assert dealt[seat] == view.hand & ~view.fill
            others = 0
            for other, hand in enumerate(dealt):
                assert hand.bit_count() == state.deal.hands[other].bit_count()
                if other != seat:
                    assert not hand & ~view.unseen and not others & hand
                    others |= hand
            assert sorted(cards_of(others) + pack) == sorted(cards_of(view.unseen | view.fill))
            guess = _guess(view, Random(index))
            assert guess is not None, "a guess that gives the seat's own view"
            world, weight = guess
            assert world.view_for(seat) == view and 0 < weight <= 1


@pytest.mark.parametrize("table", FAMILY, ids=lambda t: t.preset)
@pytest.mark.parametrize("seed", range(3))
def test_the_expert_chooses_legally_before_the_tricks(table, seed):
    bot = make_bot("expert", budget_ms=1e9, max_deals=3)
    for state in before_play(table, seed):
        view = state.view_for(state.current_player())
        action = bot.choose(view, state.legal_actions(), Random(seed))
        if view.phase is Phase.EXCHANGE:
            assert view.discard_rule.allows(action & ~(1 << 64))
        else:
            assert action in state.legal_actions()


@pytest.mark.parametrize("table", FAMILY, ids=lambda t: t.preset)
@pytest.mark.parametrize("seed", range(3))
def test_the_choice_before_the_tricks_depends_only_on_the_view(table, seed):
    bot = make_bot("expert", budget_ms=1e9, max_deals=3)
    for state in before_play(table, seed + 30):
        seat = state.current_player()
        other = twin(state, seat)
        assert other is not None and other.hands != state.hands
        first = bot.choose(state.view_for(seat), state.legal_actions(), Random(3))
        second = bot.choose(other.view_for(seat), other.legal_actions(), Random(3))
        assert first == second


@pytest.mark.parametrize("table", FAMILY, ids=lambda t: t.preset)
def test_the_discards_priced_are_allowed_distinct_and_include_greedys(table):
    seen = 0
    for seed in range(4):
        for state in before_play(table, seed):
            if state.phase() is not Phase.EXCHANGE:
                continue
            view = state.view_for(state.current_player())
            options = _discards(view)
            assert 1 <= len(options) <= MAX_DISCARDS and len(set(options)) == len(options)
            assert all(view.discard_rule.allows(action & ~(1 << 64)) for action in options)
            assert GREEDY.choose(view, view.legal_actions(), Random(0)) in options
            seen += 1
    assert seen


def classic_round(hands: dict[int, list[str]], seed: int = 0) -> RoundState:
    setup = MatchSetup.partnerships(4, 2, rules=PRESETS["classic"])
    return RoundState(setup, full_deal(setup, hands, dealer=3, seed=seed))


STRONG_SPADES = ["AS", "KS", "QS", "JS", "10S", "2S", "3S", "4H", "5D"]
NOTHING = ["3H", "4H", "6H", "3D", "4D", "7D", "3C", "5C", "8C"]


def test_a_hand_of_top_spades_bids_high_and_names_spades():
    state = classic_round({0: STRONG_SPADES})
    view = state.view_for(0)
    prices = price(view, state.legal_actions(), Random(1), budget_ms=1e9, max_deals=40)
    bid, deals = prices.best(), prices.deals
    # high, low and the jack are sure: 3 loses nothing to 4 (a made bid scores every point)
    assert deals == 40 and bid in (bid_action(3), bid_action(4))
    state = state.apply(bid)
    for _ in range(3):
        state = state.apply(PASS)
    named = price(
        state.view_for(0), state.legal_actions(), Random(1), budget_ms=1e9, max_deals=20
    ).best()
    assert named == trump_action(SUIT_OF[parse_card("AS")])


def test_a_hand_with_no_high_card_passes():
    state = classic_round({0: NOTHING})
    view = state.view_for(0)
    prices = price(view, state.legal_actions(), Random(1), budget_ms=1e9, max_deals=40)
    action, _ = prices.best(), prices.deals
    assert action == PASS


def test_the_discard_keeps_the_aces_and_throws_the_small_plain_cards():
    hand = ["AS", "KS", "JS", "2S", "AH", "3H", "4D", "AC", "5C"]
    state = classic_round({0: hand})
    state = state.apply(bid_action(3))
    for _ in range(3):
        state = state.apply(PASS)
    state = state.apply(trump_action(SUIT_OF[parse_card("AS")]))
    while state.current_player() != 0:
        view = state.view_for(state.current_player())
        state = state.apply(GREEDY.choose(view, view.legal_actions(), Random(0)))
    view = state.view_for(0)
    prices = price(view, state.legal_actions(), Random(2), budget_ms=1e9, max_deals=30)
    action, _ = prices.best(), prices.deals
    kept = view.hand & ~(action & ~(1 << 64))
    assert action == discard_action(action & ~(1 << 64))
    assert {"AS", "KS", "JS", "2S", "AH", "AC"} == set(map(card_code, cards_of(kept)))


def seven_point_auction(actions: list[int]) -> RoundState:
    """A seven-point round (dealer 3) after ``actions`` in its auction."""
    setup = MatchSetup.partnerships(4, 2, rules=PRESETS["seven_point"])
    state = RoundState(setup, full_deal(setup, {0: STRONG_SPADES}, dealer=3, seed=0))
    for action in actions:
        state = state.apply(action)
    return state


def test_a_styled_seat_raises_by_one_where_its_judgement_reaches_it():
    opening = seven_point_auction([]).view_for(0)
    assert styled_bid(opening, 1.4) == PASS
    assert styled_bid(opening, 1.6) == bid_action(2)  # the least bid, however strong
    assert styled_bid(opening, 6.0) == bid_action(2)
    over_three = seven_point_auction([PASS, PASS, bid_action(3)]).view_for(3)
    assert styled_bid(over_three, 3.4) == PASS
    assert styled_bid(over_three, 3.6) == bid_action(4)
    partners = seven_point_auction([PASS, bid_action(3), PASS]).view_for(3)
    assert styled_bid(partners, 6.0) == PASS  # seat 1's bid is its partner's
    top = seven_point_auction([bid_action(7)]).view_for(1)
    assert styled_bid(top, 9.0) == PASS


def test_only_the_expert_prices_its_later_seats_by_its_own_bidding(monkeypatch):
    import game.bots.rollouts as rollouts

    styled = []

    def spy(view, judged):
        styled.append(view.seat)
        return styled_bid(view, judged)

    monkeypatch.setattr(rollouts, "styled_bid", spy)
    state = classic_round({0: STRONG_SPADES})
    for name in ("expert-v2", "expert"):
        bot = make_bot(name, budget_ms=1e9, max_deals=4)
        bot.choose(state.view_for(0), state.legal_actions(), Random(0))
        assert bool(styled) == (name == "expert")  # expert-v2 keeps greedy's later seats
    assert set(styled) == {1, 2, 3}
    classic = PRESETS["classic"]
    assert bid_style(classic) is not None and bid_style(classic.with_options(target=15))
    assert bid_style(classic.with_options(jokers=2)) is None  # another game: not fitted
