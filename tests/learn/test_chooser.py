"""The card chooser's presenter: a discard tapped card by card, the rule's fixed cards shown
fixed, and the mode that takes fewer taps offered first; and the reveal's line on a
discard the analysis had not priced."""

import pytest

from game.card_chooser import CardChooser, card_chooser
from game.engine import notation
from game.engine.cards import cards_of
from game.engine.rules import DiscardRule, Phase, discarded
from learn import presenters
from learn.core.discards import Afresh
from tests.learn.core.test_positions_family import discards, legal
from tests.learn.family import match_at, position_at


def chooser_at(preset: str, seed: int = 0) -> tuple[CardChooser, object]:
    match = match_at(preset, Phase.EXCHANGE, seed)
    view = match.view_for(match.current_player())
    return card_chooser(view.discard_rule, view.hand), view


def fixed(chooser: CardChooser, kind: str) -> list[str]:
    return [card.code for card in chooser.cards if card.fixed == kind]


def test_the_six_handed_dealer_keeps_six_of_23_by_tapping_the_six():
    chooser, view = chooser_at("six_handed")
    assert (len(chooser.cards), chooser.keep, chooser.throw) == (23, 6, 17)
    assert [card.code for card in chooser.cards] == list(notation.cards(view.hand))
    assert not fixed(chooser, "keep") and not fixed(chooser, "throw")
    assert chooser.mode == "keep" and chooser.taps == 6 and chooser.throw_taps == 17
    assert chooser.hint == "Tap 6 cards to keep."
    assert chooser.rule_words == ("Keep 6 of your 23 cards and discard 17.",)


def test_a_card_the_rule_keeps_is_shown_fixed_and_saves_a_tap():
    chooser, view = chooser_at("six_handed", seed=1)  # the dealer holds the jack of trumps
    rule = view.discard_rule
    assert fixed(chooser, "keep") == list(notation.cards(view.hand & ~rule.may)) == ["JD"]
    assert chooser.mode == "keep" and chooser.taps == 5
    assert chooser.hint == "Tap 5 more cards to keep (1 stays)."
    assert "Must stay: jack of diamonds." in chooser.rule_words


def test_cards_the_rule_throws_and_keeps_leave_nothing_to_tap():
    chooser, view = chooser_at("seven_point")  # a seat but the dealer: every plain card goes
    rule = view.discard_rule
    assert fixed(chooser, "throw") == list(notation.cards(rule.must))
    assert fixed(chooser, "keep") == list(notation.cards(view.hand & ~rule.may))
    assert chooser.taps == 0
    assert chooser.hint == "Nothing to choose: the rule decides every card."
    assert any(line.startswith("Must go: ") for line in chooser.rule_words)


def test_the_mode_first_offered_is_the_one_with_fewer_taps_keeping_on_a_tie():
    _, view = chooser_at("classic")
    hand = view.hand
    free = card_chooser(DiscardRule(3, 0, hand), hand)  # 9 cards, 3 to throw
    assert (free.mode, free.taps, free.keep_taps) == ("throw", 3, 6)
    assert free.hint == "Tap 3 cards to throw."
    four_trumps = cards_of(hand)[:4]  # four cards that must stay: keeping is two taps
    stay = sum(1 << c for c in four_trumps)
    kept = card_chooser(DiscardRule(3, 0, hand & ~stay), hand)
    assert (kept.mode, kept.taps, kept.throw_taps) == ("keep", 2, 3)
    three = sum(1 << c for c in four_trumps[:3])
    tie = card_chooser(DiscardRule(3, 0, hand & ~three), hand)
    assert (tie.keep_taps, tie.throw_taps, tie.mode) == (3, 3, "keep")


def test_a_discard_position_is_asked_with_the_chooser_and_no_other_is():
    match = match_at("classic", Phase.EXCHANGE)
    one = position_at(match, discards(match))
    other = position_at(match, discards(match)[::-1])  # another best discard: the same page
    assert presenters.core_position_page(one).chooser == card_chooser(
        one.view().discard_rule, one.view().hand
    )
    assert presenters.core_position_page(one).chooser == (
        presenters.core_position_page(other).chooser
    )
    trump = match_at("classic", Phase.TRUMP)
    assert presenters.core_position_page(position_at(trump, legal(trump))).chooser is None


@pytest.mark.parametrize(
    "cost, error, words",
    [
        (0.003, 0.1, "level with it"),
        (-0.4, 0.1, "0.40 match points better"),
        (0.08, 0.1, "0.08 match points less, too close to call"),
        (0.7, 0.2, "0.70 match points less: an inaccuracy"),  # the one scale's words
        (1.3, 0.2, "1.30 match points less: a mistake"),
    ],
)
def test_the_reveal_says_how_an_unpriced_discard_compares_with_the_experts(cost, error, words):
    found = Afresh("discard:2C,3C,4C", best_value=1.0, value=1.0 - cost, error=error, deals=300)
    row = presenters.OptionRow(
        "discard:2C,3C,4C", "", False, 0.0, 0.0, None, None, None, 4, False, True, 0.0
    )
    shown = presenters.UnpricedShown(afresh=found, priced=3, kept=(), best_kept=(), row=row)
    assert shown.verdict == words


def test_an_unpriced_discard_is_shown_with_both_keep_sets_and_its_cost(monkeypatch):
    match = match_at("classic", Phase.EXCHANGE)
    found = discards(match, 6)
    core = position_at(match, found[:2])
    monkeypatch.setattr(
        presenters.core_discards,
        "afresh",
        lambda position, code: Afresh(code, 1.0, 0.25, 0.2, 300),
    )
    shown = presenters.unpriced_shown(core, found[-1])
    hand = core.view().hand
    thrown = discarded(notation.parse_action(found[-1]))
    assert shown.kept == notation.cards(hand & ~thrown) and len(shown.best_kept) == 6
    assert shown.priced == 2
    assert shown.row.is_chosen and shown.row.cost == 0.75 and shown.row.value == 0.25
