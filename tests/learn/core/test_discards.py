"""A discard chosen card by card (keep or throw), read against the seat's rule, and the
grade of one the analysis did not price: priced afresh against the expert's."""

import dataclasses

import pytest

from game.engine import notation
from game.engine.cards import cards_of
from game.engine.rules import Phase, action_code, discard_action
from learn.core import discards
from learn.core.discards import Afresh, DiscardRefused, afresh, discard_chosen, discard_code
from tests.learn.core.test_positions_family import discards as some_discards
from tests.learn.family import match_at, position_at


def seat_view(preset: str, seed: int = 0):
    match = match_at(preset, Phase.EXCHANGE, seed)
    return match, match.view_for(match.current_player())


def codes(mask: int) -> list[str]:
    return list(notation.cards(mask))


def test_the_cards_tapped_to_keep_leave_the_rest_thrown_and_a_card_that_must_stay_kept():
    _, view = seat_view("six_handed", seed=1)  # the dealer: 23 cards, the jack of trumps stays
    rule, hand = view.discard_rule, view.hand
    stay = hand & ~rule.may
    assert stay and rule.count == 17
    kept = cards_of(rule.optional)[:5]  # five taps: the sixth card kept is the one that stays
    thrown = discard_chosen(view, "keep:" + ",".join(notation.card(c) for c in kept))
    assert thrown == hand & ~stay & ~sum(1 << c for c in kept)
    assert rule.allows(thrown)


def test_the_cards_tapped_to_throw_are_the_discard_with_those_that_must_go():
    _, view = seat_view("seven_point")  # a seat but the dealer: its plain cards must go
    rule = view.discard_rule
    assert rule.must and rule.count == rule.must.bit_count()
    assert discard_chosen(view, "throw:") == rule.must  # nothing to tap: all of it is forced
    assert discard_chosen(view, "keep:") == rule.must


def test_a_whole_discard_as_the_record_writes_it_is_read_as_it_is():
    match, view = seat_view("classic")
    code = some_discards(match)[0]
    assert discard_code(view, code) == code
    thrown = cards_of(view.discard_rule.optional)[:3]
    assert discard_code(view, "throw:" + ",".join(codes(sum(1 << c for c in thrown)))) == (
        action_code(discard_action(sum(1 << c for c in thrown)))
    )


@pytest.mark.parametrize(
    "choice, why",
    [
        ("throw:{two}", "discard 3 cards, not 2"),
        ("keep:{seven}", r"keep 6 cards, not \d"),  # with the cards that stay, too many
        ("throw:{two},{outside}", "is not in your hand"),
        ("keep:{outside}", "is not in your hand"),
        ("throw:{two},{stay}", "may not be discarded"),  # a card that must be kept, thrown
        ("discard:{two},{stay}", "may not be discarded"),
        ("throw:{two},QQ", "'QQ' is not a card"),
        ("throw:{two},{two0}", "is chosen twice"),
        ("fling:{two}", "is no discard"),
        ("bid:3", "is no discard"),
    ],
)
def test_a_discard_the_rule_does_not_allow_is_refused_saying_why(choice, why):
    _, view = seat_view("classic")  # discard to six: 3 of 9, keeping every trump
    rule, hand = view.discard_rule, view.hand
    optional = codes(rule.optional)
    outside = next(notation.card(c) for c in range(52) if not hand >> c & 1)
    text = choice.format(
        two=",".join(optional[:2]),
        two0=optional[0],
        seven=",".join(codes(hand)[:7]),
        outside=outside,
        stay=codes(hand & ~rule.may)[0],
    )
    with pytest.raises(DiscardRefused, match=why):
        discard_chosen(view, text)


def test_keeping_a_card_that_must_go_is_refused():
    _, view = seat_view("classic", seed=0)
    rule = view.discard_rule
    forced = rule._replace(must=1 << cards_of(rule.optional)[0])  # a rule with a card to go
    view = dataclasses.replace(view, discard_rule=forced)
    with pytest.raises(DiscardRefused, match="must be discarded"):
        discard_chosen(view, "keep:" + codes(forced.must)[0])


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
