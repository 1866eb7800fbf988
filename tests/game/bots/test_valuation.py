from game.bots.valuation import (
    WIN_VALUE,
    Situation,
    decode,
    match_value,
    split_standing_value,
    standing_utility,
    standing_value,
    steps_per_point,
    utility_for,
)


def test_a_made_bid_is_worth_its_points_and_a_missed_one_costs_the_bid():
    bidding = Situation(unit=0, bidder_unit=0, bid=3, scores=(0, 0), target=21)
    assert match_value(bidding, 3, 2) == 3 - 2
    assert match_value(bidding, 2, 3) == -3 - 3


def test_the_side_that_did_not_bid_stops_at_target_minus_one():
    defending = Situation(unit=1, bidder_unit=0, bid=2, scores=(5, 19), target=21)
    assert match_value(defending, 4, 2) == 1 - 2  # only one point still counts for us


def test_making_the_bid_to_reach_the_target_wins_the_match():
    bidding = Situation(unit=0, bidder_unit=0, bid=2, scores=(19, 10), target=21)
    assert match_value(bidding, 2, 4) == 2 - 4 + WIN_VALUE
    assert match_value(bidding, 1, 5) == -2 - 5


def test_the_table_encodes_both_sides_points_and_keeps_their_order():
    situation = Situation(unit=0, bidder_unit=1, bid=4, scores=(3, 8), target=21)
    utility = utility_for(situation)  # its constructor checks the table rises and falls
    for ours in range(7):
        for theirs in range(7 - ours):
            value = utility.table[ours][theirs]
            assert decode(value) == (match_value(situation, ours, theirs), ours, theirs)


def test_with_two_units_the_standing_is_our_gain_minus_theirs_as_in_match_value():
    for scores in ((0, 0), (19, 10), (5, 19), (20, 20)):
        for bidder_unit in (0, 1):
            for bid in (1, 3, 6):
                s = Situation(0, bidder_unit, bid, scores, 21, (2, 2))
                for bidder in range(7):
                    for defenders in range(7 - bidder):
                        we_bid = bidder_unit == 0
                        ours, theirs = (bidder, defenders) if we_bid else (defenders, bidder)
                        assert standing_value(s, bidder, defenders) == match_value(s, ours, theirs)


def test_at_a_five_way_table_a_made_bid_gains_on_the_best_rival_not_on_all_four():
    s = Situation(unit=0, bidder_unit=0, bid=2, scores=(0,) * 5, target=21)
    assert match_value(s, 3, 3) == 0  # our three against the four rivals' three in all
    assert standing_value(s, 3, 3) == 3 - 3 / 4  # the best rival takes a quarter of three


def test_a_defender_shares_the_defenders_points_by_seats():
    s = Situation(unit=0, bidder_unit=2, bid=3, scores=(0, 0, 0), target=21)
    # the bidder made 3; we and the other defender share 2: we gain 1, behind by 2
    assert standing_value(s, 3, 2) == 1 - 3


def test_the_standing_table_is_monotone_and_decodes_to_the_standing_and_the_points():
    for unit in (0, 1):
        s = Situation(unit=unit, bidder_unit=0, bid=3, scores=(4, 11, 9), target=21)
        utility = standing_utility(s)  # its constructor checks the table rises and falls
        steps = steps_per_point(s)
        assert steps == 4
        we_bid = unit == 0
        value = utility.table[4][1]
        bidder, defenders = (4, 1) if we_bid else (1, 4)
        match, side, other = decode(value, steps)
        assert (side, other) == (4, 1)
        assert abs(match - standing_value(s, bidder, defenders)) <= 1 / steps


def test_at_a_table_of_three_our_bid_gains_on_the_defender_who_took_more_not_on_the_average():
    level = Situation(unit=0, bidder_unit=0, bid=3, scores=(5, 5, 5), target=11)
    # 4 to us, 2 to the defenders: 2-0, 1-1 or 0-2 as likely as a fair coin per point
    assert standing_value(level, 4, 2) == 3.0  # shared evenly: 4 - 1
    assert split_standing_value(level, 4, 2) == 0.25 * 2 + 0.5 * 3 + 0.25 * 2
    # a defender's worth is unchanged where the bidder is the rival to beat
    defending = Situation(unit=1, bidder_unit=0, bid=3, scores=(5, 5, 5), target=11)
    assert split_standing_value(defending, 4, 2) == standing_value(defending, 4, 2)
    # with two units there is nothing to split
    pair = Situation(unit=0, bidder_unit=0, bid=3, scores=(5, 5), target=11)
    assert split_standing_value(pair, 4, 2) == standing_value(pair, 4, 2)
