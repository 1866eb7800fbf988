from game.bots.valuation import WIN_VALUE, Situation, decode, match_value, utility_for


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
