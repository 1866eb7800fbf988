"""The model of how the seats still to act bid, and the evidence in the bids so far."""

from random import Random

from game.bots.auction import (
    Auction,
    evidence,
    finish,
    likelihood,
    limits,
    model_action,
    standing,
    supported_bid,
)
from game.engine.rules import PASS, bid_action

CUTTHROAT_4 = (0, 1, 2, 3)
PAIRS_4 = (0, 1, 0, 1)


def test_a_hand_supports_the_bid_nearest_its_worth_within_the_legal_range():
    assert [supported_bid(v) for v in (-1.0, 0.4, 0.6, 2.49, 2.5, 9.0)] == [0, 0, 1, 2, 3, 6]


def test_a_seat_with_seats_after_it_bids_what_its_hand_supports():
    assert model_action(4.2, Auction(1, 0), last=False, partner_holds=False) == bid_action(4)


def test_the_last_seat_bids_just_enough_and_passes_what_it_cannot_beat():
    assert model_action(4.2, Auction(2, 0), last=True, partner_holds=False) == bid_action(3)
    assert model_action(4.2, Auction(4, 0), last=True, partner_holds=False) == PASS


def test_the_dealer_opens_with_the_minimum_when_everyone_passed():
    assert model_action(5.5, Auction(0, None), last=True, partner_holds=False) == bid_action(1)


def test_nobody_overbids_a_partner():
    assert model_action(6.0, Auction(2, 0), last=False, partner_holds=True) == PASS


def test_the_auction_goes_to_the_seat_whose_hand_supports_most_unless_a_partner_holds_it():
    start = Auction(2, 0)  # seat 0 has bid 2; seats 1, 2, 3 (the dealer) still to act
    judged = {1: 3.8, 2: 4.9, 3: 1.0}
    assert finish(start, [1, 2, 3], judged, CUTTHROAT_4) == Auction(5, 2)
    assert finish(start, [1, 2, 3], judged, PAIRS_4) == Auction(5, 2)  # over seat 1's 4
    quiet = {1: 1.0, 2: 4.9, 3: 1.0}
    assert finish(start, [1, 2, 3], quiet, CUTTHROAT_4) == Auction(5, 2)
    assert finish(start, [1, 2, 3], quiet, PAIRS_4) == start  # seat 2 is seat 0's partner


def test_the_standing_of_an_auction_is_its_high_bid_and_who_holds_it():
    auction = ((1, bid_action(2)), (2, PASS), (3, bid_action(3)))
    assert standing(auction) == Auction(3, 3)
    assert standing(()) == Auction(0, None)


def test_a_pass_is_unlikely_from_a_strong_hand_and_a_high_bid_from_a_weak_one():
    open_auction = Auction(1, 0)
    assert likelihood(5.0, PASS, open_auction, forced=False) < 0.01
    assert likelihood(0.0, PASS, open_auction, forced=False) > 0.9
    assert likelihood(1.0, bid_action(5), open_auction, forced=False) < 0.01
    assert likelihood(5.0, bid_action(5), open_auction, forced=False) > 0.5


def test_a_forced_opening_and_a_pass_over_six_say_nothing_about_the_hand():
    assert likelihood(0.0, bid_action(1), Auction(0, None), forced=True) == 1.0
    assert likelihood(6.0, PASS, Auction(6, 1), forced=False) == 1.0


def test_the_evidence_weighs_every_earlier_seat_whose_hand_the_deal_gives():
    auction = ((1, bid_action(4)), (2, PASS))
    strong_bidder = evidence(auction, {1: 4.5, 2: 1.0}, dealer=0)
    weak_bidder = evidence(auction, {1: 1.0, 2: 1.0}, dealer=0)
    assert strong_bidder > 10 * weak_bidder
    assert evidence(auction, {}, dealer=0) == 1.0  # our own seat is no evidence


def test_a_seat_given_its_own_style_is_judged_by_it_and_the_others_by_the_common_one():
    values = {1: 2.0, 2: 3.0}
    judged = limits(values, Random(5), {1: (0.5, 0.0)})
    assert judged[1] == 2.5  # the fitted shift, with no spread
    plain = limits(values, Random(5))
    assert judged[2] != 3.0 and plain[1] != 2.0  # the common style strays
