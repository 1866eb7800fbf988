"""Trainer presenters: the seat's display, the reveal and "Show me a deal"."""

import pytest

from game.engine.cards import CARD_CODES, cards_of
from learn import presenters
from tests.learn.conftest import right_code, wrong_code
from tests.learn.test_selectors import answered

pytestmark = pytest.mark.django_db


def visible_cards(view) -> set[str]:
    return {CARD_CODES[c] for c in cards_of(view.hand | view.played)}


def test_the_display_shows_the_seats_hand_and_the_cards_played_and_nothing_else(bank):
    for position in bank:
        core = position.core
        view = core.view()
        display = presenters.position_page(position=position)

        assert {code for code, _ in display.hand} == {CARD_CODES[c] for c in view.hand_cards}
        assert display.cards_shown == visible_cards(view)
        assert display.phase == core.phase
        assert display.legal == core.legal_codes()
        assert len(display.auction) == len(view.auction)
        assert sum(len(t.plays) for t in display.tricks) == len(view.plays)


def test_the_display_marks_the_playable_cards_and_names_the_seats(bank):
    for position in bank:
        display = presenters.position_page(position=position)
        legal = set(position.core.legal_codes())
        if display.phase == "auction":
            assert not any(playable for _, playable in display.hand)
            assert set(display.bids) == legal
        else:
            assert {code for code, playable in display.hand if playable} == legal
        assert sum(unit.is_yours for unit in display.units) == 1
        assert display.units[core_unit(position)].is_yours


def core_unit(position) -> int:
    return position.core.view().unit


def test_the_reveal_prices_every_option_best_first_and_marks_the_choice(bank, guest):
    position = bank[0]
    done = answered(guest, position, wrong_code(position))

    reveal = presenters.reveal_for(attempt=done)

    assert not reveal.correct
    assert [row.code for row in reveal.rows] == [o.code for o in position.core.options]
    assert reveal.rows[0].is_best and reveal.best.code == right_code(position)
    assert reveal.chosen.code == wrong_code(position) and reveal.chosen.is_chosen
    assert reveal.chosen.cost == pytest.approx(position.core.best.value - reveal.chosen.value)
    assert reveal.rows[0].bar == 100 and all(4 <= row.bar <= 100 for row in reveal.rows)
    assert reveal.explanation and all(isinstance(p, str) and p for p in reveal.explanation)
    assert reveal.rated and reveal.rating_after < reveal.rating_before
    assert reveal.change_text.startswith("\u2212")


def test_show_me_a_deal_plays_the_best_line_in_the_sampled_deal(bank, guest):
    for position in bank:
        core = position.core
        deal = presenters.deal_shown(core)
        if not core.line_hands:
            assert deal is None
            continue
        assert [tuple(cards) for _, cards in deal.hands] == [tuple(h) for h in core.line_hands]
        played = [p.code for t in deal.tricks for p in t.plays]
        line_cards = [code for _, code in core.line if code != "pass" and ":" not in code]
        # the tricks show the line's cards, after the current trick's cards already played
        assert played[len(played) - len(line_cards) :] == line_cards
        finished = [t for t in deal.tricks if t.winner is not None]
        assert all(len(t.plays) == core.players for t in finished)


def test_the_reveal_tags_options_that_tie_at_the_shown_rounding_level_not_best(bank, guest):
    from learn.models import PracticePosition

    position = bank[0]
    data = position.data
    data["options"][1]["value"] = data["options"][0]["value"] - 0.001  # shows the same
    PracticePosition.objects.filter(pk=position.pk).update(data=data)
    position = PracticePosition.objects.get(pk=position.pk)
    done = answered(guest, position, wrong_code(position))

    reveal = presenters.reveal_for(attempt=done)

    assert [row.tag for row in reveal.rows[:2]] == ["level", "level"]
    assert all(row.tag == "" for row in reveal.rows[2:])
    untouched = presenters.reveal_for(attempt=answered(guest, bank[1], wrong_code(bank[1])))
    assert untouched.rows[0].tag == "best"


def test_the_reveal_tells_a_player_first_and_keeps_the_figures_behind_details(bank, guest):
    from learn.core import grades

    position = bank[0]
    done = answered(guest, position, wrong_code(position))

    reveal = presenters.reveal_for(attempt=done)

    words = " ".join(reveal.explanation)
    assert "match value" not in words and "standard error" not in words
    assert "match value" in " ".join(reveal.details)
    # every option judged on the one scale, the chosen one as its sentence says it
    core = position.core
    for row in reveal.rows:
        assert row.verdict == grades.verdict(core.best, core.option(row.code), core.deals)
    assert reveal.chosen.grade_label == grades.verdict_of(core, done.answer).label
    assert reveal.rows[0].grade_label == "Best"
    for row in reveal.rows:
        if row.made is not None:
            assert row.made_words == grades.odds(row.made / 100)
            assert row.made_bar == round(row.made)
        if row.ours is not None:
            assert 0 <= row.ours_share <= 100
    # the legend is the scale's table, row by row
    assert [r.grade for r in reveal.legend] == [s.grade for s in grades.SCALE]
    assert [r.label for r in reveal.legend] == [s.label for s in grades.SCALE]
