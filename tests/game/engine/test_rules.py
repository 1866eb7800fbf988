"""One test per rule of shared/seeds/000 (the online house rules), on exact positions."""

from random import Random

import pytest

from game.engine import rules
from game.engine.cards import SUITS, card_code, cards_of, game_total, parse_card
from game.engine.rules import PASS, bid_action, legal_bids, legal_cards, trick_winner
from tests.game.engine.builders import cards

S, H, D, C = (SUITS.index(s) for s in "SHDC")
NOT_SET = -1
LEADING = -1


def legal(hand: list[str], led: str | None, trump: int) -> list[str]:
    led_card = parse_card(led) if led else LEADING
    return sorted(card_code(c) for c in cards_of(legal_cards(cards(*hand), led_card, trump)))


def winner(trick: list[str], trump: int) -> str:
    played = [parse_card(code) for code in trick]
    return trick[trick_winner(played, trump)]


# --- The seed's four worked examples, verbatim -------------------------------------


def test_seed_example_offsuit_lead_allows_following_suit_trump_and_joker_but_not_a_discard():
    # Trump is hearts, the trick is led with AD, and your hand is 9D, 10H, J1, KS.
    assert legal(["9D", "10H", "J1", "KS"], "AD", H) == sorted(["9D", "10H", "J1"])


def test_seed_example_trump_lead_forbids_offsuit_discard_while_holding_trump():
    # Trump is hearts, the trick is led with AH, and your hand is 9D, 10H, J1, KS.
    assert legal(["9D", "10H", "J1", "KS"], "AH", H) == sorted(["10H", "J1"])


def test_seed_example_joker_is_the_only_trump_capable_answer_to_a_trump_lead():
    # Trump is diamonds, the trick is led with AD, and your hand is JH, QH, AH, 10S, KS, J2.
    assert legal(["JH", "QH", "AH", "10S", "KS", "J2"], "AD", D) == ["J2"]


def test_seed_example_joker_lead_makes_every_card_legal():
    hand = ["9D", "10H", "KS", "QC", "J2"]
    assert legal(hand, "J1", H) == sorted(hand)


# --- Legal plays -------------------------------------------------------------------


def test_joker_may_not_open_the_round_because_trump_is_not_set():
    assert legal(["J1", "AS", "10H"], None, NOT_SET) == sorted(["AS", "10H"])


def test_leader_after_trump_is_set_may_lead_any_card_including_a_joker():
    assert legal(["J1", "AS", "10H"], None, C) == sorted(["J1", "AS", "10H"])


def test_trump_lead_allows_any_card_when_holding_no_trump_or_joker():
    assert legal(["9D", "KS", "QC"], "AH", H) == sorted(["9D", "KS", "QC"])


def test_trump_lead_allows_any_trump_or_joker():
    assert legal(["2H", "AH", "J2", "KS"], "10H", H) == sorted(["2H", "AH", "J2"])


def test_offsuit_lead_requires_following_suit_with_a_non_trump_card():
    assert legal(["9D", "QD", "KS", "QC"], "AD", H) == sorted(["9D", "QD"])


def test_offsuit_lead_always_allows_trump_and_jokers_even_when_able_to_follow():
    assert legal(["9D", "2H", "J1", "KS"], "AD", H) == sorted(["9D", "2H", "J1"])


def test_offsuit_lead_allows_any_discard_when_void_in_the_led_suit():
    assert legal(["KS", "QC", "2H"], "AD", H) == sorted(["KS", "QC", "2H"])


# --- Trick resolution --------------------------------------------------------------


def test_highest_trump_wins_the_trick():
    assert winner(["AD", "2H", "KH", "KD"], H) == "KH"


def test_trump_beats_a_joker():
    assert winner(["AD", "J1", "2H"], H) == "2H"


def test_first_joker_wins_when_no_trump_is_played():
    assert winner(["AD", "J2", "J1"], H) == "J2"
    assert winner(["J1", "AD", "J2"], H) == "J1"


def test_highest_card_of_the_suit_led_wins_without_trump_or_joker():
    assert winner(["9D", "AS", "KD", "10D"], H) == "KD"


def test_an_offsuit_ace_does_not_win():
    assert winner(["2C", "AS", "AD"], H) == "2C"


# --- The auction -------------------------------------------------------------------


def test_bids_run_from_one_to_six_and_pass_before_anyone_has_bid():
    assert legal_bids(0, must_open=False) == tuple(bid_action(n) for n in range(1, 7)) + (PASS,)


def test_bids_must_strictly_increase_the_high_bid():
    assert legal_bids(3, must_open=False) == (bid_action(4), bid_action(5), bid_action(6), PASS)


def test_last_seat_must_open_when_nobody_has_bid():
    assert PASS not in legal_bids(0, must_open=True)
    assert legal_bids(0, must_open=True) == tuple(bid_action(n) for n in range(1, 7))


def test_only_pass_remains_once_six_is_bid():
    assert legal_bids(6, must_open=False) == (PASS,)


@pytest.mark.parametrize("amount", [0, 8, -1])
def test_bids_outside_one_to_seven_do_not_exist(amount):
    with pytest.raises(ValueError):
        bid_action(amount)


def test_a_house_auction_offers_no_bid_of_seven():
    assert bid_action(7) not in legal_bids(0, must_open=False)


@pytest.mark.parametrize(
    "code", ["bid:1", "bid:6", "bid:7", "pass", "AS", "10H", "J2", "trump:S", "discard:9H,3C"]
)
def test_action_codes_round_trip(code):
    assert rules.action_code(rules.parse_action_code(code)) == code


# --- Round scoring -----------------------------------------------------------------

UNIT_OF_4 = (0, 1, 0, 1)


def points(dealt: list[list[str]], captured: list[list[str]], trump: int) -> rules.RoundPoints:
    return rules.round_points(
        trump=trump,
        dealt=tuple(cards(*hand) for hand in dealt),
        captured=tuple(cards(*pile) for pile in captured),
        unit_of=UNIT_OF_4,
    )


# Four hands of a 4-player deal (9 and up), 24 of 26 cards: 9C and QC are hidden.
DEALT = [
    ["AS", "9S", "10H", "KH", "9D", "J1"],
    ["KS", "JS", "AH", "10D", "JD", "AC"],
    ["QS", "10S", "QH", "JH", "QD", "KC"],
    ["9H", "AD", "KD", "10C", "JC", "J2"],
]


def test_high_goes_to_the_unit_that_captures_the_highest_trump_in_play():
    assert points(DEALT, [_rest(["AS"]), ["AS"]], S).high == 1


def test_a_hidden_trump_cannot_be_high_or_low():
    # clubs: AC, KC, JC, 10C in play; QC and 9C are hidden, so AC is high and 10C is low
    result = points(DEALT, [["AC"], _rest(["AC"])], C)
    assert result.high == 0
    assert result.low == 1  # 10C was dealt to seat 3, unit 1


def test_jack_point_goes_to_the_unit_that_captures_the_jack_of_trump():
    result = points(DEALT, [["JS"], _rest(["JS"])], S)
    assert result.jack == 0


def test_nobody_takes_the_jack_point_when_the_jack_of_trump_is_hidden():
    dealt = [hand[:] for hand in DEALT]
    dealt[3][dealt[3].index("JC")] = "QC"  # JC hidden now, QC dealt
    assert points(dealt, [[], sum(dealt, [])], C).jack is None


def test_low_goes_to_the_unit_dealt_the_lowest_trump_even_when_another_captures_it():
    # 9S was dealt to seat 0 (unit 0) but unit 1 captured it
    result = points(DEALT, [_rest(["9S"]), ["9S"]], S)
    assert result.low == 0


def test_the_low_card_counts_toward_game_for_the_unit_that_captured_it():
    # clubs are trump; 10C is low (QC and 9C are hidden) and was dealt to seat 3, unit 1.
    # Unit 0 captures it: 40 game points against 38, so game is unit 0's and low unit 1's.
    captured_by_0 = ["10C", "10H", "10D", "AS", "AH", "QS"]
    result = points(DEALT, [captured_by_0, _rest(captured_by_0)], C)
    assert result.low == 1
    assert result.game == 0


def test_each_captured_joker_is_a_point_for_its_capturer():
    result = points(DEALT, [["J1"], _rest(["J1"])], S)
    assert result.jokers == (0, 1)


def test_a_hidden_joker_scores_nobody():
    dealt = [hand[:] for hand in DEALT]
    dealt[3][dealt[3].index("J2")] = "QC"  # J2 hidden now
    result = points(dealt, [["J1"], [c for c in sum(dealt, []) if c != "J1"]], S)
    assert result.jokers == (0,)


def test_game_goes_to_the_unique_highest_game_total():
    result = points(DEALT, [["10H", "10D"], _rest(["10H", "10D"])], S)
    assert result.game == 1  # 58 against 20


def test_nobody_takes_game_when_the_highest_totals_tie():
    # the deal holds 78 game points: 39 each
    left = ["10H", "10D", "10S", "AS", "AH", "JS", "J1"]
    right = _rest(left)
    assert game_total(cards(*left)) == game_total(cards(*right)) == 39
    assert points(DEALT, [left, right], S).game is None


def test_a_jack_that_is_the_highest_trump_in_play_scores_high_and_jack():
    # 3 players (10 and up): AH, KH, QH and J2 hidden, so JH is the highest heart in play
    dealt = [["JH", "10H", "AS", "KS", "QS", "JS"], ["10S", "AD", "KD", "QD", "JD", "10D"],
             ["AC", "KC", "QC", "JC", "10C", "J1"]]  # fmt: skip
    scored = rules.round_points(
        trump=H,
        dealt=tuple(cards(*hand) for hand in dealt),
        captured=(cards("JH"), cards(*[c for hand in dealt for c in hand if c != "JH"]), 0),
        unit_of=(0, 1, 2),
    )
    assert (scored.high, scored.jack, scored.low) == (0, 0, 0)  # 10H is low, dealt to seat 0
    assert scored.raw(3)[0] == 3
    assert rules.points_available(trump=H, dealt=tuple(cards(*hand) for hand in dealt)) == 5


def test_raw_points_count_one_per_point_taken():
    result = rules.RoundPoints(high=0, low=1, jack=None, jokers=(0, 0), game=1)
    assert result.raw(2) == (3, 2)


def _rest(excluded: list[str]) -> list[str]:
    return [c for c in sum(DEALT, []) if c not in excluded]


# --- Match scoring -----------------------------------------------------------------


def settle(scores, raw, bidder_unit, bid, target=21):
    return rules.settle_round(
        scores=scores, raw=raw, bidder_unit=bidder_unit, bid=bid, target=target
    )


def test_a_made_bid_adds_the_full_round_points():
    result = settle((5, 5), (4, 2), bidder_unit=0, bid=3)
    assert result.made and result.match_after == (9, 7)


def test_a_failed_bid_loses_the_amount_bid_not_the_points_scored():
    result = settle((5, 5), (2, 4), bidder_unit=0, bid=3)
    assert not result.made and result.match_after == (2, 9)


def test_a_failed_bid_can_go_below_zero():
    assert settle((1, 0), (0, 6), bidder_unit=0, bid=5).match_after == (-4, 6)


def test_non_bidding_units_are_capped_at_target_minus_one():
    result = settle((10, 18), (1, 5), bidder_unit=0, bid=1)
    assert result.match_after == (11, 20)
    assert result.winner is None


def test_only_the_bidder_can_win_and_reaching_the_target_wins():
    result = settle((19, 20), (3, 3), bidder_unit=0, bid=2)
    assert result.match_after == (22, 20)
    assert result.winner == 0


def test_a_bidder_short_of_the_target_does_not_win_even_if_another_unit_is_close():
    assert settle((5, 20), (3, 3), bidder_unit=0, bid=3).winner is None


def test_the_default_target_is_21():
    assert rules.DEFAULT_TARGET == 21


# --- Tables with the full deck (shared/spec/variants.md) ---------------------------


def full(trump: int, *, jick: bool = True, jokers: int = 2) -> rules.TrumpSuit:
    return rules.trumps_of(trump, jick, jokers)


def legal_full(hand: list[str], led: str | None, trump: int, follow: str) -> list[str]:
    led_card = parse_card(led) if led else LEADING
    mask = rules.legal_cards_full(cards(*hand), led_card, full(trump), follow)
    return sorted(card_code(c) for c in cards_of(mask))


def winner_full(trick: list[str], trump: int, **table) -> str:
    played = [parse_card(code) for code in trick]
    return trick[rules.trick_winner_full(played, full(trump, **table))]


def test_trumps_rank_ace_king_queen_jack_jick_high_joker_low_joker_then_ten_down():
    trumps = full(S)
    ranked = sorted(cards_of(trumps.cards), key=lambda c: -trumps.strength[c])
    assert [card_code(c) for c in ranked] == [
        "AS", "KS", "QS", "JS", "JC", "J1", "J2", "10S", "9S", "8S", "7S", "6S", "5S", "4S",
        "3S", "2S",
    ]  # fmt: skip


def test_the_jick_is_the_other_jack_of_the_trump_colour():
    assert [card_code(full(suit).jick) for suit in (S, H, D, C)] == ["JC", "JD", "JH", "JS"]


def test_the_jick_beats_a_joker_and_a_joker_beats_the_ten_of_trump():
    assert winner_full(["10H", "J1", "JD", "2H"], H) == "JD"
    assert winner_full(["10H", "J2", "9H", "AC"], H) == "J2"
    assert winner_full(["J2", "J1"], H) == "J1"


def test_the_jick_is_a_trump_not_a_card_of_its_printed_suit():
    # diamonds led, hearts trump: the jack of diamonds is the jick and takes the trick
    assert winner_full(["AD", "JD", "KD"], H) == "JD"
    # without the jick the jack of diamonds is a plain diamond
    assert winner_full(["AD", "JD", "KD"], H, jick=False) == "AD"


def test_an_off_suit_card_never_wins_and_the_highest_of_the_suit_led_does():
    assert winner_full(["9C", "AD", "10C", "KS"], H) == "10C"


def test_trump_any_time_allows_following_or_trumping_but_no_discard_while_holding_the_suit():
    hand = ["9D", "10H", "J1", "KS"]
    assert legal_full(hand, "AD", H, "trump_any_time") == ["10H", "9D", "J1"]


def test_schmier_forbids_trumping_while_holding_the_suit_led():
    assert legal_full(["9D", "10H", "J1", "KS"], "AD", H, "schmier") == ["9D"]
    assert legal_full(["10H", "J1", "KS"], "AD", H, "schmier") == ["10H", "J1", "KS"]


def test_a_joker_lead_is_a_trump_lead():
    assert legal_full(["9D", "10H", "JD", "KS"], "J2", H, "trump_any_time") == ["10H", "JD"]


def test_a_seat_whose_only_card_of_the_suit_led_is_the_jick_is_void_in_it():
    # diamonds led, hearts trump: JD is a trump, so the seat holds no diamond
    assert legal_full(["JD", "KS", "4C"], "AD", H, "schmier") == ["4C", "JD", "KS"]


def test_the_leader_may_lead_any_card_once_trump_is_named():
    assert legal_full(["J1", "KS"], None, H, "schmier") == ["J1", "KS"]


def discard(
    hand: list[str], trump: int, exchange: str, dealer: bool = False
) -> tuple[int, list[str], list[str]]:
    rule = rules.discard_rule(exchange, cards(*hand), full(trump), dealer=dealer)
    names = lambda mask: sorted(card_code(c) for c in cards_of(mask))  # noqa: E731
    return rule.count, names(rule.must), names(rule.may)


def test_discard_to_six_throws_only_plain_cards_while_holding_six_trumps_or_fewer():
    hand = ["AS", "2S", "9H", "3C", "4D", "KD", "QH", "JC", "5S"]
    count, must, may = discard(hand, S, "discard_to_six")
    assert count == 3 and must == []
    assert may == ["3C", "4D", "9H", "KD", "QH"]  # JC is the jick: a trump


def test_discard_to_six_with_more_than_six_trumps_throws_every_plain_card_and_any_trumps():
    hand = ["AS", "KS", "QS", "JS", "10S", "9S", "2S", "3C", "4D"]
    count, must, may = discard(hand, S, "discard_to_six")
    assert count == 3 and must == ["3C", "4D"]
    assert "AS" in may and "2S" in may  # discard_to_six protects no point card


def test_discard_and_fill_throws_every_plain_card_and_never_a_point_card():
    hand = ["AS", "KS", "QS", "JS", "10S", "9S", "2S", "JC", "4D"]
    count, must, may = discard(hand, S, "discard_and_fill")
    assert count == 3 and must == ["4D"]  # eight trumps: two of them go too
    assert may == ["10S", "4D", "9S", "KS", "QS"]


def test_the_dealer_who_takes_the_pack_keeps_every_point_card():
    hand = ["AS", "2S", "JS", "JC", "J1", "3C", "4D", "KD", "QH", "5S", "10H"]
    count, must, may = discard(hand, S, "dealer_takes_pack", dealer=True)
    assert count == 5 and must == []
    assert may == ["10H", "3C", "4D", "5S", "KD", "QH"]


def test_a_discard_rule_says_in_words_why_a_discard_is_refused():
    hand = cards("AS", "KS", "QS", "JS", "10S", "9S", "2S", "3C", "4D")
    rule = rules.discard_rule("discard_to_six", hand, full(S), dealer=False)
    assert rule.why_not(cards("AS", "KS", "QS"), hand) == "4D must be discarded"
    assert rule.why_not(cards("3C"), hand) == "discard 3 cards, not 1"
    assert rule.why_not(cards("3C", "4D", "AH"), hand) == "AH is not in your hand"


@pytest.mark.parametrize(
    ("exchange", "dealer"),
    [("discard_to_six", False), ("discard_and_fill", False), ("discard_and_fill", True)],
)
def test_every_allowed_discard_fits_a_case_the_others_are_told(exchange, dealer):

    trumps, rng = full(S, jokers=2), Random(7)
    deck = cards_of((1 << 54) - 1)
    for _ in range(200):
        hand = sum(1 << c for c in rng.sample(deck, 9))
        rule = rules.discard_rule(exchange, hand, trumps, dealer=dealer)
        extra = rng.sample(cards_of(rule.optional), rule.count - rule.must.bit_count())
        thrown = rule.pick(extra)
        kept = hand & ~thrown
        filled = not dealer and kept.bit_count() < 6
        cases = rules.discard_cases(exchange, trumps, dealer=dealer, filled=filled)
        assert any(
            not thrown & case.discard_barred and not kept & case.kept_barred for case in cases
        )


def test_a_seat_that_held_more_than_six_trumps_may_have_thrown_trumps_but_kept_only_trumps():
    hand = cards("AS", "KS", "QS", "JS", "10S", "9S", "2S", "3C", "4D")
    thrown = cards("3C", "4D", "KS")
    usual, more = rules.discard_cases("discard_to_six", full(S), dealer=False)
    assert thrown & usual.discard_barred  # the usual case does not fit it
    assert not thrown & more.discard_barred and not hand & ~thrown & more.kept_barred


def test_a_discard_for_a_fill_says_how_many_trumps_were_dealt():
    def dealt(discarded: int) -> tuple[int, ...]:
        return rules.trumps_dealt(
            "discard_and_fill", full(S), dealt=9, discarded=discarded, dealer=False
        )

    assert dealt(5) == (4,)  # it threw five plain cards and kept four trumps
    assert dealt(3) == (6, 7, 8, 9)  # six trumps kept: it may have thrown some
    assert len(rules.trumps_dealt("discard_to_six", full(S), dealt=9, discarded=3,
                                  dealer=False)) == 10  # fmt: skip


def test_a_seat_that_does_not_follow_shows_a_void_unless_it_trumped_where_it_may():
    trumps = full(H)
    led, off, trump = parse_card("AD"), parse_card("4C"), parse_card("5H")
    assert rules.shown_void_full(off, led, trumps, "trump_any_time") == trumps.following[led]
    assert rules.shown_void_full(trump, led, trumps, "trump_any_time") == 0
    assert rules.shown_void_full(trump, led, trumps, "schmier") == trumps.following[led]
    assert rules.shown_void_full(parse_card("9D"), led, trumps, "schmier") == 0


def test_a_plain_card_on_a_house_trump_lead_shows_no_trump_and_no_joker():
    shown = rules.shown_void(parse_card("4C"), parse_card("AH"), H)
    assert shown == rules.SUIT_MASK[H] | rules.JOKERS
    assert rules.shown_void(parse_card("4C"), parse_card("AD"), H) == rules.SUIT_MASK[D]
    assert rules.shown_void(parse_card("J1"), parse_card("AD"), H) == 0


def points_full(plays: list[tuple[int, str]], captured: list[list[str]], **table) -> dict:
    names = table.pop("names", ("high", "low", "jack", "jick", "jokers", "game"))
    found = rules.round_points_full(
        names=names,
        trumps=full(S, jokers=1),
        ace_two=table.pop("ace_two", True),
        plays=tuple((seat, parse_card(code)) for seat, code in plays),
        captured=tuple(cards(*unit) for unit in captured),
        unit_of=(0, 1, 0, 1),
    )
    return found.by_name()


def test_ace_and_two_score_for_whoever_plays_them_and_an_unplayed_two_for_nobody():
    plays = [(0, "AS"), (1, "JS"), (2, "JC"), (3, "J1")]
    # seat 1's side captures the ace; seat 0 played it, so high is seat 0's side
    found = points_full(plays, [[], ["AS", "JS", "JC", "J1"]])
    assert found == {"high": 0, "low": None, "jack": 1, "jick": 1, "jokers": [1], "game": 1}


def test_bidder_first_lets_any_unit_reach_the_target_and_the_bidder_wins_a_race():
    def winner(scores, raw, bidder=0):
        return rules.settle_round(
            scores=scores, raw=raw, bidder_unit=bidder, bid=2, target=21, capped=False
        ).winner

    assert winner((10, 19), (2, 3)) == 1  # a non-bidder may go out
    assert winner((19, 19), (2, 3)) == 0  # both out: the bidder wins
    assert winner((10, 19, 19), (0, 2, 2)) is None  # a tie at the top plays on
    assert winner((10, 19, 18), (0, 2, 4)) == 2  # otherwise the highest score
