"""Trainer services: learners, serving positions, answering them, missed positions."""

from datetime import timedelta

import pytest
from django.utils import timezone

from game.players import glicko
from game.players.identity import SeatOwner
from learn import selectors, services
from learn.models import Attempt, Learner, MissedPosition, PracticePosition
from learn.selectors import Filters
from learn.tutorial import LESSONS
from tests.learn.conftest import right_code, wrong_code

pytestmark = pytest.mark.django_db


def serve(learner, **filters):
    return services.attempt_serve(learner=learner, filters=Filters(**filters), fresh=True)


def ratings(learner: Learner, position: PracticePosition) -> tuple:
    learner.refresh_from_db()
    position.refresh_from_db()
    return (
        learner.rating,
        learner.deviation,
        learner.volatility,
        position.rating,
        position.deviation,
        position.attempts,
    )


# --- Learners ----------------------------------------------------------------------------


def test_a_guest_is_known_by_the_token_of_their_session():
    first = services.learner_get_or_create(owner=SeatOwner(session_key="abc"))
    again = services.learner_get_or_create(owner=SeatOwner(session_key="abc"))
    other = services.learner_get_or_create(owner=SeatOwner(session_key="xyz"))

    assert first == again != other
    assert first.user is None and first.rating == glicko.DEFAULT_RATING


def test_a_guest_who_signs_in_keeps_their_progress(bank, make_user):
    guest = services.learner_get_or_create(owner=SeatOwner(session_key="abc"))
    attempt = serve(guest)
    services.attempt_answer(learner=guest, token=attempt.token, choice=right_code(attempt.position))
    guest.refresh_from_db()
    rating = guest.rating
    sam = make_user("sam")

    mine = services.learner_get_or_create(owner=SeatOwner(user_id=sam.pk, session_key="abc"))

    assert mine.pk == guest.pk and mine.user == sam
    assert mine.rating == rating
    assert mine.attempts.count() == 1
    # signed out again later, with a new guest token, they start afresh as a guest
    assert services.learner_get_or_create(owner=SeatOwner(session_key="new")).pk != mine.pk


def test_a_guest_signing_in_to_an_account_that_practised_before_merges_into_it(bank, make_user):
    sam = make_user("sam")
    account = services.learner_get_or_create(owner=SeatOwner(user_id=sam.pk))
    first = serve(account)
    services.attempt_answer(learner=account, token=first.token, choice=right_code(first.position))
    guest = services.learner_get_or_create(owner=SeatOwner(session_key="abc"))
    second = serve(guest)
    services.attempt_answer(learner=guest, token=second.token, choice=wrong_code(second.position))

    mine = services.learner_get_or_create(owner=SeatOwner(user_id=sam.pk, session_key="abc"))

    assert mine.pk == account.pk
    assert mine.attempts.count() == 2
    assert MissedPosition.objects.filter(learner=mine).count() == 1
    assert not Learner.objects.filter(pk=guest.pk).exists()


# --- Serving -----------------------------------------------------------------------------


def test_a_served_position_matches_the_filters(bank, guest):
    for position in bank:
        theme = position.themes[0] if position.themes else None
        attempt = serve(guest, phase=position.phase, players=position.players, theme=theme)
        assert attempt.position.phase == position.phase
        assert attempt.position.players == position.players
        if position.themes:
            assert position.themes[0] in attempt.position.themes


def test_no_position_is_served_when_none_matches(bank, guest):
    missing = next(n for n in range(3, 9) if not any(p.players == n for p in bank))

    assert serve(guest, players=missing) is None
    assert not Attempt.objects.exists()


def test_a_reload_serves_the_same_unanswered_position_and_next_serves_another(bank, guest):
    first = services.attempt_serve(learner=guest, filters=Filters())
    again = services.attempt_serve(learner=guest, filters=Filters())
    fresh = services.attempt_serve(learner=guest, filters=Filters(), fresh=True)

    assert again == first
    assert fresh != first and fresh.position != first.position


def test_difficulty_is_relative_to_the_learners_rating(bank, guest, monkeypatch):
    monkeypatch.setattr(selectors, "NEAREST", 1)
    for rank, position in enumerate(bank):
        PracticePosition.objects.filter(pk=position.pk).update(rating=1000 + 100 * rank)
    guest.rating = 1000 + 100 * (len(bank) // 2)
    guest.save()

    easier = serve(guest, difficulty="easier").position
    harder = serve(guest, difficulty="harder").position

    assert easier.rating < guest.rating < harder.rating


def test_unseen_positions_come_first_then_the_ones_seen_longest_ago(bank, guest):
    seen = set()
    for _ in bank:
        attempt = serve(guest)
        assert attempt.position.pk not in seen
        seen.add(attempt.position.pk)
    assert serve(guest) is not None  # the bank is exhausted: old positions come back


def test_a_missed_position_comes_back_once_due_until_solved(bank, guest):
    attempt = serve(guest)
    position = attempt.position
    services.attempt_answer(learner=guest, token=attempt.token, choice=wrong_code(position))
    missed = MissedPosition.objects.get(learner=guest, position=position)
    assert missed.due_at > timezone.now()
    assert serve(guest).position != position  # not due yet

    later = timezone.now() + services.MISSED_DELAYS[0] + timedelta(seconds=1)
    back = services.attempt_serve(learner=guest, filters=Filters(), fresh=True, now=later)
    assert back.position == position
    assert not back.rated  # a second look is practice, not rated again

    services.attempt_answer(learner=guest, token=back.token, choice=right_code(position), now=later)
    missed.refresh_from_db()
    assert missed.solved_at is not None
    much_later = later + timedelta(days=30)
    for _ in range(3):
        served = services.attempt_serve(
            learner=guest, filters=Filters(), fresh=True, now=much_later
        )
        assert served.position != position or len(bank) < 4


def test_a_second_miss_waits_longer(bank, guest):
    attempt = serve(guest)
    services.attempt_answer(learner=guest, token=attempt.token, choice=wrong_code(attempt.position))
    later = timezone.now() + timedelta(hours=1)
    again = services.attempt_serve(learner=guest, filters=Filters(), fresh=True, now=later)
    services.attempt_answer(
        learner=guest, token=again.token, choice=wrong_code(again.position), now=later
    )

    missed = MissedPosition.objects.get(learner=guest)
    assert missed.misses == 2
    assert missed.due_at == later + services.MISSED_DELAYS[1]


def test_unrated_mode_serves_unrated_attempts(bank, guest):
    assert serve(guest).rated
    assert not serve(guest, rated=False).rated


def test_a_position_asked_for_by_key_and_an_unknown_key(bank, guest):
    position = bank[3]
    attempt = services.attempt_serve(learner=guest, filters=Filters(), key=position.key)

    assert attempt.position == position
    with pytest.raises(services.UnknownPosition):
        services.attempt_serve(learner=guest, filters=Filters(), key="0123456789abcdef")


def test_tutorial_positions_are_unrated_and_never_become_missed_positions(bank, guest):
    lesson = LESSONS[1]
    attempt = services.lesson_serve(learner=guest, lesson=lesson)
    before = ratings(guest, attempt.position)

    services.attempt_answer(learner=guest, token=attempt.token, choice=wrong_code(attempt.position))

    assert attempt.mode == Attempt.Mode.TUTORIAL and attempt.lesson == lesson.slug
    assert not attempt.rated
    after = ratings(guest, attempt.position)
    assert after[:5] == before[:5]
    assert not MissedPosition.objects.exists()


# --- Answering ---------------------------------------------------------------------------


def test_a_right_answer_raises_the_learner_and_lowers_the_position(bank, guest):
    attempt = serve(guest)
    position = attempt.position
    rating = position.rating

    done = services.attempt_answer(learner=guest, token=attempt.token, choice=right_code(position))

    guest.refresh_from_db()
    position.refresh_from_db()
    assert done.correct and done.answer == right_code(position)
    assert done.rating_before == glicko.DEFAULT_RATING < done.rating_after == guest.rating
    assert guest.deviation < glicko.DEFAULT_DEVIATION
    assert position.rating < rating == done.position_rating_before
    assert position.attempts == 1 and position.solved == 1


def test_a_wrong_answer_lowers_the_learner_and_notes_a_miss(bank, guest):
    attempt = serve(guest)

    done = services.attempt_answer(
        learner=guest, token=attempt.token, choice=wrong_code(attempt.position)
    )

    assert not done.correct
    assert done.rating_after < done.rating_before
    assert MissedPosition.objects.filter(learner=guest, position=attempt.position).exists()


def test_an_unrated_answer_changes_no_rating(bank, guest):
    attempt = serve(guest, rated=False)
    before = ratings(guest, attempt.position)

    done = services.attempt_answer(
        learner=guest, token=attempt.token, choice=right_code(attempt.position)
    )

    after = ratings(guest, attempt.position)
    assert after[:5] == before[:5] and after[5] == before[5] + 1
    assert done.rating_after == done.rating_before


def test_an_answer_may_be_spelt_loosely(bank, guest):
    attempt = serve(guest)
    code = right_code(attempt.position)

    done = services.attempt_answer(learner=guest, token=attempt.token, choice=f" {code.lower()} ")

    assert done.answer == code and done.correct


def test_idle_time_widens_the_learners_deviation_before_the_next_answer(bank, guest):
    first = serve(guest)
    services.attempt_answer(learner=guest, token=first.token, choice=right_code(first.position))
    guest.refresh_from_db()
    settled = guest.deviation
    later = timezone.now() + timedelta(days=200)
    second = services.attempt_serve(learner=guest, filters=Filters(), fresh=True, now=later)
    Attempt.objects.filter(pk=second.pk).update(served_at=later)

    services.attempt_answer(
        learner=guest, token=second.token, choice=right_code(second.position), now=later
    )

    expected_prior = glicko.after_idle(glicko.Rating(guest.rating, settled, guest.volatility), 200)
    expected = glicko.rate(
        expected_prior,
        [glicko.Result(second.position.glicko, 1.0)],
    )
    guest.refresh_from_db()
    assert guest.rating == pytest.approx(expected.rating)


# --- Bad input changes nothing -------------------------------------------------------------


def assert_refused(error, guest, attempt, **answer):
    before = ratings(guest, attempt.position)
    misses = MissedPosition.objects.count()
    with pytest.raises(error):
        services.attempt_answer(learner=guest, token=attempt.token, **answer)
    assert ratings(guest, attempt.position) == before
    assert MissedPosition.objects.count() == misses


@pytest.mark.parametrize("choice", ["", "bid:9", "XX", "54", "pass; drop table", "J3"])
def test_an_answer_that_is_not_a_legal_option_is_refused(bank, guest, choice):
    attempt = serve(guest)
    assert_refused(services.IllegalAnswer, guest, attempt, choice=choice)
    attempt.refresh_from_db()
    assert not attempt.is_answered


def test_a_card_not_in_hand_or_not_playable_is_refused(bank, guest):
    for position in bank:
        core = position.core
        legal = set(core.legal_codes())
        view = core.view()
        from game.engine.cards import CARD_CODES, cards_of

        unseen = [CARD_CODES[c] for c in cards_of(view.unseen)]
        attempt = services.attempt_serve(learner=guest, filters=Filters(), key=position.key)
        bad = next(code for code in [*unseen, "pass", "bid:6"] if code not in legal)
        assert_refused(services.IllegalAnswer, guest, attempt, choice=bad)


def test_a_replayed_answer_is_refused(bank, guest):
    attempt = serve(guest)
    services.attempt_answer(learner=guest, token=attempt.token, choice=wrong_code(attempt.position))

    assert_refused(services.StaleAttempt, guest, attempt, choice=right_code(attempt.position))
    attempt.refresh_from_db()
    assert not attempt.correct


def test_someone_elses_attempt_is_refused(bank, guest, other_guest):
    attempt = serve(guest)
    before = ratings(other_guest, attempt.position)

    with pytest.raises(services.NotYourAttempt):
        services.attempt_answer(
            learner=other_guest, token=attempt.token, choice=right_code(attempt.position)
        )

    assert ratings(other_guest, attempt.position) == before
    attempt.refresh_from_db()
    assert not attempt.is_answered


def test_an_old_attempt_is_stale(bank, guest):
    attempt = serve(guest)
    later = attempt.served_at + services.ATTEMPT_TTL + timedelta(minutes=1)
    with pytest.raises(services.StaleAttempt):
        services.attempt_answer(
            learner=guest, token=attempt.token, choice=right_code(attempt.position), now=later
        )
    assert not MissedPosition.objects.exists()


def test_an_answer_for_another_or_an_unknown_position_is_refused(bank, guest):
    attempt = serve(guest)
    other = next(p for p in bank if p != attempt.position)
    code = right_code(attempt.position)

    assert_refused(services.StaleAttempt, guest, attempt, choice=code, position_key=other.key)
    assert_refused(
        services.UnknownPosition, guest, attempt, choice=code, position_key="ffffffffffffffff"
    )


def test_an_unknown_attempt_is_refused(bank, guest):
    with pytest.raises(services.UnknownPosition):
        services.attempt_answer(learner=guest, token="no-such-token", choice="pass")


def test_a_due_missed_position_that_is_skipped_waits_instead_of_coming_straight_back(bank, guest):
    attempt = serve(guest)
    position = attempt.position
    services.attempt_answer(learner=guest, token=attempt.token, choice=wrong_code(position))
    later = timezone.now() + services.MISSED_DELAYS[0] + timedelta(seconds=1)
    back = services.attempt_serve(learner=guest, filters=Filters(), fresh=True, now=later)
    assert back.position == position
    Attempt.objects.filter(pk=back.pk).update(served_at=later)

    skipped = services.attempt_serve(learner=guest, filters=Filters(), fresh=True, now=later)
    assert skipped.position != position

    much_later = later + selectors.SKIP_WAIT + timedelta(minutes=1)
    again = services.attempt_serve(learner=guest, filters=Filters(), fresh=True, now=much_later)
    assert again.position == position


# --- Ratings cannot be farmed ------------------------------------------------------------


def _by_key(learner, position, **filters):
    return services.attempt_serve(
        learner=learner, filters=Filters(**filters), key=position.key, fresh=True
    )


def test_a_position_answered_unrated_comes_back_by_its_key_as_practice_only(bank, guest):
    first = serve(guest, rated=False)
    services.attempt_answer(learner=guest, token=first.token, choice=wrong_code(first.position))
    before = ratings(guest, first.position)

    again = _by_key(guest, first.position)
    services.attempt_answer(learner=guest, token=again.token, choice=right_code(first.position))

    assert not again.rated
    assert ratings(guest, first.position)[:5] == before[:5]


def test_a_position_shown_but_not_answered_comes_back_as_practice_only(bank, guest):
    shown = serve(guest, rated=False)  # seen, then left: the learner may have worked it out
    Attempt.objects.filter(pk=shown.pk).update(
        served_at=timezone.now() - services.ATTEMPT_TTL - timedelta(minutes=1)
    )

    again = _by_key(guest, shown.position)

    assert again.pk != shown.pk and not again.rated


def test_answering_one_open_attempt_makes_the_other_practice_only(bank, guest):
    rated = serve(guest)
    assert rated.rated
    lesson = services.attempt_serve(
        learner=guest,
        filters=Filters(rated=False),
        key=rated.position.key,
        mode=Attempt.Mode.TUTORIAL,
        lesson="any",
        fresh=True,
    )
    services.attempt_answer(learner=guest, token=lesson.token, choice=wrong_code(rated.position))
    before = ratings(guest, rated.position)

    done = services.attempt_answer(
        learner=guest, token=rated.token, choice=right_code(rated.position)
    )

    assert not done.rated
    assert ratings(guest, rated.position)[:5] == before[:5]


def test_another_learner_still_gets_the_position_rated(bank, guest):
    first = serve(guest, rated=False)
    services.attempt_answer(learner=guest, token=first.token, choice=right_code(first.position))
    other = services.learner_get_or_create(owner=SeatOwner(session_key="someone-else"))
    PracticePosition.objects.exclude(pk=first.position.pk).delete()  # the only one to serve

    served = serve(other)
    assert served.position == first.position and served.rated


def test_a_position_asked_for_by_its_key_is_never_rated(bank, guest):
    """A learner who names the position may have looked its answer up."""
    chosen = _by_key(guest, bank[3])
    done = services.attempt_answer(learner=guest, token=chosen.token, choice=right_code(bank[3]))

    assert not chosen.rated and not done.rated
    assert ratings(guest, bank[3])[:3] == (glicko.DEFAULT_RATING,) + ratings(guest, bank[3])[1:3]


def test_a_published_position_is_practised_but_never_rated(bank, guest):
    PracticePosition.objects.update(published=True)  # its analysis is in the repository

    attempt = serve(guest)
    services.attempt_answer(learner=guest, token=attempt.token, choice=right_code(attempt.position))

    assert not attempt.rated
    assert attempt.unrated_reason == Attempt.Unrated.PUBLISHED
    guest.refresh_from_db()
    assert guest.rating == glicko.DEFAULT_RATING


def test_rated_practice_serves_private_positions_before_published_ones(bank, guest):
    private = bank[5]
    PracticePosition.objects.exclude(pk=private.pk).update(published=True)

    attempt = serve(guest)

    assert attempt.position == private and attempt.rated


def test_a_decision_from_your_own_review_is_never_rated(bank, guest):
    """Its best option was shown in the review: answering it is no test of the learner.
    (Rated, three such positions answered as the review listed took a rating from 1500
    to 2079 in a minute.)"""
    own = bank[2]
    PracticePosition.objects.filter(pk=own.pk).update(owner=guest)
    MissedPosition.objects.create(
        learner=guest, position=own, misses=1, missed_at=timezone.now(), due_at=timezone.now()
    )

    attempt = serve(guest)
    done = services.attempt_answer(learner=guest, token=attempt.token, choice=right_code(own))

    assert attempt.position == own
    assert not done.rated and done.unrated_reason == Attempt.Unrated.OWN_REVIEW
    guest.refresh_from_db()
    assert guest.rating == glicko.DEFAULT_RATING


@pytest.mark.parametrize(
    "how, reason",
    [
        ("unrated", Attempt.Unrated.UNRATED_MODE),
        ("by key", Attempt.Unrated.BY_ADDRESS),
        ("seen", Attempt.Unrated.SEEN),
        ("lesson", Attempt.Unrated.TUTORIAL),
    ],
)
def test_an_unrated_attempt_keeps_its_true_reason(bank, guest, how, reason):
    if how == "unrated":
        attempt = serve(guest, rated=False)
    elif how == "by key":
        attempt = _by_key(guest, bank[1])
    elif how == "seen":
        shown = serve(guest, rated=False)
        Attempt.objects.filter(pk=shown.pk).update(
            served_at=timezone.now() - services.ATTEMPT_TTL - timedelta(minutes=1)
        )
        PracticePosition.objects.exclude(pk=shown.position.pk).delete()
        attempt = serve(guest)
    else:
        attempt = services.lesson_serve(learner=guest, lesson=LESSONS[1])

    assert not attempt.rated and attempt.unrated_reason == reason


def test_a_rated_attempt_has_no_reason_and_one_answered_elsewhere_says_so(bank, guest):
    rated = serve(guest)
    assert rated.rated and rated.unrated_reason == ""
    other = services.attempt_serve(
        learner=guest,
        filters=Filters(rated=False),
        key=rated.position.key,
        mode=Attempt.Mode.TUTORIAL,
        lesson="any",
        fresh=True,
    )
    services.attempt_answer(learner=guest, token=other.token, choice=right_code(rated.position))

    done = services.attempt_answer(
        learner=guest, token=rated.token, choice=right_code(rated.position)
    )

    assert not done.rated and done.unrated_reason == Attempt.Unrated.ANSWERED
