"""Explanations are made from the numbers: new numbers, new words."""

import re
from dataclasses import replace

import pytest

from learn.core import grades
from learn.core.explain import (
    call_outcome,
    explain,
    explained,
    is_equivalent,
    player_at,
    seat_place,
)
from learn.core.positions import AnalysedPosition, AuctionOutcome, PositionError
from tests.learn.fixtures.factories import sample_positions, starter_positions, with_outcomes


@pytest.fixture(scope="module")
def bank() -> list[AnalysedPosition]:
    return sample_positions()


def card_position(bank) -> AnalysedPosition:
    return next(p for p in bank if p.phase != "auction" and p.best.points is not None)


def auction_position(bank, best_is_pass: bool) -> AnalysedPosition:
    return next(p for p in bank if p.phase == "auction" and (p.best.code == "pass") == best_is_pass)


def rescaled(position: AnalysedPosition, factor: float) -> AnalysedPosition:
    """The same decision with every number changed."""
    options = tuple(
        replace(
            o,
            value=round(o.value * factor, 3),
            points=None if o.points is None else (o.points[0] * factor, o.points[1]),
            made=None if o.made is None else o.made * 0.5,
        )
        for o in position.options
    )
    return replace(position, options=options, deals=position.deals + 7)


def test_every_sample_position_explains_every_option_in_a_few_paragraphs(bank):
    for position in bank:
        for option in position.options:
            paragraphs = explain(position, option.code)
            assert 2 <= len(paragraphs) <= 5
            assert all(isinstance(p, str) and p.strip() for p in paragraphs)


def test_the_best_option_is_praised_and_its_figures_wait_in_the_details(bank):
    position = card_position(bank)
    told = explained(position, position.best.code)
    words, details = " ".join(told.paragraphs), " ".join(told.details)
    assert "You found it" in words
    assert f"{position.best.points[0]:.1f} of the round's points" in words
    # the analyst's figures are behind the details control, not in the player's words
    assert "match value" not in words and "match points" not in words
    assert f"The best leads the next by {position.margin:.2f} match points" in details
    assert f"{position.best.value:+.2f}" in details


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def test_a_worse_choice_is_told_what_it_costs(bank):
    position = card_position(bank)
    worst = position.options[-1]
    told = explained(position, worst.code)
    gap = position.best.value - worst.value
    assert f"costs about {gap:.2f} match points" in told.details[0]
    assert "You found it" not in " ".join(told.paragraphs)
    assert f", {_ordinal(len(position.options))} of {len(position.options)}." in told.details[0]


def test_the_words_change_with_the_numbers(bank):
    position = card_position(bank)
    changed = rescaled(position, 2.0)
    for code in (position.best.code, position.options[-1].code):
        before, after = explained(position, code), explained(changed, code)
        assert before.paragraphs[0] != after.paragraphs[0]
        assert before.details != after.details
    assert f"Over {changed.deals} deals" in explained(changed, changed.best.code).details[0]


def test_severity_follows_the_one_scale(bank):
    position = replace(card_position(bank), deals=grades.MIN_DEALS)
    best, second = position.options[0], position.options[1]

    def verdict(gap: float) -> str:
        worse = replace(second, value=best.value - gap, value_se=0.01, margin_se=0.01)
        options = (replace(best, value_se=0.01), worse, *position.options[2:])
        options = tuple(sorted(options, key=lambda o: -o.value))
        return explained(replace(position, options=options), second.code).paragraphs[0]

    assert "is close to the best" in verdict(0.2)  # beyond the noise, below an inaccuracy
    assert "is an inaccuracy:" in verdict(0.4)
    assert "is a mistake:" in verdict(1.5)
    assert "is a blunder:" in verdict(4.0)


def test_a_choice_within_the_sampling_error_is_as_good_as_the_best(bank):
    position = card_position(bank)
    best, second = position.options[0], position.options[1]
    close = replace(second, value=best.value - 0.1, value_se=0.3, margin_se=0.3)
    tied = replace(position, options=(replace(best, value_se=0.3), close, *position.options[2:]))
    told = explained(tied, second.code)
    # plain words, no "±": as good as far as the deals tell, chance alone could make it
    assert "is as good as the best, " in told.paragraphs[0]
    assert "as far as the sampled deals can tell" in told.paragraphs[0]
    assert re.search(r"0\.10 match points apart \(standard error 0\.30\)", told.details[0])
    assert "within 2 standard errors" in told.details[0]
    assert "±" not in " ".join(told.all())
    assert is_equivalent(tied, second.code) and told.verdict.grade is None
    assert not is_equivalent(position, position.options[-1].code)


def test_a_pass_that_is_right_is_explained_by_the_bids_chances(bank):
    position = auction_position(bank, best_is_pass=True)
    first = explained(position, "pass").paragraphs[0]
    bid = position.options[1]
    amount = bid.code[4:]
    said = grades.odds(bid.made) if bid.made >= 0.5 else grades.odds(1 - bid.made)
    assert first.startswith(f"Bidding {amount} ")  # the deciding fact first
    assert said in first
    assert ("A miss costs all" in first) == (bid.made < 0.5)
    assert "You found it: passing is best." in first


def test_a_bid_that_is_right_gives_its_chance_of_being_made(bank):
    position = auction_position(bank, best_is_pass=False)
    first = explained(position, position.best.code).paragraphs[0]
    amount = position.best.code[4:]
    assert first.startswith(f"Bidding {amount} ")
    assert grades.odds(position.best.made) in first
    assert f"You found it: bidding {amount} is best." in first


def searched(position: AnalysedPosition, **changes) -> AnalysedPosition:
    """The position with outcomes on every call; ``changes`` rewrite one call's outcome."""
    position = with_outcomes(position)
    options = tuple(
        replace(o, auction=replace(o.auction, **changes[o.code])) if o.code in changes else o
        for o in position.options
    )
    return replace(position, options=options)


def three_player_auction(bank) -> AnalysedPosition:
    """Seat to act in a three-player auction with a seat still to bid after it."""
    return next(
        p for p in bank if p.phase == "auction" and p.players == 3 and len(p.view().auction) == 1
    )


def lowest_bid(position: AnalysedPosition) -> str:
    return min((c for c in position.legal_codes() if c != "pass"), key=lambda c: int(c[4:]))


def test_a_bid_is_told_how_often_a_later_seat_outbids_it(bank):
    first_to_bid = next(p for p in bank if p.phase == "auction" and not p.view().auction)
    code = lowest_bid(first_to_bid)
    position = searched(first_to_bid, **{code: {"outbid": 0.64, "lead": 0.36}})
    bid = position.option(code)
    sentence = call_outcome(bid, position.view())
    amount = code[4:]
    assert sentence.startswith(f"If you bid {amount}, a player after you outbids you 6 times in 10")
    assert f"bid {grades.odds(bid.auction.made)}" in sentence
    assert any(sentence[1:-1] in paragraph for paragraph in explain(position, code))


def test_a_pass_is_told_what_the_others_then_make(bank):
    position = searched(three_player_auction(bank))
    sentence = call_outcome(position.option("pass"), position.view())
    assert sentence == (
        "If you pass, the player that wins the auction makes their bid 7 times in 10, "
        "taking about 2.9 points."
    )


def test_with_partners_a_pass_may_still_win_the_auction_for_the_side():
    position = next(
        p
        for p in starter_positions()
        if p.phase == "auction" and len(p.view().teams[p.view().unit]) == 2
    )
    pass_ = replace(
        position.option("pass"),
        auction=AuctionOutcome(0.3, 0.0, 2.0, made=0.8, others_made=0.6, others_points=2.0),
    )
    sentence = call_outcome(pass_, position.view())
    assert sentence.startswith(
        "If you pass, your side wins the auction 3 times in 10 (your partner bids); "
        "when another side wins it, that side makes its bid 6 times in 10"
    )


def test_the_last_to_bid_is_never_outbid(bank):
    last = next(p for p in bank if p.phase == "auction" and len(p.view().auction) == p.players - 1)
    position = searched(last)
    sentence = call_outcome(position.option(lowest_bid(last)), position.view())
    assert "you are the last to bid, so nobody can outbid you" in sentence
    assert "outbids you in" not in sentence


def test_a_searched_call_is_explained_by_its_outcome_not_by_a_fixed_margin(bank):
    position = searched(auction_position(bank, best_is_pass=True))
    first = explained(position, "pass").paragraphs[0]
    assert first.startswith("If you pass, ")
    assert "bids only when" not in first
    assert "If you bid " in first and "outbid" in first  # the next best's outcome too
    assert first.endswith("You found it: passing is best.")


def test_an_old_analysis_has_no_outcome_to_tell(bank):
    position = auction_position(bank, best_is_pass=True)
    assert call_outcome(position.best, position.view()) == ""
    assert "If you pass" not in " ".join(explain(position, "pass"))


def test_themes_add_their_own_sentences(bank):
    opening = next(p for p in bank if "choosing-trump" in p.themes)
    assert any("sets trump" in p for p in explain(opening, opening.best.code))


@pytest.mark.parametrize("code", ["bid:9", "XX", "", "ZZ"])
def test_an_illegal_choice_is_rejected(bank, code):
    with pytest.raises(PositionError):
        explain(card_position(bank), code)


def test_a_card_not_in_hand_is_rejected(bank):
    position = card_position(bank)
    held = set(position.legal_codes())
    stranger = next(code for hand in position.line_hands for code in hand if code not in held)
    with pytest.raises(PositionError):
        explain(position, stranger)


def _view_of_seat_0(players: int, teams):
    from random import Random

    from game.engine.state import MatchSetup, MatchState, shuffle_deal

    setup = MatchSetup(players, teams, 21)
    match = MatchState(setup, 0).start_round(shuffle_deal(setup, 0, Random(1)))
    return match.view_for(0)


def test_seats_are_named_by_where_they_sit_from_the_learner():
    four = _view_of_seat_0(4, ((0, 2), (1, 3)))
    six = _view_of_seat_0(6, ((0,), (1,), (2,), (3,), (4,), (5,)))

    assert player_at(four, 1) == "the player on your left"
    assert player_at(four, 3) == "the player on your right"
    assert player_at(four, 2) == "your partner across from you"
    assert seat_place(six, 2) == "two seats to your left"
    assert seat_place(six, 4) == "four seats to your left"


# --- "certain", "level", one rounding, thin analyses (issue 40) ---------------------------


def _four_player_view_holding(*codes: str):
    """Seat 0's view at the first bid of a 4-player round in which it holds ``codes``."""
    from game.engine.cards import card_code, cards_of, functional_deck, mask_of, parse_card
    from game.engine.state import Deal, MatchSetup, MatchState

    mine = [parse_card(c) for c in codes]
    rest = [c for c in cards_of(functional_deck(4)) if c not in mine]
    hands = [mine, rest[0:6], rest[6:12], rest[12:18]]
    deal = Deal(3, tuple(mask_of(h) for h in hands), mask_of(rest[18:]))
    view = MatchState(MatchSetup.partnerships(4, 2), 3).start_round(deal).view_for(0)
    assert card_code(mine[0]) == codes[0]
    return view


def test_the_decks_lowest_trump_is_certainly_the_low():
    from game.engine.cards import SUIT_OF, parse_card
    from learn.core.explain import _low

    # at four players the deck starts at the 9: nothing lower exists to be dealt
    view = _four_player_view_holding("9H", "AS", "KS", "QS", "JC", "10C")
    nine = parse_card("9H")
    sentence = _low(None, view, nine, SUIT_OF[nine])
    assert "the 9 of hearts is certainly the low" in sentence
    assert "very likely" not in sentence and "or very likely is" not in sentence


def test_a_low_with_one_unseen_trump_below_is_only_very_likely():
    from game.engine.cards import SUIT_OF, parse_card
    from learn.core.explain import _low

    view = _four_player_view_holding("10H", "AS", "KS", "QS", "JC", "10C")  # the 9H is out
    ten = parse_card("10H")
    sentence = _low(None, view, ten, SUIT_OF[ten])
    assert "the ten of hearts is very likely the low" in sentence
    assert "certainly" not in sentence


def _with_values(position: AnalysedPosition, *values: float) -> AnalysedPosition:
    options = tuple(
        replace(o, value=v, value_se=0.01, margin_se=None)
        for o, v in zip(position.options, values, strict=False)
    )
    return replace(position, options=options + position.options[len(values) :])


def test_options_that_tie_at_the_shown_rounding_are_level_not_best(bank):
    position = next(p for p in bank if p.phase != "auction" and len(p.options) >= 4)
    # four options all show -4.51: none is "best"
    tied = _with_values(position, -4.506, -4.508, -4.509, -4.514)
    told = explained(tied, tied.options[2].code)
    assert (
        "is level with " in told.paragraphs[0] and "neither comes out ahead" in told.paragraphs[0]
    )
    assert " is best" not in told.paragraphs[0]
    assert "they are level" in told.details[0]
    assert told.verdict.label == "Level" and told.verdict.grade is None
    found = explained(tied, tied.best.code).paragraphs[0]
    assert "You found it: " in found and " is level best with " in found
    assert all("-0.00" not in text for o in tied.options for text in explain(tied, o.code))


def test_a_value_just_apart_at_the_shown_rounding_is_not_level(bank):
    position = next(p for p in bank if p.phase != "auction" and len(p.options) >= 3)
    apart = _with_values(position, 1.0, 0.98, -3.0)
    assert " is best" in explain(apart, apart.best.code)[0]
    assert "level" not in explain(apart, apart.best.code)[1]


def test_match_values_are_rounded_once_in_one_helper():
    from learn.core.grades import level, points

    # 2.635 is stored as 2.63499...: one rounding gives 2.63 everywhere, never 2.64
    assert points(2.635) == f"{2.635:.2f}" == "2.63"
    # a value that rounds to nothing has no sign: never "-0.00" (nor "+0.00")
    assert points(-0.001) == "0.00" and points(-0.001, signed=True) == "0.00"
    assert points(-4.506, signed=True) == "-4.51"
    assert level(-4.506, -4.514) and not level(1.0, 0.98)


def test_a_thin_analysis_grades_nothing_and_says_it_is_thin(bank):
    position = replace(card_position(bank), deals=grades.MIN_DEALS)
    worst = position.options[-1]
    gap = position.best.value - worst.value
    thin = replace(position, deals=grades.MIN_DEALS - 1)
    assert grades.graded(gap, 0.01, thin.deals) is None
    assert grades.graded(gap, 0.01, grades.MIN_DEALS) == grades.grade_of(gap)
    told = explained(thin, worst.code)
    assert f"Only {grades.MIN_DEALS - 1} deals were sampled" in told.details[0]
    assert "but too few deals were sampled to grade it" in told.paragraphs[0]
    assert told.verdict.label == "Not graded" and told.verdict.grade is None
    assert "Only" not in explained(position, worst.code).details[0]


def _eight_player_view_holding(*codes: str):
    from game.engine.cards import cards_of, functional_deck, mask_of, parse_card
    from game.engine.state import Deal, MatchSetup, MatchState

    mine = [parse_card(c) for c in codes]
    rest = [c for c in cards_of(functional_deck(8)) if c not in mine]
    hands = [mine] + [rest[6 * n : 6 * n + 6] for n in range(7)]
    deal = Deal(7, tuple(mask_of(h) for h in hands), mask_of(rest[42:]))
    setup = MatchSetup(8, tuple((s,) for s in range(8)), 21)
    return MatchState(setup, 7).start_round(deal).view_for(0)


def test_a_trump_setting_lead_names_the_high_and_low_it_is_sure_of():
    from game.engine.cards import SUIT_OF, parse_card
    from learn.core.explain import _choosing_trump

    # at eight players the deck runs from the 3 up: the ace and the 3 are sure High and Low
    view = _eight_player_view_holding("AS", "3S", "KH", "QH", "JC", "10C")
    spades = SUIT_OF[parse_card("AS")]
    both = _choosing_trump(None, view, None, spades)
    assert "The ace of spades is certainly High and the 3 of spades certainly Low" in both
    hearts = _choosing_trump(None, view, None, SUIT_OF[parse_card("KH")])
    assert "certainly" not in hearts  # the ace and the 3 of hearts are someone else's


def test_a_lead_sure_only_of_high_says_so_alone():
    from game.engine.cards import SUIT_OF, parse_card
    from learn.core.explain import _choosing_trump

    view = _eight_player_view_holding("AS", "4S", "KH", "QH", "JC", "10C")
    text = _choosing_trump(None, view, None, SUIT_OF[parse_card("AS")])
    assert "The ace of spades is certainly High: no spades rank higher in this deck" in text
    assert "Low" not in text


# --- For a player first: the deciding fact, odds in words, "level" (issue 46) --------------


def test_chances_are_said_in_tenths():
    assert grades.odds(0.8) == "8 times in 10"
    assert grades.odds(0.14) == "1 time in 10"
    assert grades.odds(1.0) == "every time" and grades.odds(0.0) == "0 times in 10"
    assert grades.odds(0.97) == "more than 9 times in 10"
    assert grades.odds(0.03) == "less than 1 time in 10"


def _we_bid_card_position(bank) -> AnalysedPosition:
    return next(
        p
        for p in bank
        if p.phase != "auction"
        and p.best.made is not None
        and p.view().bidder == p.view().seat
        and p.options[-1].made is not None
    )


def test_the_deciding_fact_comes_first_in_points_and_odds(bank):
    position = _we_bid_card_position(bank)
    view, best, worst = position.view(), position.best, position.options[-1]
    position = replace(
        position,
        options=(replace(best, made=0.8), *position.options[1:-1], replace(worst, made=0.3)),
        themes=(),
        deals=grades.MIN_DEALS,
    )
    first = explained(position, worst.code).paragraphs[0]
    # how often the bid is made, in words, before anything else; the verdict after it
    assert first.startswith(f"Your bid of {view.bid} is made 8 times in 10 with the ")
    assert ", 3 times in 10 with the " in first
    assert f"You take about {best.points[0]:.1f} of the round's points" in first
    verdict = first.split(". ")[-1]  # the verdict closes the paragraph, on the choice made
    assert verdict.startswith(("Playing ", "Leading ")) and verdict.endswith(".")
    assert first.index(verdict) > first.index("times in 10")
    for word in ("match value", "match points", "standard error", "deals"):
        assert word not in first


def test_a_bid_that_seldom_makes_is_told_how_often_it_fails(bank):
    position = auction_position(bank, best_is_pass=False)
    bids = [o for o in position.options if o.code != "pass"]
    assert bids
    failing = replace(position.best, made=0.4)
    position = replace(position, options=(failing, *position.options[1:]))
    first = explained(position, position.best.code).paragraphs[0]
    assert f"Bidding {position.best.code[4:]} fails 6 times in 10" in first


def test_a_tie_says_level_and_never_minus_zero(bank):
    position = next(p for p in bank if p.phase != "auction" and len(p.options) >= 3)
    # +0.001 and -0.001 both show 0.00: level, and no sign on a value of nothing
    tied = _with_values(position, 0.001, -0.001, -1.5)
    for option in tied.options:
        text = " ".join(explain(tied, option.code))
        assert "-0.00" not in text and "+0.00" not in text
    told = explained(tied, tied.options[1].code)
    assert " is level with " in told.paragraphs[0]
    assert told.verdict.tie and told.verdict.label == "Level"
    assert "worth 0.00 in match value" in told.details[0]
