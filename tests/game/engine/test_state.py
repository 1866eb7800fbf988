"""The round and match state machine: turn order, the auction, trump, a scripted round."""

from random import Random

import pytest

from game.engine.cards import SUITS, card_code, cards_of, parse_card
from game.engine.rules import PASS, bid_action
from game.engine.state import Deal, IllegalAction, MatchSetup, MatchState, RoundState
from tests.game.engine.builders import act, auction_won_by, cards, random_round, round_with


def snapshot(state: RoundState) -> dict:
    return {name: getattr(state, name) for name in RoundState.__slots__}


# --- Turn order and the auction ----------------------------------------------------


def test_bidding_starts_left_of_the_dealer_and_the_dealer_acts_last():
    state = random_round(MatchSetup.partnerships(4, 2), Random(1), dealer=2)
    order = []
    while state.in_auction():
        order.append(state.current_player())
        state = state.apply(PASS if len(order) < 4 else bid_action(1))
    assert order == [3, 0, 1, 2]


def test_each_seat_acts_once_in_the_auction_and_the_high_bidder_leads():
    state = random_round(MatchSetup.cutthroat(5), Random(2), dealer=0)
    state = act(state, "bid:2", "pass", "bid:4", "pass", "pass")
    assert not state.in_auction()
    assert state.bidder_seat == 3 and state.bid == 4
    assert state.current_player() == 3


def test_a_bid_that_does_not_beat_the_high_bid_is_refused():
    state = act(random_round(MatchSetup.partnerships(4, 2), Random(3)), "bid:3")
    with pytest.raises(IllegalAction, match="beat the high bid of 3"):
        state.apply(bid_action(3))


def test_the_last_seat_may_not_pass_when_nobody_has_bid():
    state = act(random_round(MatchSetup.partnerships(4, 2), Random(4)), "pass", "pass", "pass")
    assert PASS not in state.legal_actions()
    with pytest.raises(IllegalAction, match="must open"):
        state.apply(PASS)
    assert act(state, "bid:1").bid == 1


def test_a_bid_of_six_does_not_end_the_lap():
    state = act(random_round(MatchSetup.partnerships(4, 2), Random(5)), "bid:6")
    for _ in range(3):
        assert state.in_auction()
        assert state.legal_actions() == [PASS]
        state = state.apply(PASS)
    assert not state.in_auction() and state.bidder_seat == 1


def test_cards_cannot_be_played_during_the_auction():
    state = random_round(MatchSetup.partnerships(4, 2), Random(6))
    held = cards_of(state.hands[state.current_player()])[0]
    with pytest.raises(IllegalAction, match="the auction is on"):
        state.apply(held)


def test_bids_cannot_be_made_once_play_has_started():
    state = auction_won_by(random_round(MatchSetup.partnerships(4, 2), Random(7)), seat=2)
    with pytest.raises(IllegalAction, match="not in seat 2's hand"):
        state.apply(bid_action(6))


# --- Trump and play ----------------------------------------------------------------


def test_the_first_card_led_sets_trump():
    state = auction_won_by(round_with({1: ["KC", "AS", "9D", "10H", "QH", "J1"]}), seat=1)
    assert state.trump == -1
    state = act(state, "KC")
    assert SUITS[state.trump] == "C"


def test_the_auction_winner_may_not_open_with_a_joker():
    state = auction_won_by(round_with({1: ["KC", "AS", "9D", "10H", "QH", "J1"]}), seat=1)
    assert parse_card("J1") not in state.legal_actions()
    with pytest.raises(IllegalAction, match="joker cannot set trump"):
        act(state, "J1")


def test_seed_example_joker_is_the_only_answer_to_a_trump_lead_in_a_real_round():
    # Trump is diamonds, the trick is led with AD, and your hand is JH, QH, AH, 10S, KS, J2.
    hands = {0: ["AD", "9S", "9H", "9C", "10C", "JC"], 1: ["JH", "QH", "AH", "10S", "KS", "J2"]}
    state = act(auction_won_by(round_with(hands, dealer=3), seat=0), "AD")
    assert state.current_player() == 1
    assert [card_code(c) for c in state.legal_actions()] == ["J2"]
    with pytest.raises(IllegalAction, match="trump was led"):
        act(state, "KS")


def test_the_trick_winner_leads_the_next_trick():
    hands = {
        0: ["AS", "KS", "QS", "10H", "JH", "QH"],
        1: ["JS", "10S", "AH", "KH", "J1", "AD"],
        2: ["10D", "JD", "QD", "KD", "10C", "J2"],
    }
    state = act(auction_won_by(round_with(hands, players=3, dealer=2), seat=0), "10H")
    state = act(state, "AH", "J2")  # hearts are trump: the ace beats the joker
    assert state.trick_winners == (1,)
    assert state.current_player() == 1


def test_an_out_of_turn_action_is_refused_and_changes_nothing():
    state = random_round(MatchSetup.partnerships(4, 2), Random(8), dealer=0)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="not your turn: seat 1 is to act"):
        state.apply(PASS, seat=2)
    assert snapshot(state) == before


def test_an_illegal_card_is_refused_and_changes_nothing():
    state = auction_won_by(round_with({1: ["KC", "AS", "9D", "10H", "QH", "J1"]}), seat=1)
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        act(state, "J1")
    with pytest.raises(IllegalAction, match="not in seat 1's hand"):
        act(state, "AC")
    with pytest.raises(IllegalAction, match="is not an action"):
        state.apply("KC")
    assert snapshot(state) == before


# --- A whole scripted round (3 players, every seat for itself) ----------------------

SCRIPTED_HANDS = {
    0: ["AS", "KS", "QS", "10H", "JH", "QH"],
    1: ["JS", "10S", "AH", "KH", "J1", "AD"],
    2: ["10D", "JD", "QD", "KD", "10C", "J2"],
}  # JC, QC, KC and AC are hidden
SCRIPT = [
    "bid:2", "pass", "pass",
    "AS", "10S", "J2",  # spades are trump; the ace wins
    "KS", "JS", "10D",
    "QS", "J1", "JD",  # a trump beats the joker
    "10H", "AH", "QD",  # seat 1 wins with the ace of the suit led
    "KH", "KD", "QH",
    "AD", "10C", "JH",
]  # fmt: skip


def test_a_scripted_round_scores_high_low_jack_jokers_and_game():
    state = act(round_with(SCRIPTED_HANDS, players=3, dealer=2), *SCRIPT)

    assert state.is_terminal() and state.current_player() is None
    assert state.trick_winners == (0, 0, 0, 1, 1, 1)
    result = state.result
    assert result.points.high == 0  # AS
    assert result.points.low == 1  # 10S was dealt to seat 1, though seat 0 captured it
    assert result.points.jack == 0  # JS
    assert result.points.jokers == (0, 0)
    assert result.points.game == 1  # 39 game points against 31
    assert result.raw == (4, 2, 0)
    assert result.made and result.match_after == (4, 2, 0)


def test_no_action_is_legal_once_the_round_is_over():
    state = act(round_with(SCRIPTED_HANDS, players=3, dealer=2), *SCRIPT)
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction, match="the round is over"):
        state.apply(PASS)


# --- The match ---------------------------------------------------------------------


def play_out(match: MatchState, rng: Random) -> MatchState:
    """Finish the current round: the forced opener bids 1, cards at random."""
    while match.current_player() is not None:
        legal = match.legal_actions()
        choice = (
            (PASS if PASS in legal else legal[0]) if match.round.in_auction() else rng.choice(legal)
        )
        match = match.apply(choice)
    return match


def test_the_dealer_rotates_one_seat_clockwise_each_round():
    rng = Random(9)
    match = MatchState(MatchSetup.cutthroat(3), first_dealer=1)
    dealers = []
    for _ in range(4):
        match = play_out(match.deal_round(rng), rng)
        dealers.append(match.round.dealer)
    assert dealers == [2 if i % 3 == 1 else (1 + i) % 3 for i in range(4)]


def test_a_deal_by_the_wrong_seat_is_refused():
    match = MatchState(MatchSetup.cutthroat(3), first_dealer=0)
    match = play_out(match.deal_round(Random(10)), Random(10))
    wrong = Deal(0, match.round.deal.hands, match.round.deal.hidden)
    with pytest.raises(IllegalAction, match="seat 1 deals this round"):
        match.start_round(wrong)


def test_each_round_starts_from_the_match_score_the_last_one_left():
    rng = Random(11)
    match = play_out(MatchState(MatchSetup.partnerships(4, 2)).deal_round(rng), rng)
    after_first = match.scores
    match = match.deal_round(rng)
    assert match.round.scores == after_first


def test_the_match_ends_when_the_bidder_reaches_the_target():
    rng = Random(12)
    match = MatchState(MatchSetup.partnerships(4, 2, target=5))
    while not match.is_terminal():
        match = play_out(match.deal_round(rng), rng)
    last = match.round.result
    assert match.winner == last.bidder_unit
    assert match.scores[match.winner] >= 5
    assert all(score <= 4 for unit, score in enumerate(match.scores) if unit != match.winner)
    with pytest.raises(IllegalAction, match="the match is over"):
        match.deal_round(rng)


def test_a_deal_that_is_not_the_functional_deck_is_refused():
    setup = MatchSetup.partnerships(4, 2)
    good = random_round(setup, Random(13)).deal
    two_of_spades = cards("2S")  # below the 4-player low
    bad_hands = (good.hands[0] & ~(good.hands[0] & -good.hands[0]) | two_of_spades,) + good.hands[
        1:
    ]
    with pytest.raises(ValueError, match="not the 4-player deck"):
        RoundState(setup, Deal(0, bad_hands, good.hidden))


@pytest.mark.parametrize(
    ("players", "teams"),
    [(4, [[0, 1], [1, 2, 3]]), (4, [[0, 1]]), (5, [[0, 1, 2, 3, 4, 5]]), (2, [[0], [1]])],
)
def test_teams_must_partition_the_seats(players, teams):
    with pytest.raises(ValueError):
        MatchSetup(players, teams)


def test_any_partition_of_the_seats_is_a_valid_team_layout():
    setup = MatchSetup(6, [[0, 3], [1], [2, 4, 5]])
    assert setup.unit_of == (0, 1, 2, 0, 2, 2)


# --- Replaying a sequence in place -------------------------------------------------


def played_out(state: RoundState, rng: Random) -> list[tuple[int, int]]:
    seated = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        seated.append((state.current_player(), action))
        state = state.apply(action)
    return seated


def test_replay_reaches_the_same_state_as_applying_each_action_and_leaves_the_start_alone():
    start = random_round(MatchSetup.cutthroat(5), Random(11))
    seated = played_out(start, Random(12))
    before = snapshot(start)
    stepped = start
    for seat, action in seated:
        stepped = stepped.apply(action, seat)

    replayed = start.replay(seated)

    assert replayed == stepped and snapshot(replayed) == snapshot(stepped)
    assert snapshot(start) == before


def test_replay_logs_the_legal_actions_before_each_action_as_one_mask():
    start = random_round(MatchSetup.partnerships(4, 2), Random(13))
    seated = played_out(start, Random(14))
    masks = []
    start.replay(seated, legal_log=masks)
    expected, state = [], start
    for seat, action in seated:
        expected.append(state.legal_actions())
        state = state.apply(action, seat)
    assert [cards_of(mask) for mask in masks] == [sorted(legal) for legal in expected]


def test_replay_names_the_first_illegal_action_by_its_index():
    start = random_round(MatchSetup.partnerships(4, 2), Random(15))
    seated = played_out(start, Random(16))
    seat, _ = seated[6]
    wrong_seat = [*seated[:6], ((seat + 1) % 4, seated[6][1]), *seated[7:]]
    with pytest.raises(IllegalAction, match="not your turn") as refused:
        start.replay(wrong_seat)
    assert refused.value.index == 6


# --- The Smear family: naming trump, the exchanges, the redeal ---------------------

from game.engine.rules import Phase, discard_action  # noqa: E402
from game.engine.variants import CLASSIC, HOUSE, SEVEN_POINT, SIX_HANDED  # noqa: E402
from tests.game.engine.builders import full_deal  # noqa: E402


def classic_round(dealer: int = 0, seed: int = 5) -> RoundState:
    setup = MatchSetup.partnerships(4, 2, rules=CLASSIC)
    return random_round(setup, Random(seed), dealer=dealer)


def names(mask: int) -> list[str]:
    return sorted(card_code(c) for c in cards_of(mask))


def plain_discard(state: RoundState) -> int:
    """The discard of the first cards the rule allows (its musts first)."""
    rule = state.discard_rule()
    return discard_action(rule.pick(cards_of(rule.optional)))


def test_a_classic_deal_is_nine_cards_each_and_the_bidder_names_trump_after_the_auction():
    state = classic_round(dealer=3)
    assert all(hand.bit_count() == 9 for hand in state.hands)
    state = act(state, "pass", "bid:3", "pass", "pass")
    assert state.phase() is Phase.TRUMP and state.current_player() == 1
    assert act(state, "trump:H").trump == SUITS.index("H")


def test_naming_trump_takes_a_suit_and_nothing_else():
    state = act(classic_round(), "bid:2", "pass", "pass", "pass")
    with pytest.raises(IllegalAction, match="the bidder names trump"):
        state.apply(parse_card("AS"))


def test_every_seat_discards_to_six_from_the_dealers_left_then_the_bidder_leads():
    state = act(classic_round(dealer=0), "bid:2", "pass", "pass", "pass", "trump:S")
    order = []
    while state.phase() is Phase.EXCHANGE:
        order.append(state.current_player())
        state = state.apply(plain_discard(state))
    assert order == [1, 2, 3, 0]
    assert all(hand.bit_count() == 6 for hand in state.hands)
    assert state.phase() is Phase.PLAY and state.current_player() == 1


def test_a_discard_against_the_rule_is_refused_in_words_and_changes_nothing():
    state = act(classic_round(), "bid:2", "pass", "pass", "pass", "trump:S")
    before = snapshot(state)
    hand = state.hands[state.current_player()]
    with pytest.raises(IllegalAction, match="discard 3 cards, not 1"):
        state.apply(discard_action(1 << cards_of(hand)[0]))
    with pytest.raises(IllegalAction, match="not a discard"):
        state.apply(cards_of(hand)[0])
    assert snapshot(state) == before


def test_every_seat_passing_redeals_by_the_same_dealer_and_scores_nothing():
    match = MatchState(MatchSetup.partnerships(4, 2, rules=CLASSIC), first_dealer=2)
    match = match.deal_round(Random(1))
    for _ in range(4):
        match = match.apply(PASS)
    last = match.round
    assert last.is_terminal() and last.result.redeal
    assert last.result.raw == (0, 0) and last.result.match_after == (0, 0)
    assert last.bid is None and last.bidder_seat is None
    assert match.needs_deal() and match.next_dealer() == 2


def test_the_house_dealer_still_must_open_when_everyone_else_passed():
    state = act(random_round(MatchSetup.partnerships(4, 2), Random(3)), "pass", "pass", "pass")
    assert PASS not in state.legal_actions()


def seven_point_round() -> RoundState:
    setup = MatchSetup.partnerships(4, 2, rules=SEVEN_POINT)
    hands = {
        1: ["AS", "KS", "3H", "4H", "5H", "6H", "7H", "8H", "9H"],  # two trumps
        2: ["2S", "JC", "J1", "QS", "3D", "4D", "5D", "6D", "7D"],  # four trumps
        3: ["JS", "10S", "9S", "8S", "7S", "6S", "5S", "J2", "2C"],  # eight trumps
    }
    pack = ["AD", "KD", "QD", "JD", "10D", "9D", "8D", "2H", "10H", "JH"]
    return RoundState(setup, full_deal(setup, hands, dealer=0, pack_top=pack))


def test_discard_and_fill_deals_each_seat_up_to_six_from_the_top_of_the_pack_in_turn():
    state = act(seven_point_round(), "bid:3", "pass", "pass", "pass", "trump:S")
    assert state.current_player() == 1
    state = state.apply(discard_action(cards("3H", "4H", "5H", "6H", "7H", "8H", "9H")))
    state = state.apply(discard_action(cards("3D", "4D", "5D", "6D", "7D")))
    assert state.discard_rule().must == cards("2C")
    state = state.apply(discard_action(cards("2C", "8S", "7S")))
    assert names(state.fills[1]) == names(cards("AD", "KD", "QD", "JD"))
    assert names(state.fills[2]) == names(cards("10D", "9D"))
    assert state.fills[3] == 0
    assert state.current_player() == 0 and state.hands[0].bit_count() == 9 + 18 - 6
    assert cards("8D", "2H", "10H", "JH") & state.fills[0] == cards("8D", "2H", "10H", "JH")


def test_a_seat_sees_its_own_discard_and_fill_and_nobody_elses():
    state = act(seven_point_round(), "bid:3", "pass", "pass", "pass", "trump:S")
    state = state.apply(discard_action(cards("3H", "4H", "5H", "6H", "7H", "8H", "9H")))
    state = state.apply(discard_action(cards("3D", "4D", "5D", "6D", "7D")))
    state = state.apply(discard_action(cards("2C", "8S", "7S")))
    mine, theirs = state.view_for(1), state.view_for(2)
    assert mine.discard == cards("3H", "4H", "5H", "6H", "7H", "8H", "9H")
    assert mine.fill == cards("AD", "KD", "QD", "JD")
    assert theirs.discard == cards("3D", "4D", "5D", "6D", "7D") and theirs.fill & mine.fill == 0
    assert mine.discard_counts == (0, 7, 5, 3) and mine.fill_counts[1:] == (4, 2, 0)
    assert not mine.unseen & mine.discard


def test_the_six_handed_dealer_takes_the_pack_when_trump_is_named_and_keeps_point_cards():
    setup = MatchSetup.partnerships(6, 2, rules=SIX_HANDED)
    state = random_round(setup, Random(4), dealer=5)
    pack = state.deal.hidden
    state = act(state, "bid:3", "pass", "pass", "pass", "pass", "pass", "trump:H")
    assert state.phase() is Phase.EXCHANGE and state.current_player() == 5
    assert state.hands[5] == state.deal.hands[5] | pack and state.view_for(5).fill == pack
    assert state.view_for(0).fill == 0
    rule = state.discard_rule()
    assert rule.count == 17 and not rule.may & state.trumps.point_cards
    state = state.apply(plain_discard(state))
    assert state.phase() is Phase.PLAY and state.current_player() == 0


def test_a_deal_keeps_the_packs_order_only_where_a_fill_deals_from_it():
    hands = (cards("AS"), cards("KS"))
    hidden = [parse_card("2C"), parse_card("QH")]
    full = Deal.of(0, hands, hidden, rules=CLASSIC)
    assert full.pack == tuple(hidden) and full.hidden == cards("2C", "QH")
    assert Deal.of(0, hands, hidden, rules=HOUSE).pack == ()
