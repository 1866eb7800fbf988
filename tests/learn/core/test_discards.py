"""A discard as the trainer stores it, and the grade of one the analysis did not price:
priced afresh against the expert's (reading the taps: tests/game/engine/test_discard_taps.py)."""

import pytest

from game.engine.cards import cards_of
from game.engine.rules import Phase, action_code, discard_action
from learn.core import discards
from learn.core.discards import Afresh, afresh, discard_code
from tests.game.engine.test_discard_taps import codes, seat_view
from tests.learn.core.test_positions_family import discards as some_discards
from tests.learn.family import match_at, position_at


def test_a_whole_discard_as_the_record_writes_it_is_read_as_it_is():
    match, view = seat_view("classic")
    code = some_discards(match)[0]
    assert discard_code(view, code) == code
    thrown = cards_of(view.discard_rule.optional)[:3]
    assert discard_code(view, "throw:" + ",".join(codes(sum(1 << c for c in thrown)))) == (
        action_code(discard_action(sum(1 << c for c in thrown)))
    )


# --- Grading one the analysis did not price ----------------------------------------------


def test_a_priced_discard_is_not_priced_again():
    match = match_at("classic", Phase.EXCHANGE)
    position = position_at(match, some_discards(match))
    assert all(afresh(position, option.code) is None for option in position.options)


def test_an_unpriced_discard_is_priced_against_the_experts_on_the_same_seeded_deals(
    monkeypatch,
):
    monkeypatch.setattr(discards, "ANSWER_BUDGET_MS", 60_000.0)  # all 300, however loaded
    match = match_at("classic", Phase.EXCHANGE)
    found = some_discards(match, 6)
    position = position_at(match, found[:2])
    discards._priced_afresh.cache_clear()
    first = afresh(position, found[-1])
    assert first is not None and first.code == found[-1]
    assert first.deals == discards.ANSWER_DEALS and first.rated
    assert first.error > 0
    discards._priced_afresh.cache_clear()
    assert afresh(position, found[-1]) == first  # the same deals again: the same figures


def afresh_of(cost: float, error: float = 0.1, deals: int = 300) -> Afresh:
    return Afresh("discard:2C,3C,4C", best_value=1.0, value=1.0 - cost, error=error, deals=deals)


@pytest.mark.parametrize(
    "cost, error, correct",
    [
        (0.004, 0.0, True),  # level: the same value shown
        (-0.4, 0.1, True),  # better than the expert's on these deals
        (0.08, 0.1, True),  # within one standard error, as the priced options are judged
        (0.04, 0.0, True),  # closer than the trainer's tie margin
        (0.25, 0.1, False),
        (1.5, 0.3, False),
    ],
)
def test_an_unpriced_discard_is_right_when_as_good_as_the_experts_within_the_error(
    cost, error, correct
):
    assert afresh_of(cost, error).correct is correct


def test_an_unpriced_discard_rests_on_enough_deals_to_be_rated():
    assert afresh_of(0.5, deals=60).rated
    assert not afresh_of(0.5, deals=59).rated
    nothing = afresh_of(0.0, error=0.0, deals=0)
    assert not nothing.correct and not nothing.rated
