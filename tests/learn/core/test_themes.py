"""Themes come from the seat's view and the priced options."""

from random import Random

import pytest

from game.engine.cards import SUIT_OF, parse_card
from game.engine.rules import action_code, trick_winner
from game.engine.state import MatchSetup
from learn.core.positions import Option, phase_of
from learn.core.themes import THEMES, higher_in_trick, higher_trumps_out, themes_for
from tests.game.engine.test_properties import random_states
from tests.learn.fixtures.factories import options, starter_positions, three_player_round

REQUIRED = {
    "bidding",
    "choosing-trump",
    "drawing-trump",
    "protecting-jack",
    "tens-for-game",
    "joker",
    "low",
    "endgame",
    "partner-support",
}

OPENING = "bid:3 pass pass"
AFTER_TRICK_ONE = "bid:3 pass pass AS QS 10H"  # seat 0 takes it and leads again
AFTER_TRICK_THREE = AFTER_TRICK_ONE + " KH AH JH AD QD 10D"  # seat 1 leads trick four


def themes(actions: str, *pairs, scores=None, **option_fields) -> tuple[str, ...]:
    state = three_player_round(actions, scores)
    view = state.view_for(state.current_player())
    return themes_for(view, options(*pairs, **option_fields), phase_of(view))


def test_every_required_theme_has_a_label():
    assert REQUIRED <= set(THEMES)
    assert all(isinstance(label, str) and label for label in THEMES.values())


def test_an_auction_decision_is_about_bidding():
    assert themes("", ("pass", 0.5), ("bid:2", -1.0)) == ("bidding",)


def test_the_opening_lead_chooses_trump_and_keeping_the_jack_back_protects_it():
    found = themes(OPENING, ("AS", 3.0), ("JS", 1.0), ("KH", -2.0))
    assert "choosing-trump" in found
    assert "protecting-jack" in found
    assert "drawing-trump" not in found  # trump is not set before the opening lead


def test_leading_the_jack_itself_does_not_protect_it():
    assert "protecting-jack" not in themes(OPENING, ("JS", 3.0), ("AS", 1.0))


def test_leading_a_ten_that_is_surely_low_is_about_low_and_game():
    found = themes(OPENING, ("10S", 3.0), ("AS", 1.0), ("JS", 0.0))
    assert {"low", "tens-for-game", "protecting-jack"} <= set(found)


def test_a_high_card_with_unseen_trumps_below_it_is_not_low():
    assert "low" not in themes(OPENING, ("KH", 3.0), ("AS", 1.0))


def test_a_trump_lead_with_trump_still_out_draws_trump():
    found = themes(AFTER_TRICK_ONE, ("10S", 2.0), ("KH", 0.5), ("JS", 0.0))
    assert "drawing-trump" in found
    assert "choosing-trump" not in found


def test_a_plain_lead_does_not_draw_trump():
    assert "drawing-trump" not in themes(AFTER_TRICK_ONE, ("KH", 2.0), ("10S", 0.5))


def test_taking_a_ten_in_the_trick_is_about_game():
    led_ten = AFTER_TRICK_ONE + " 10D"  # seat 1 may take it with the ace or king
    assert "tens-for-game" in themes(led_ten, ("AD", 2.0), ("KD", 1.0))


def test_no_ten_no_game_theme():
    led_king = AFTER_TRICK_ONE + " KH"
    assert "tens-for-game" not in themes(led_king, ("QH", 2.0), ("AH", 1.0))


def test_a_best_joker_is_about_jokers():
    assert "joker" in themes(AFTER_TRICK_ONE, ("J1", 2.0), ("KH", 0.5))


def test_from_the_fourth_trick_on_it_is_an_endgame():
    state = three_player_round(AFTER_TRICK_THREE)
    assert len(state.trick_winners) == 3
    codes = [action_code(a) for a in state.legal_actions()]
    pairs = [(code, 2.0 - i) for i, code in enumerate(codes)]
    assert "endgame" in themes(AFTER_TRICK_THREE, *pairs)
    assert "endgame" not in themes(AFTER_TRICK_ONE, ("KH", 2.0), ("10S", 0.5))


def test_a_defender_whose_best_play_cuts_the_bidders_chance_is_setting_the_bidder():
    state = three_player_round(AFTER_TRICK_ONE + " KH AH JH AD")
    assert state.current_player() == 2 and state.bidder_seat == 0
    cut = [
        ("QD", 1.0, 0.4),
        ("JD", 0.2, 0.7),
    ]
    view = state.view_for(2)
    priced = tuple(Option(code, value, 0.1, (2.0, 3.0), made) for code, value, made in cut)
    assert "defence" in themes_for(view, priced, "follow")
    worse = tuple(Option(code, value, 0.1, (2.0, 3.0), 0.5) for code, value, _ in cut)
    assert "defence" not in themes_for(view, worse, "follow")


def test_a_match_near_its_end_is_played_to_the_score():
    assert "match-score" in themes("", ("pass", 0.5), ("bid:2", -1.0), scores=(18, 3, 4))
    assert "match-score" not in themes("", ("pass", 0.5), ("bid:2", -1.0), scores=(5, 3, 4))


@pytest.mark.parametrize("seed", range(6))
def test_a_partner_winning_the_trick_is_about_partner_support(seed):
    setup = MatchSetup.partnerships(4, 2)
    for state in random_states(setup, seed):
        if state.is_terminal() or state.in_auction() or not state.trick:
            continue
        seat = state.current_player()
        view = state.view_for(seat)
        winner = view.current_trick[trick_winner(list(state.trick), state.trump)][0]
        codes = [action_code(a) for a in state.legal_actions()]
        found = themes_for(view, options(*[(c, -i) for i, c in enumerate(codes)]), "follow")
        partner_winning = winner != seat and setup.unit_of[winner] == setup.unit_of[seat]
        assert ("partner-support" in found) == partner_winning


def test_themes_come_in_the_order_of_the_catalogue():
    rng = Random(3)
    setup = MatchSetup.cutthroat(3)
    for state in random_states(setup, rng.randrange(10**6)):
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        view = state.view_for(state.current_player())
        codes = [action_code(a) for a in state.legal_actions()]
        found = themes_for(view, options(*[(c, -i) for i, c in enumerate(codes)]), phase_of(view))
        assert list(found) == [slug for slug in THEMES if slug in found]


def test_a_jack_nothing_can_take_is_not_protected_by_keeping_it_back():
    bank = starter_positions()
    safe = [
        p
        for p in bank
        if "protecting-jack" in p.themes
        and not higher_trumps_out(p.view(), _trump(p))
        and higher_in_trick(p.view(), _trump(p)) is None
    ]
    assert safe  # the starter bank was tagged before the theme asked for a threat
    for position in safe:
        view = position.view()
        assert "protecting-jack" not in themes_for(view, position.options, position.phase)


def _trump(position) -> int:
    view = position.view()
    return view.trump if view.trump is not None else SUIT_OF[parse_card(position.best.code)]
