"""The analysis board's pure core: positions replayed through the engine, refused with
words, and the exact table from the solver."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from game.engine import board as boards
from game.engine import solver, variants
from game.engine.board import Board, BoardError
from game.engine.cards import card_code, cards_of, parse_card
from game.engine.rules import PASS, Phase, bid_action, discard_action, trump_action
from game.engine.state import MatchSetup, RoundState, shuffle_deal

from .builders import cards

CLASSIC_SIX = variants.CLASSIC.with_options(deal=6, exchange="none")
# every preset at a small table, and a full-deck table without an exchange
TABLES = [
    (variants.HOUSE, 3),
    (variants.HOUSE, 4),
    (variants.CLASSIC, 4),
    (CLASSIC_SIX, 4),
    (variants.SIX_HANDED, 6),
    (variants.SEVEN_POINT, 4),
]
TABLE_IDS = ["house-3", "house-4", "classic", "classic-six-cards", "six_handed", "seven_point"]


def random_round(rules, players, seed, *, cards_played=0, stop_at_trump=False):
    """A random deal and random legal actions up to card play (and ``cards_played`` cards
    into it); returns the setup, the deal, the actions and the state."""
    setup = MatchSetup.layouts(players, rules)[-1]
    rng = Random(seed)
    dealer = rng.randrange(players)
    deal = shuffle_deal(setup, dealer, rng)
    state = RoundState(setup, deal)
    actions = []
    while True:
        phase = state.phase()
        if phase is Phase.PLAY and cards_played == 0 or phase is Phase.OVER:
            break
        if phase is Phase.TRUMP and stop_at_trump:
            break
        if phase is Phase.EXCHANGE:
            rule = state.discard_rule()
            optional = cards_of(rule.optional)
            rng.shuffle(optional)
            action = discard_action(rule.pick(optional))
        else:
            legal = state.legal_actions()
            if phase is Phase.AUCTION and state.high_bid == 0 and PASS in legal and len(legal) > 1:
                legal = [a for a in legal if a != PASS]  # someone bids: no redeal
            action = rng.choice(legal)
            if phase is Phase.PLAY:
                cards_played -= 1
        state = state.apply(action)
        actions.append((None, action))
    return setup, deal, tuple(actions), state


def board_of(setup, deal, actions, *, seat=0, known=None, scores=None):
    hands = tuple(
        hand if known is None or s in known or s == seat else None
        for s, hand in enumerate(deal.hands)
    )
    return Board(
        rules=setup.rules,
        teams=setup.teams,
        dealer=deal.dealer,
        scores=scores or (0,) * setup.units,
        seat=seat,
        hands=hands,
        actions=actions,
        pack=(deal.pack or None) if known is None else None,
    )


def house_board(hands: dict[int, list[str]], actions=(), *, players=4, dealer=3, seat=0):
    setup = MatchSetup.partnerships(players, 2) if players % 2 == 0 else MatchSetup.cutthroat(3)
    return Board(
        rules=variants.HOUSE,
        teams=setup.teams,
        dealer=dealer,
        scores=(0,) * setup.units,
        seat=seat,
        hands=tuple(cards(*hands[s]) if s in hands else None for s in range(players)),
        actions=tuple(actions),
    )


def said(*codes):
    """Actions as codes, each by whoever is to act."""
    from game.engine.rules import parse_action_code

    return [(None, parse_action_code(code)) for code in codes]


def refusal(board: Board) -> BoardError:
    with pytest.raises(BoardError) as caught:
        boards.replay(board)
    return caught.value


# --- Replaying through the engine ------------------------------------------------------


@pytest.mark.parametrize(("rules", "players"), TABLES, ids=TABLE_IDS)
@pytest.mark.parametrize("seed", range(4))
def test_a_whole_round_replays_to_the_engines_own_state(rules, players, seed):
    setup, deal, actions, state = random_round(rules, players, seed, cards_played=99)
    found = boards.replay(board_of(setup, deal, actions))
    assert found.state == state
    assert found.state.is_terminal()


STAND_IN_TABLES = [*TABLES, (variants.HOUSE, 8), (variants.CLASSIC, 5)]
STAND_IN_IDS = [*TABLE_IDS, "house-8", "classic-5"]


@pytest.mark.parametrize(("rules", "players"), STAND_IN_TABLES, ids=STAND_IN_IDS)
@pytest.mark.parametrize("seed", range(12))
def test_a_round_with_only_the_asking_seats_hand_replays_on_a_stand_in_deal(rules, players, seed):
    setup, deal, actions, state = random_round(rules, players, seed, cards_played=99)
    board = board_of(setup, deal, actions, seat=seed % players, known=())
    found = boards.replay(board)
    assert found.state.history == state.history
    assert found.state.hands[board.seat] == state.hands[board.seat]
    assert found.state.result.raw == state.result.raw or not rules.is_house


def test_a_hidden_seat_that_showed_a_void_gets_no_card_of_that_suit():
    # seat 1 leads the ace of spades: spades are trump; seat 2 throws a heart, so it
    # holds no spade and no joker, whatever stands in for the rest of its hand
    board = house_board(
        {0: ["9S", "10S", "QS", "KS", "9H", "10H"]},
        said("bid:2", "pass", "pass", "pass", "AS", "JH"),
        dealer=0,
    )
    state = boards.replay(board).state
    held = state.hands[2]
    assert not held & (cards("JS") | cards("J1", "J2"))
    assert all(c // 13 != 0 for c in cards_of(held) if c < 52)


# --- Impossible positions, refused with their reason ------------------------------------


def test_a_card_in_two_hands_is_refused():
    error = refusal(
        house_board(
            {0: ["AS", "KS", "QS", "JS", "10S", "9S"], 1: ["AS", "KH", "QH", "JH", "10H", "9H"]}
        )
    )
    assert error.field == "hands"
    assert str(error) == "AS is in two hands: seat 0's and seat 1's"


def test_a_hand_of_the_wrong_size_is_refused():
    error = refusal(house_board({0: ["AS", "KS", "QS", "JS", "10S"]}))
    assert str(error) == "seat 0 holds 5 cards; a hand is 6"


def test_a_card_outside_the_tables_deck_is_refused():
    error = refusal(house_board({0: ["AS", "KS", "QS", "JS", "10S", "2S"]}))
    assert str(error) == "2S is not in the 4-player deck"


def test_more_hands_than_seats_is_refused():
    board = house_board({0: ["AS", "KS", "QS", "JS", "10S", "9S"]})
    error = refusal(replace(board, hands=board.hands + (None,)))
    assert str(error) == "5 hands for 4 players"


def test_a_pack_with_more_cards_than_are_left_undealt_is_refused():
    setup, deal, actions, _ = random_round(variants.SEVEN_POINT, 4, 0)
    board = board_of(setup, deal, ())
    error = refusal(replace(board, pack=board.pack + (board.pack[0],)))
    assert error.field == "pack"
    assert str(error) == "a card is in the pack twice"
    error = refusal(replace(board, pack=board.pack[:-1]))
    assert str(error) == "the pack holds 17 cards; 18 are left undealt"


def test_the_asking_seats_hand_is_needed():
    board = house_board({1: ["AS", "KS", "QS", "JS", "10S", "9S"]}, seat=0)
    assert str(refusal(board)) == "the hand of seat 0, the seat asking, is needed"


def test_a_bid_below_the_high_bid_is_refused_with_the_engines_reason():
    error = refusal(house_board({0: ["AS", "KS", "QS", "JS", "10S", "9S"]}, said("bid:3", "bid:2")))
    assert error.field == "actions" and error.action == 1
    assert str(error) == (
        "action 2: seat 1 could not bid 2: a bid must beat the high bid of 3: 2 does not"
    )


def test_a_bid_out_of_turn_is_refused():
    board = house_board({0: ["AS", "KS", "QS", "JS", "10S", "9S"]}, [(2, bid_action(2))])
    assert str(refusal(board)) == (
        "action 1: seat 2 could not bid 2: not your turn: seat 0 is to act, not seat 2"
    )


def test_the_last_seat_passing_where_the_dealer_must_open_is_refused():
    board = house_board(
        {0: ["AS", "KS", "QS", "JS", "10S", "9S"]}, said("pass", "pass", "pass", "pass")
    )
    assert str(refusal(board)) == (
        "action 4: seat 3 could not pass: the last seat must open the bidding when nobody has bid"
    )


SPADES = ["9S", "10S", "QS", "KS", "9H", "10H"]
LEADER = ["AS", "JS", "AH", "KH", "QH", "QD"]


def test_a_card_a_known_seat_does_not_hold_is_refused_naming_seat_and_card():
    board = house_board(
        {0: SPADES, 1: LEADER}, said("bid:2", "pass", "pass", "pass", "AC"), dealer=0
    )
    error = refusal(board)
    assert error.action == 4
    assert str(error) == (
        "action 5: seat 1 could not play the ace of clubs (AC): AC is not in seat 1's hand"
    )


def test_a_card_a_known_seat_could_not_play_is_refused_with_the_engines_reason():
    # spades are trump from the first lead; seat 2 holds the 9 of spades and throws a heart
    hands = {
        0: SPADES[:3] + ["9D", "10D", "JD"],
        1: LEADER,
        2: ["KS", "9H", "JH", "10C", "JC", "QC"],
    }
    board = house_board(hands, said("bid:2", "pass", "pass", "pass", "AS", "9H"), dealer=0)
    assert str(refusal(board)) == (
        "action 6: seat 2 could not play the 9 of hearts (9H): "
        "9H is not allowed: trump was led and you hold trump or a joker"
    )


def test_a_hidden_seat_that_follows_trump_after_showing_none_is_refused():
    # seat 2 threw the jack of hearts on the ace of spades (trump): it held no trump, so it
    # cannot follow the jack of spades with the queen; the engine names the first play the
    # deal cannot explain
    board = house_board(
        {0: SPADES, 1: LEADER},
        said("bid:2", "pass", "pass", "pass", "AS", "JH", "KD", "9S", "JS", "QC"),
        dealer=0,
    )
    assert boards.replay(board).state.trick == (parse_card("JS"), parse_card("QC"))
    bad = replace(board, actions=board.actions[:-1] + tuple(said("KC")))
    assert boards.replay(bad).state.trick[-1] == parse_card("KC")
    bad = replace(board, actions=board.actions[:-1] + tuple(said("JD")))
    assert boards.replay(bad)  # diamonds are free: it showed no void in them
    worse = replace(board, actions=board.actions[:-1] + tuple(said("J1")))
    error = refusal(worse)
    # the joker shows seat 2 held one when it threw the jack of hearts on a trump lead
    assert error.action == 5
    assert str(error) == (
        "action 6: seat 2 could not play the jack of hearts (JH): JH is not allowed: "
        "trump was led and you hold trump or a joker"
    )


def test_seven_point_with_hands_not_given_replays_through_the_auction_and_trump():
    setup, deal, actions, state = random_round(variants.SEVEN_POINT, 4, 3, stop_at_trump=True)
    trump = tuple(actions) + ((None, trump_action(0)),)
    found = boards.replay(board_of(setup, deal, trump, seat=1, known=()))
    assert found.state.phase() is Phase.EXCHANGE


# --- The exact table, every card known --------------------------------------------------


def _points(rules, unit):
    size = rules.point_count + 1
    return solver.Utility(frozenset({unit}), tuple((a,) * size for a in range(size)))


@pytest.mark.parametrize(("rules", "players"), TABLES, ids=TABLE_IDS)
@pytest.mark.parametrize("seed", range(3))
def test_the_opening_table_equals_the_solvers_answers(rules, players, seed):
    no_exchange = rules.exchange == "none" and not rules.is_house
    setup, deal, actions, state = random_round(rules, players, seed, stop_at_trump=no_exchange)
    table = boards.opening_table(board_of(setup, deal, actions, seat=seed % players))
    units = range(setup.units)
    if rules.is_house:
        # each opening lead: the solver asked again after that card is led
        position = solver.position_of(state)
        expected = [
            (c, tuple(solver.solve(solver.advance(position, c), _points(rules, u)) for u in units))
            for c in cards_of(state.legal_mask())
        ]
        assert [(parse_card(row.lead), row.points) for row in table] == expected
        return
    for row, suit in zip(table, range(4), strict=True):
        assert row.lead == "SHDC"[suit]
        if no_exchange:
            position = solver.position_of(state.apply(trump_action(suit)))
        else:
            position = replace(solver.position_of(state), trump=suit)
        assert row.points == tuple(solver.solve(position, _points(rules, u)) for u in units)


@pytest.mark.parametrize(("rules", "players"), TABLES, ids=TABLE_IDS)
@pytest.mark.parametrize("seed", range(3))
def test_every_legal_cards_value_equals_the_solvers(rules, players, seed):
    played = players * 3 + seed  # halfway through the tricks, at any place in a trick
    setup, deal, actions, state = random_round(rules, players, seed, cards_played=played)
    values = boards.card_values(board_of(setup, deal, actions))
    unit = setup.unit_of[state.current_player()]
    position = solver.position_of(state)
    assert values == {
        code: solver.solve(solver.advance(position, parse_card(code)), _points(rules, unit))
        for code in (card for card in values)
    }
    assert sorted(map(parse_card, values)) == cards_of(state.legal_mask())


def test_the_exact_table_needs_every_hand():
    setup, deal, actions, _ = random_round(variants.HOUSE, 4, 0)
    error = pytest.raises(
        BoardError, boards.opening_table, board_of(setup, deal, actions, known=(0, 2))
    )
    assert str(error.value) == "the exact table needs every card: the hands of seats 1, 3"


def test_the_house_table_waits_for_the_auction_and_is_of_the_first_lead_only():
    setup, deal, actions, _ = random_round(variants.HOUSE, 4, 0)
    with pytest.raises(BoardError, match="finish the auction"):
        boards.opening_table(board_of(setup, deal, actions[:2]))
    setup, deal, actions, _ = random_round(variants.HOUSE, 4, 0, cards_played=1)
    with pytest.raises(BoardError, match="no card may be played yet"):
        boards.opening_table(board_of(setup, deal, actions))


def test_a_full_deck_table_per_trump_waits_for_the_exchange():
    setup, deal, actions, _ = random_round(variants.CLASSIC, 4, 0, stop_at_trump=True)
    with pytest.raises(BoardError, match="finish the exchange"):
        boards.opening_table(board_of(setup, deal, actions))


def test_a_seven_point_round_once_refused_replays_with_the_asking_seats_hand_alone():
    # seat 1 played the 2 of hearts, the 8 and king of diamonds (trump) after the fill: the
    # stand-in once placed all three in its dealt hand, which left no room for the ace of
    # clubs its discard shows it was dealt. A plain card played after the fill came in the
    # fill; a trump may have, and goes there when the dealt hand needs its place.
    setup, deal, actions, state = random_round(variants.SEVEN_POINT, 4, 7, cards_played=99)
    found = boards.replay(board_of(setup, deal, actions, seat=3, known=()))
    assert found.state.history == state.history
    assert found.state.is_terminal()


# --- The asking seat's fill: its hand past the pack ------------------------------------

DRAWING_TABLES = [(variants.SEVEN_POINT, 4), (variants.SIX_HANDED, 6)]


@pytest.mark.parametrize(("rules", "players"), DRAWING_TABLES, ids=["seven_point", "six_handed"])
@pytest.mark.parametrize("seed", range(3))
def test_past_the_fill_the_seats_fill_gives_the_view_the_live_table_holds(rules, players, seed):
    setup, deal, actions, state = random_round(rules, players, seed, cards_played=seed * 3 + 1)
    for seat in range(players):
        board = board_of(setup, deal, actions, seat=seat, known=())
        found = boards.replay(replace(board, fill=state.fills[seat] or None))
        assert found.state.view_for(seat) == state.view_for(seat)
        assert boards.hand_unknown(found) == ""
        drew = state.fills[seat].bit_count()
        assert bool(boards.hand_unknown(boards.replay(board))) == bool(drew)


def test_without_its_fill_or_the_pack_the_board_says_it_cannot_know_the_hand():
    setup, deal, actions, state = random_round(variants.SEVEN_POINT, 4, 3, cards_played=2)
    seat = (deal.dealer + 1) % 4
    assert state.fills[seat].bit_count() == 3
    found = boards.replay(board_of(setup, deal, actions, seat=seat, known=()))
    assert boards.hand_unknown(found) == (
        f"seat {seat} drew 3 cards from the pack, and the board is not told which: give its "
        "fill (or the pack) and the expert answers for the hand it holds"
    )
    assert boards.hand_unknown(boards.replay(board_of(setup, deal, actions, seat=seat))) == ""


def _codes(mask: int) -> str:
    return "".join(card_code(c) for c in cards_of(mask))


def _fill_refusal(board: Board) -> str:
    caught = refusal(board)
    assert caught.field == "fill"
    return caught.reason


def test_a_fill_that_cannot_be_is_refused_naming_what_is_wrong():
    setup, deal, actions, state = random_round(variants.SEVEN_POINT, 4, 3, cards_played=2)
    seat = (deal.dealer + 1) % 4
    fill = state.fills[seat]
    own = board_of(setup, deal, actions, seat=seat, known=())
    every = board_of(setup, deal, actions, seat=seat)
    undealt = setup.deck & ~sum(deal.hands)
    nobodys = cards_of(undealt & ~fill)[0]  # in the pack, and not in the seat's fill
    other = cards_of(deal.hands[(seat + 1) % 4])[0]
    first = cards_of(fill)[0]
    assert _fill_refusal(replace(own, fill=fill | 1 << nobodys)) == (
        f"seat {seat} drew 3 cards from the pack; its fill gives 4"
    )
    assert _fill_refusal(replace(every, fill=fill & ~(1 << first) | 1 << nobodys)) == (
        f"the pack deals seat {seat} {_codes(fill)} in its fill, not "
        f"{_codes(fill & ~(1 << first) | 1 << nobodys)}"
    )
    assert _fill_refusal(replace(own, actions=actions[:3], fill=fill)) == (
        f"seat {seat} has drawn no cards from the pack at this point of the round: its fill "
        "is given only once it has come"
    )
    assert _fill_refusal(replace(every, fill=fill & ~(1 << first) | 1 << other)).startswith(
        f"{card_code(other)} is in seat {(seat + 1) % 4}'s hand and in seat {seat}'s fill"
    )
