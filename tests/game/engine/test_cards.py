import pytest

from game.engine.cards import (
    JOKERS,
    RANKS,
    SUITS,
    card_code,
    cards_of,
    functional_deck,
    game_total,
    hidden_count,
    mask_of,
    parse_card,
    rank_count,
    suit_ranks,
)
from tests.game.engine.builders import cards

SEED_DECK_TABLE = [(3, "10", 4), (4, "9", 2), (5, "7", 4), (6, "6", 2), (7, "4", 4), (8, "3", 2)]


@pytest.mark.parametrize(("players", "low", "hidden"), SEED_DECK_TABLE)
def test_functional_deck_keeps_every_rank_from_the_low_up_and_both_jokers(players, low, hidden):
    deck = [card_code(c) for c in cards_of(functional_deck(players))]

    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    kept = ranks[ranks.index(low) :]
    assert sorted(deck) == sorted([r + s for s in "SHDC" for r in kept] + ["J1", "J2"])
    assert hidden_count(players) == hidden
    assert len(deck) == 6 * players + hidden


@pytest.mark.parametrize("players", [2, 9])
def test_functional_deck_refuses_unsupported_player_counts(players):
    with pytest.raises(ValueError, match="3 to 8 players"):
        functional_deck(players)


def test_jokers_are_in_every_functional_deck():
    assert all(functional_deck(players) & JOKERS == JOKERS for players in range(3, 9))


@pytest.mark.parametrize("code", ["AS", "10H", "JD", "2C", "J1", "J2"])
def test_card_codes_round_trip(code):
    assert card_code(parse_card(code)) == code


def test_card_codes_are_read_case_insensitively():
    assert parse_card("as") == parse_card("AS")
    assert parse_card("10h") == parse_card("10H")
    assert parse_card("j1") == parse_card("J1")


@pytest.mark.parametrize("code", ["", "1S", "AX", "J3", "11H", "S", "10"])
def test_unknown_card_codes_are_refused(code):
    with pytest.raises(ValueError, match="unknown card"):
        parse_card(code)


def test_game_values_are_ten_ten_jack_one_queen_two_king_three_ace_four():
    assert game_total(cards("10S")) == 10
    assert game_total(cards("JH")) == 1
    assert game_total(cards("QD")) == 2
    assert game_total(cards("KC")) == 3
    assert game_total(cards("AS")) == 4
    assert game_total(cards("2S", "9H", "5D", "J1", "J2")) == 0
    assert game_total(cards("10S", "10C", "AH", "KD")) == 27


def test_a_suits_ranks_are_thirteen_bits_and_a_rank_is_counted_across_suits():
    hand = mask_of(parse_card(code) for code in ("AC", "2C", "AS", "J1"))
    assert suit_ranks(hand, SUITS.index("C")) == 1 << RANKS.index("A") | 1
    assert rank_count(hand, RANKS.index("A")) == 2 and rank_count(hand, RANKS.index("K")) == 0
