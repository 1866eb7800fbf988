"""Trainer models: what a stored position, a learner and an attempt hold."""

import pytest
from django.db import IntegrityError

from learn.models import Attempt, Learner, PracticePosition

pytestmark = pytest.mark.django_db


def test_a_learner_is_a_user_or_a_guest(make_user):
    Learner.objects.create(guest_token="abc")
    Learner.objects.create(user=make_user("sam"))
    with pytest.raises(IntegrityError):
        Learner.objects.create()


def test_a_guest_token_belongs_to_one_learner():
    Learner.objects.create(guest_token="abc")
    with pytest.raises(IntegrityError):
        Learner.objects.create(guest_token="abc")


def test_a_stored_position_reads_back_its_core_and_themes(bank):
    for stored in bank:
        assert stored.core.key == stored.key
        assert list(stored.core.themes) == stored.themes
        assert stored.theme_tags == PracticePosition.tags_for(stored.core.themes)
    assert PracticePosition.tags_for(()) == ""
    assert PracticePosition.tags_for(("low", "joker")) == ",low,joker,"


def test_an_attempt_gets_an_unguessable_token_and_knows_its_rating_change(bank, guest):
    first = Attempt.objects.create(learner=guest, position=bank[0])
    second = Attempt.objects.create(learner=guest, position=bank[0])

    assert first.token != second.token and len(first.token) >= 16
    assert not first.is_answered and first.rating_change is None
    first.rating_before, first.rating_after = 1500.0, 1520.5
    assert first.rating_change == 20.5
