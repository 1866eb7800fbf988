"""A discard read as a player makes it: the cards tapped to keep or to throw, or a whole
discard, against the seat's rule; what the rule does not allow refused in words."""

import dataclasses

import pytest

from game.engine import notation
from game.engine.cards import cards_of
from game.engine.discard_taps import DiscardRefused, discard_chosen
from game.engine.rules import Phase
from tests.learn.family import match_at


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
