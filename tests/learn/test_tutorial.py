"""Each tutorial lesson practises on positions of the kind it teaches, from the real bank."""

import json

import pytest

from game.players.identity import SeatOwner
from learn import services
from learn.core.positions import AnalysedPosition
from learn.models import PracticePosition
from learn.tutorial import LESSONS, LESSONS_BY_SLUG, Lesson
from tests.learn.conftest import sample_lines, wrong_code
from tests.learn.fixtures.factories import STARTER_BANK

pytestmark = pytest.mark.django_db

SERVED_PER_LESSON = 12


def fits(slug: str, core: AnalysedPosition) -> bool:
    """What each lesson is about, said from the position itself (not the database)."""
    view = core.view()
    return {
        # the deck decides which card is the low: a card to play with the low in question
        "deck": core.phase != "auction" and "low" in core.themes,
        "auction": core.phase == "auction",
        "trump": core.phase == "lead" and view.trump is None,
        "following": core.phase == "follow" and len(core.legal_codes()) < len(view.hand_cards),
        "points": bool(set(core.themes) & {"protecting-jack", "tens-for-game", "joker", "low"}),
        "scoring": core.phase == "auction" and "match-score" in core.themes,
    }[slug]


@pytest.fixture
def starter(db) -> list[PracticePosition]:
    report = services.positions_load(lines=STARTER_BANK.read_text().splitlines())
    assert not report.errors
    return list(PracticePosition.objects.all())


def practise(lesson: Lesson, owner: str, times: int) -> list[AnalysedPosition]:
    """Serve and answer the lesson's practice ``times`` times, as a learner who never stops."""
    learner = services.learner_get_or_create(owner=SeatOwner(session_key=owner))
    cores = []
    for _ in range(times):
        attempt = services.lesson_serve(learner=learner, lesson=lesson)
        if attempt is None:
            break
        cores.append(attempt.position.core)
        services.attempt_answer(
            learner=learner, token=attempt.token, choice=wrong_code(attempt.position)
        )
    return cores


def test_loading_notes_where_in_the_round_each_position_is(starter):
    for position in starter:
        core = position.core
        assert position.tricks == len(core.view().trick_winners)
        assert position.barred == core.barred
        if core.phase != "auction":
            held = len(core.view().hand_cards)
            assert position.barred == held - len(core.legal_codes())


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_every_lesson_practises_on_positions_that_fit_it(starter, lesson):
    served = practise(lesson, f"tutorial-{lesson.slug}", SERVED_PER_LESSON)
    assert served, f"the starter bank has nothing for {lesson.slug}"
    misfits = [core.key for core in served if not fits(lesson.slug, core)]
    assert not misfits
    # a new position each time, until every fitting position has been seen
    fitting = sum(fits(lesson.slug, position.core) for position in starter)
    assert len({core.key for core in served}) == min(len(served), fitting)


def test_the_trump_lesson_serves_opening_leads_only(starter):
    served = practise(LESSONS_BY_SLUG["trump"], "opening-leads", SERVED_PER_LESSON)
    assert all(core.view().trump is None and "choosing-trump" in core.themes for core in served)


def test_without_an_opening_lead_the_trump_lesson_practises_nothing(db, client):
    later = [
        line
        for line in sample_lines()
        if not (
            (core := AnalysedPosition.from_json(json.loads(line))).phase == "lead"
            and core.view().trump is None
        )
    ]
    services.positions_load(lines=later)
    assert PracticePosition.objects.filter(phase="lead").exists()  # later leads are there

    assert practise(LESSONS_BY_SLUG["trump"], "no-openings", 3) == []
    page = client.get("/learn/tutorial/trump/").text
    assert "No position in the bank fits this lesson yet" in page


def test_a_lesson_never_falls_back_to_a_position_off_its_themes(bank):
    # the small sample bank has auctions, but none where the match score is the theme
    assert any(p.phase == "auction" for p in bank)
    assert not any("match-score" in p.core.themes for p in bank if p.phase == "auction")
    learner = services.learner_get_or_create(owner=SeatOwner(session_key="no-fallback"))
    assert services.lesson_serve(learner=learner, lesson=LESSONS_BY_SLUG["scoring"]) is None


def test_the_deck_lesson_asks_for_a_card_never_a_bid(starter):
    served = practise(LESSONS_BY_SLUG["deck"], "deck-cards", SERVED_PER_LESSON)
    assert served and all(core.phase != "auction" for core in served)
