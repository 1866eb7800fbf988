"""Explanations are made from the numbers: new numbers, new words."""

import re
from dataclasses import replace

import pytest

from learn.explain import explain, is_equivalent, player_at, seat_place
from learn.positions import Position, PositionError
from tests.learn.fixtures.factories import sample_positions


@pytest.fixture(scope="module")
def bank() -> list[Position]:
    return sample_positions()


def card_position(bank) -> Position:
    return next(p for p in bank if p.phase != "auction" and p.best.points is not None)


def auction_position(bank, best_is_pass: bool) -> Position:
    return next(p for p in bank if p.phase == "auction" and (p.best.code == "pass") == best_is_pass)


def rescaled(position: Position, factor: float) -> Position:
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


def test_the_best_option_is_praised_with_the_gap_to_the_next(bank):
    position = card_position(bank)
    text = " ".join(explain(position, position.best.code))
    assert "You found it" in text
    assert f"{position.margin:.2f} match points less" in text
    assert f"{position.best.value:+.2f}" in text
    assert f"{position.best.points[0]:.1f}" in text


def test_a_worse_choice_is_told_what_it_costs(bank):
    position = card_position(bank)
    worst = position.options[-1]
    text = " ".join(explain(position, worst.code))
    gap = position.best.value - worst.value
    assert f"costs about {gap:.2f} match points" in text
    assert "You found it" not in text
    assert f"of {len(position.options)})" in text


def test_the_words_change_with_the_numbers(bank):
    position = card_position(bank)
    changed = rescaled(position, 2.0)
    for code in (position.best.code, position.options[-1].code):
        before, after = explain(position, code), explain(changed, code)
        assert before[0] != after[0] and before[1] != after[1]
    assert f"Over {changed.deals} deals" in explain(changed, changed.best.code)[0]


def test_severity_grows_with_the_cost(bank):
    position = card_position(bank)
    best, second = position.options[0], position.options[1]

    def verdict(gap: float) -> str:
        worse = replace(second, value=best.value - gap, value_se=0.01)
        options = (replace(best, value_se=0.01), worse, *position.options[2:])
        options = tuple(sorted(options, key=lambda o: -o.value))
        return explain(replace(position, options=options), second.code)[1]

    assert "a small error" in verdict(0.4)
    assert "a clear mistake" in verdict(1.5)
    assert "a serious mistake" in verdict(4.0)


def test_a_choice_within_the_sampling_error_is_as_good_as_the_best(bank):
    position = card_position(bank)
    best, second = position.options[0], position.options[1]
    close = replace(second, value=best.value - 0.1, value_se=0.3)
    tied = replace(position, options=(replace(best, value_se=0.3), close, *position.options[2:]))
    text = explain(tied, second.code)[1]
    assert "as good as the best within the sampling error" in text
    assert re.search(r"0\.10 match points apart, with an error of about ±0\.42", text)
    assert is_equivalent(tied, second.code)
    assert not is_equivalent(position, position.options[-1].code)


def test_a_pass_that_is_right_is_explained_by_the_bids_chances(bank):
    position = auction_position(bank, best_is_pass=True)
    first, second = explain(position, "pass")[:2]
    assert first.startswith("Passing is best")
    bid = position.options[1]
    assert f"{bid.made:.0%}" in second
    assert ("a miss costs" in second) == (bid.made < 0.5)
    assert ("less than passing" in second) == (bid.made >= 0.5)


def test_a_bid_that_is_right_gives_its_chance_of_being_made(bank):
    position = auction_position(bank, best_is_pass=False)
    first = explain(position, position.best.code)[0]
    assert first.startswith("Bidding")
    assert f"{position.best.made:.0%}" in first
    if position.option("pass") is not position.best:
        assert "passing gives up" in explain(position, "pass")[1]


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
