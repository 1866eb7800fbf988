"""Explanations at the full-deck tables: from the same analysis, in the game's words."""

import pytest

from game.engine import notation
from game.engine.cards import card_code
from game.engine.rules import Phase, named_suit, parse_action_code, trumps_of
from learn.core import explain_family
from learn.core.positions import PositionError
from tests.learn.core.test_positions_family import discards, legal
from tests.learn.family import match_at, position_at


def test_the_best_discard_is_told_with_what_stays():
    match = match_at("classic", Phase.EXCHANGE)
    position = position_at(match, discards(match))
    best, worse = explain_family.explain(position, position.options[-1].code)[:2]
    assert best.startswith("Discarding the ") and "with them gone, you keep " in best
    assert "costs about" in worse and "it throws the " in worse and "and keeps the " in worse


def test_naming_trump_counts_the_tables_own_trumps():
    match = match_at("seven_point", Phase.TRUMP)
    position = position_at(match, legal(match))
    view = position.view()
    suit = named_suit(parse_action_code(position.best.code))
    # the jick and both jokers count among the trumps held
    held = (view.hand & trumps_of(suit, True, 2).cards).bit_count()
    paragraphs = explain_family.explain(position, position.best.code)
    assert paragraphs[0].startswith(f"Naming {notation.suit_name(suit)} is best: ")
    assert f" trump you hold {held} trump" in paragraphs[0]
    assert paragraphs[1].startswith("You found it. The next best, naming ")


def test_the_games_points_and_exchange_are_said_in_its_words():
    match = match_at("seven_point", Phase.AUCTION)
    position = position_at(match, legal(match))
    last = explain_family.explain(position, position.best.code)[-1]
    assert last.startswith("Seven-point: 7 points in play (High, Low, Jack, Jick, High joker")
    assert "filled up to six from the pack" in last


def test_the_jick_is_named_as_the_jick():
    match = match_at("seven_point", Phase.PLAY)
    view = match.view_for(match.current_player())
    jick = view.trumps.jick
    assert explain_family.trump_card(jick, view.trumps).endswith("(the jick)")


def test_a_choice_that_is_not_offered_is_refused():
    match = match_at("six_handed", Phase.TRUMP)
    position = position_at(match, legal(match))
    with pytest.raises(PositionError):
        explain_family.explain(position, "bid:3")


def test_a_long_discard_is_told_by_the_cards_it_keeps():
    match = match_at("six_handed", Phase.EXCHANGE)  # the dealer took the pack: 17 go
    position = position_at(match, discards(match))
    view = position.view()
    words = explain_family.doing(position.best.code, view)
    assert words.startswith("discarding 17 cards, keeping the ")
    assert words.count(" the ") == 6  # the six cards kept, one by one


def test_a_trump_lead_says_how_many_trumps_the_seat_has_not_seen():
    match = match_at("classic", Phase.PLAY)
    view = match.view_for(match.current_player())
    trump = next(a for a in view.legal_actions() if view.trumps.strength[a] >= 0)
    others = [c for c in legal(match) if c != card_code(trump)]
    position = position_at(match, [card_code(trump), *others])
    out = (view.unseen & view.trumps.cards).bit_count()
    first = explain_family.explain(position, position.best.code)[0]
    assert f": a trump, with {out} trumps you have not seen still out." in first
