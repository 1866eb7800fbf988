"""Trainer selectors: which answers are right, progress, filters."""

from random import Random
from unittest.mock import patch

import pytest
from django.utils import timezone

from learn import selectors, services
from learn.core import explain
from learn.models import Attempt, MissedPosition, PracticePosition
from learn.selectors import Filters
from tests.learn.conftest import right_code, wrong_code

pytestmark = pytest.mark.django_db


def test_the_expert_and_options_within_noise_of_it_are_right(bank):
    core = bank[0].core
    assert selectors.is_right(core, core.best.code)
    assert not selectors.is_right(core, "not-an-option")
    for option in core.options[1:]:
        assert selectors.is_right(core, option.code) == explain.is_equivalent(core, option.code)


def answered(learner, position, code):
    """``position`` served as the trainer serves one (its choice, so rated), then answered."""
    with patch.object(selectors, "position_to_serve", return_value=position):
        attempt = services.attempt_serve(learner=learner, filters=Filters(), fresh=True)
    return services.attempt_answer(learner=learner, token=attempt.token, choice=code)


def test_progress_counts_answers_by_theme_and_lists_the_due_misses(bank, guest):
    themed = [p for p in bank if p.themes][:3]
    answered(guest, themed[0], right_code(themed[0]))
    answered(guest, themed[1], wrong_code(themed[1]))
    answered(guest, themed[2], wrong_code(themed[2]))

    now = timezone.now()
    progress = selectors.progress_for(learner=guest, now=now)
    assert progress.answered == 3 and progress.right == 1
    assert len(progress.history) == 3 and progress.chart_points
    tried = {t.slug: t.tried for t in progress.themes}
    for slug in themed[0].themes:
        assert tried[slug] >= 1
    assert progress.due == () and progress.waiting == 2

    later = selectors.progress_for(learner=guest, now=now + services.MISSED_DELAYS[0] * 2)
    assert {r.position.key for r in later.due} == {themed[1].key, themed[2].key}


def test_no_progress_before_practising():
    assert selectors.progress_for(learner=None, now=timezone.now()) is None


def test_filters_combine_phase_players_and_theme(bank):
    position = next(p for p in bank if p.themes)
    filters = Filters(phase=position.phase, players=position.players, theme=position.themes[0])

    found = set(type(position).objects.filter(filters.q()))

    assert position in found
    assert all(p.phase == position.phase and position.themes[0] in p.themes for p in found)


def test_can_serve_says_without_serving_whether_serving_finds_a_position(bank, guest):
    now = timezone.now()
    missing = next(n for n in range(3, 9) if not any(p.players == n for p in bank))
    for filters in (Filters(), Filters(phase=bank[0].phase), Filters(players=missing)):
        found = selectors.position_to_serve(learner=guest, filters=filters, now=now, rng=Random(1))
        assert selectors.can_serve(learner=guest, filters=filters, now=now) == (found is not None)
        assert selectors.can_serve(learner=None, filters=filters, now=now) == (found is not None)

    # a position of the learner's own (from a review) is served only as a missed one, due
    own = PracticePosition.objects.create(
        key="f" * 16, data=bank[0].data, phase="auction", players=missing, owner=guest
    )
    MissedPosition.objects.create(learner=guest, position=own, due_at=now, missed_at=now)
    at_own = Filters(players=missing)
    assert selectors.can_serve(learner=guest, filters=at_own, now=now)
    assert not selectors.can_serve(learner=guest, filters=at_own, now=now, missed=False)
    assert not selectors.can_serve(learner=None, filters=at_own, now=now)
    assert Attempt.objects.count() == 0
