"""'Show me a deal' from an auction decision: the rest of the auction, then the round."""

from dataclasses import replace
from random import Random

import pytest

from game.bots.basic import GreedyBot
from game.bots.expert import ExpertBot
from game.engine import notation
from game.engine.cards import HAND_SIZE, card_code, mask_of, parse_card
from game.engine.rules import is_card, parse_action_code
from game.engine.state import Deal, MatchSetup, MatchState, RoundState
from learn import presenters
from learn.core.analysis import assess
from learn.core.lines import play_out, shown_line, walk_through
from tests.learn.fixtures.factories import starter_positions

ANALYST = ExpertBot(budget_ms=1e9, max_deals=3)  # no clock: the same line every run


@pytest.fixture(scope="module")
def auctions():
    return [p for p in starter_positions() if p.phase == "auction"]


def hands_of(position) -> list[int]:
    return [mask_of(parse_card(code) for code in hand) for hand in position.line_hands]


def replays(view, hands, line) -> bool:
    """The line is legal, step by step, in the sampled deal, and ends the round. The round
    is dealt here by the engine alone, not by ``learn.core.lines``, whose line (the
    solver's, after the auction) it checks: a mistake there cannot pass for a legal line."""
    dealt = 0
    for hand in hands:
        dealt |= hand
    setup = MatchSetup(view.players, view.teams, view.target)
    state = RoundState(setup, Deal(view.dealer, tuple(hands), view.deck & ~dealt), view.scores)
    for seat, action in view.auction:
        state = state.apply(action, seat)
    for seat, code in line:
        state = state.apply(parse_action_code(code), seat)
    return state.is_terminal()


def test_every_auction_position_shows_the_auction_finished_and_six_tricks(auctions):
    for position in auctions:
        view = position.view()
        deal = presenters.deal_shown(position)
        assert [tuple(cards) for _, cards in deal.hands] == [tuple(h) for h in position.line_hands]
        assert deal.auction[0] == ("You", notation.said(parse_action_code(position.best.code)))
        assert len(view.auction) + len(deal.auction) == view.players  # one lap, all called
        assert [t.number for t in deal.tricks] == [0, 1, 2, 3, 4, 5]  # from 0, as at the table
        assert all(len(t.plays) == view.players and t.winner for t in deal.tricks)


def test_the_shown_line_is_legal_in_the_sampled_deal_and_repeats(auctions):
    for position in auctions[:20]:
        line = shown_line(position)
        assert line[0] == (position.seat, position.best.code)
        assert replays(position.view(), hands_of(position), line)
        assert shown_line(position) == line


def test_the_later_seats_call_from_their_own_view_of_the_sampled_deal(auctions):
    position = next(p for p in auctions if len(p.view().auction) < p.players - 1)
    hands = hands_of(position)
    seen = []

    class Spy(GreedyBot):
        def choose(self, view, legal, rng):
            seen.append((view.seat, view.hand, tuple(legal) == tuple(view.legal_actions())))
            return super().choose(view, legal, rng)

    call = parse_action_code(position.best.code)
    play_out(position.view(), hands, call, Spy(), Random(0))
    assert seen and all(hand == hands[seat] and legal for seat, hand, legal in seen)
    assert all(seat != position.seat for seat, _, _ in seen)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_generation_plays_an_auction_position_to_the_end_of_the_round(players):
    match = MatchState(MatchSetup.cutthroat(players), 0).deal_round(Random(players))
    view = match.view_for(match.current_player())
    assessment = assess(view, ANALYST, Random(1))
    line = assessment.line
    cards = [code for _, code in line if is_card(parse_action_code(code))]
    assert line[0] == (view.seat, assessment.options[0].code)
    assert len(cards) == players * HAND_SIZE
    hands = [mask_of(parse_card(code) for code in hand) for hand in assessment.line_hands]
    assert hands[view.seat] == view.hand
    assert replays(view, hands, line)


def test_the_walk_through_plays_the_line_trick_by_trick_as_the_engine_closes_them():
    cards = [p for p in starter_positions() if p.phase != "auction" and len(p.line) > 1]
    assert cards
    for position in cards[:40]:
        walk = walk_through(position)
        assert walk.calls == ()
        told = [(seat, card_code(card)) for t in walk.tricks for seat, card in t.line_plays]
        assert told == list(position.line)
        assert walk.tricks[0].before == len(position.view().current_trick)
        finished = [t for t in walk.tricks if t.winner is not None]
        assert all(len(t.plays) == position.players for t in finished)
        for trick, after in zip(walk.tricks, walk.tricks[1:], strict=False):
            assert after.plays[0][0] == trick.winner  # who takes a trick leads the next


def test_a_line_that_does_not_replay_in_its_deal_is_not_walked():
    position = next(p for p in starter_positions() if p.phase == "follow" and len(p.line) > 2)
    (first, played), (second, _) = position.line[:2]
    # the second seat plays the card the first has just played
    broken = replace(position, line=((first, played), (second, played), *position.line[2:]))
    assert walk_through(broken) is None
    assert walk_through(replace(position, line_hands=())) is None
