"""Explanations at the full-deck tables: from the same analysis, in the game's words."""

from random import Random

import pytest

from game.bots.basic import GreedyBot
from game.engine import notation
from game.engine.cards import JOKER_1, JOKER_2, card_code, cards_of
from game.engine.rules import Phase, named_suit, parse_action_code, trick_winner_full, trumps_of
from game.engine.state import MatchSetup, MatchState
from game.engine.variants import PRESETS
from learn.core import explain_family, grades
from learn.core.positions import PositionError
from tests.learn.core.test_positions_family import discards, legal
from tests.learn.family import match_at, position_at


def test_the_best_discard_is_told_with_what_stays():
    match = match_at("classic", Phase.EXCHANGE)
    position = position_at(match, discards(match))
    told = explain_family.explained(position, position.options[-1].code)
    first = told.paragraphs[0]
    assert first.startswith("Discarding the ") and "with them gone, you keep " in first
    assert " throws the " in first and " and keeps the " in first
    assert "Your discard " in first and "the best discard" in first
    assert "costs about" in told.details[0]


def test_naming_trump_counts_the_tables_own_trumps():
    match = match_at("seven_point", Phase.TRUMP)
    position = position_at(match, legal(match))
    view = position.view()
    suit = named_suit(parse_action_code(position.best.code))
    # the jick and both jokers count among the trumps held
    held = (view.hand & trumps_of(suit, True, 2).cards).bit_count()
    first = explain_family.explained(position, position.best.code).paragraphs[0]
    assert first.startswith(f"Naming {notation.suit_name(suit)}: ")
    assert f" trump you hold {held} trump" in first
    assert f"You found it: naming {notation.suit_name(suit)} is best." in first
    assert first.count("Naming ") == 2  # the next best's trumps, said the same way


def test_the_games_points_and_exchange_are_said_in_its_words():
    match = match_at("seven_point", Phase.AUCTION)
    position = position_at(match, legal(match))
    last = explain_family.explained(position, position.best.code).paragraphs[-1]
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
    first = explain_family.explained(position, position.best.code).paragraphs[0]
    assert f": a trump, with {out} trumps you have not seen still out." in first


def _joker_facing_a_higher_trump() -> tuple[MatchState, int]:
    """A seven-point match at a seat that may play a joker while an opponent's higher
    trump is winning the trick: (the match, the joker)."""
    for seed in range(200):
        rng = Random(f"joker/{seed}")
        setup = MatchSetup.layouts(4, PRESETS["seven_point"])[-1]
        match = MatchState(setup, 0).deal_round(rng)
        while match.current_player() is not None:
            seat = match.current_player()
            view = match.view_for(seat)
            if view.phase is Phase.PLAY and view.current_trick:
                trumps = view.trumps
                played = [c for _, c in view.current_trick]
                winner, winning = view.current_trick[trick_winner_full(played, trumps)]
                for joker in (JOKER_1, JOKER_2):
                    if (
                        joker in view.legal_actions()
                        and view.unit_of[winner] != view.unit
                        and trumps.strength[winning] > trumps.strength[joker]
                    ):
                        return match, joker
            match = match.apply(GreedyBot().choose(view, view.legal_actions(), rng), seat)
    raise AssertionError("no joker met a higher trump")


def test_a_joker_played_under_a_higher_trump_is_told_who_captures_it():
    match, joker = _joker_facing_a_higher_trump()
    view = match.view_for(match.current_player())
    played = [c for _, c in view.current_trick]
    winning = played[trick_winner_full(played, view.trumps)]
    others = [c for c in legal(match) if c != card_code(joker)]
    position = position_at(match, [*others, card_code(joker)], deals=grades.MIN_DEALS)
    told = explain_family.explained(position, card_code(joker))
    first = told.paragraphs[0]
    joker_name = "the high joker" if joker == JOKER_1 else "the low joker"
    capturer = explain_family.trump_card(winning, view.trumps).removeprefix("the ")
    # the card that captures it, named, and before the verdict
    capture = f"Playing {joker_name}: an opponent's {capturer} in this trick outranks it"
    assert capture in first
    assert "so played now it is captured unless a later card takes the trick" in first
    assert first.index(capture) < first.index(f"Playing {joker_name} is ")
    assert "match value" not in " ".join(told.paragraphs)


def test_a_joker_led_is_told_how_many_unseen_trumps_could_capture_it():
    match = match_at("seven_point", Phase.PLAY)
    view = match.view_for(match.current_player())
    words = {
        joker: explain_family.capture_words(joker, view)
        for joker in (JOKER_1, JOKER_2)
        if not view.current_trick
    }
    for joker, said in words.items():
        strength = view.trumps.strength[joker]
        above = [
            c
            for c in cards_of(view.unseen & view.trumps.cards)
            if view.trumps.strength[c] > strength
        ]
        if above:
            assert said.startswith(f"{len(above)} higher trump")
            assert said.endswith("a point to whoever takes it")
        else:
            assert "nobody can capture it" in said
    # a card that scores for whoever holds it, not whoever captures it, is no capture
    assert explain_family.capture_words(view.trumps.suit * 13 + 12, view) == ""  # the ace
