"""Properties of the ledger over random sheets (hypothesis)."""

from itertools import accumulate

from hypothesis import given
from hypothesis import strategies as st

from scoresheet import ledger
from scoresheet.ledger import Hand, Rules, tally


@st.composite
def rules_strategy(draw, missed_bid=None, bidder_only_out=None):
    points = draw(st.integers(min_value=2, max_value=8))
    min_bid = draw(st.integers(min_value=1, max_value=points))
    max_bid = draw(st.integers(min_value=min_bid, max_value=points))
    return Rules(
        target=draw(st.integers(min_value=1, max_value=40)),
        points_per_hand=points,
        min_bid=min_bid,
        max_bid=max_bid,
        missed_bid=missed_bid or draw(st.sampled_from(ledger.MISSED_BID_MODES)),
        bidder_only_out=draw(st.booleans()) if bidder_only_out is None else bidder_only_out,
    )


@st.composite
def hand_strategy(draw, sides, rules):
    # deal the hand's points one at a time: to a side, or to nobody
    takers = draw(
        st.lists(
            st.one_of(st.none(), st.integers(min_value=0, max_value=sides - 1)),
            min_size=rules.points_per_hand,
            max_size=rules.points_per_hand,
        )
    )
    return Hand(
        bidder=draw(st.integers(min_value=0, max_value=sides - 1)),
        bid=draw(st.integers(min_value=rules.min_bid, max_value=rules.max_bid)),
        made=ledger.made_from_takers(takers, sides=sides),
    )


@st.composite
def sheets(draw, **rules_options):
    rules = draw(rules_strategy(**rules_options))
    sides = draw(st.integers(min_value=2, max_value=5))
    hands = draw(st.lists(hand_strategy(sides, rules), max_size=25))
    return hands, sides, rules


def negative_reading(hands, sides):
    """The plain reading of a sheet: add what you made, take off every bid you missed."""
    changes = []
    for hand in hands:
        missed = hand.made[hand.bidder] < hand.bid
        changes.append(
            tuple(
                -hand.bid if side == hand.bidder and missed else hand.made[side]
                for side in range(sides)
            )
        )
    return list(accumulate(changes, lambda a, b: tuple(x + y for x, y in zip(a, b, strict=True))))


@given(sheets(bidder_only_out=False))
def test_standings_equal_the_negative_score_reading_of_the_same_hands(sheet):
    hands, sides, rules = sheet

    rows = tally(hands, sides=sides, rules=rules).rows

    assert [row.standings for row in rows] == negative_reading(hands, sides)


@given(sheets(missed_bid="debt"))
def test_debt_mode_never_enters_a_negative_number(sheet):
    hands, sides, rules = sheet

    for row in tally(hands, sides=sides, rules=rules).rows:
        assert all(entry >= 0 for entry in row.entries)
        assert all(debt >= 0 for debt in row.debts)


@given(sheets())
def test_totals_sum_the_entries_and_standings_are_totals_less_debts(sheet):
    hands, sides, rules = sheet

    running = (0,) * sides
    for row in tally(hands, sides=sides, rules=rules).rows:
        running = tuple(a + b for a, b in zip(running, row.entries, strict=True))
        assert row.totals == running
        assert row.standings == tuple(t - d for t, d in zip(row.totals, row.debts, strict=True))
        if rules.missed_bid == "negative":
            assert row.debts == (0,) * sides


@given(sheets())
def test_debt_and_negative_modes_agree_on_every_standing(sheet):
    hands, sides, rules = sheet
    other = "negative" if rules.missed_bid == "debt" else "debt"

    mine = tally(hands, sides=sides, rules=rules)
    theirs = tally(hands, sides=sides, rules=Rules(**{**rules.__dict__, "missed_bid": other}))

    assert [row.standings for row in mine.rows] == [row.standings for row in theirs.rows]
    assert (mine.bankable, mine.winner) == (theirs.bankable, theirs.winner)


@given(sheets(bidder_only_out=True))
def test_with_bidder_only_out_no_side_reaches_the_target_except_as_the_bidder(sheet):
    hands, sides, rules = sheet

    before = (0,) * sides
    for row in tally(hands, sides=sides, rules=rules).rows:
        for side in range(sides):
            if side != row.hand.bidder and before[side] < rules.target:
                assert row.standings[side] < rules.target
        before = row.standings


@given(sheets(), st.data())
def test_editing_a_hand_equals_tallying_the_edited_list(sheet, data):
    hands, sides, rules = sheet
    if not hands:
        return
    index = data.draw(st.integers(min_value=0, max_value=len(hands) - 1))
    replacement = data.draw(hand_strategy(sides, rules))
    original = tally(hands, sides=sides, rules=rules)

    edited = ledger.edit(original, index, replacement)

    changed = [*hands[:index], replacement, *hands[index + 1 :]]
    assert edited == tally(changed, sides=sides, rules=rules)
    # the hands before the edited one are untouched
    assert edited.rows[:index] == original.rows[:index]


@given(sheets())
def test_bankable_means_a_side_at_the_target_and_a_single_winner(sheet):
    hands, sides, rules = sheet

    for row in tally(hands, sides=sides, rules=rules).rows:
        if row.bankable:
            assert row.winner is not None and row.at_target[row.winner]
            best = max(row.standings)
            assert row.winner == row.hand.bidder or row.standings[row.winner] == best
        else:
            assert row.winner is None
