"""The tutorial and the rules quizzes through the Django test client, for every game: the
chosen game's lessons first, each lesson's practice of its own game, a quiz per game, and
no look (nor a quiz answer) stores anything."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game.engine import variants
from learn import quiz, services, tutorial
from learn.bank.bank_file import FAMILY_STARTER
from learn.models import Learner, PracticePosition
from tests.learn.fixtures.factories import STARTER_BANK
from tests.learn.test_views import (
    WRITES,
    assert_a_look_writes_nothing,
    press,
    served,
    shown,
    stored,
    text_of,
)

pytestmark = pytest.mark.django_db

GAMES = tuple(variants.PRESETS)


@pytest.fixture
def banks(db) -> list[PracticePosition]:
    """The banks the site ships: the house rules' and the full-deck games'."""
    lines = STARTER_BANK.read_text().splitlines() + FAMILY_STARTER.read_text().splitlines()
    report = services.positions_load(lines=lines)
    assert not report.errors, report.errors
    return list(PracticePosition.objects.order_by("pk"))


def games_listed(html: str) -> list[str]:
    return re.findall(r'<section class="learn-game" id="game-\w+" data-preset="(\w+)"', html)


def lessons_listed(html: str) -> list[str]:
    return re.findall(r'href="/learn/tutorial/([a-z-]+)/"', html)


def tutorial_pages() -> list[str]:
    pages = ["/learn/tutorial/", "/learn/tutorial/?game=seven_point", "/learn/quiz/"]
    pages += [f"/learn/tutorial/{lesson.slug}/" for lesson in tutorial.LESSONS]
    pages += [f"/learn/quiz/{game}/" for game in GAMES]
    return pages


def test_a_guest_sees_every_games_lessons_the_house_rules_first(client, banks):
    page = client.get("/learn/tutorial/").text
    assert games_listed(page) == list(GAMES)
    assert lessons_listed(page) == [lesson.slug for lesson in tutorial.LESSONS]
    for game in GAMES:
        url = "/learn/quiz/" if game == "house" else f"/learn/quiz/{game}/"
        assert f'href="{url}"' in page


def test_the_game_in_the_address_comes_first_and_is_kept_nowhere(client, banks):
    page = assert_a_look_writes_nothing(client, "get", "/learn/tutorial/?game=six_handed").text
    assert games_listed(page)[0] == "six_handed"
    first = [lesson.slug for lesson in tutorial.BY_GAME["six_handed"]]
    assert lessons_listed(page)[: len(first)] == first
    # a game not on offer is ignored
    page = client.get("/learn/tutorial/?game=bridge").text
    assert games_listed(page)[0] == "house"


def test_the_learners_chosen_game_comes_first(client, banks):
    served(client, "game=seven_point")  # the practice's post keeps the game chosen
    assert Learner.objects.get().preset == "seven_point"
    page = assert_a_look_writes_nothing(client, "get", "/learn/tutorial/").text
    assert games_listed(page) == ["seven_point", "house", "classic", "six_handed"]
    # the address still preselects another, and the learner keeps theirs
    page = assert_a_look_writes_nothing(client, "get", "/learn/tutorial/?game=classic").text
    assert games_listed(page)[0] == "classic"
    page = assert_a_look_writes_nothing(client, "get", "/learn/tutorial/?game=").text
    assert games_listed(page)[0] == "house"  # any game: the house rules first
    assert Learner.objects.get().preset == "seven_point"


@pytest.mark.parametrize("game", [g for g in GAMES if g != "house"])
def test_each_full_deck_lesson_practises_its_own_game_unrated(client, banks, game):
    lessons = tutorial.BY_GAME[game]
    for number, lesson in enumerate(lessons, start=1):
        page = client.get(f"/learn/tutorial/{lesson.slug}/").text
        text = text_of(page)
        assert f"{lesson.game} · lesson {number} of {len(lessons)}" in text
        assert "Practice 1 of 3" in text
        response = press(client, page, "Show me a position")
        assert response.redirect_chain == [(f"/learn/tutorial/{lesson.slug}/", 302)]
        attempt = shown(response.text)
        assert attempt.lesson == lesson.slug and attempt.mode == "tutorial"
        assert attempt.position.preset == game and not attempt.rated
    last = text_of(client.get(f"/learn/tutorial/{lessons[-1].slug}/").text)
    assert "Take the rules quiz" in last
    assert f'href="/learn/quiz/{game}/"' in client.get(f"/learn/tutorial/{lessons[-1].slug}/").text


def test_a_full_deck_lesson_shows_its_games_trumps_points_and_discards(client, banks):
    page = client.get("/learn/tutorial/seven-point-jick/").text
    assert page.count('class="trump-order"') == 1 and 'data-card="J2"' in page
    page = client.get("/learn/tutorial/six-handed-points/").text
    assert "<dt>Jick</dt>" in page and "<dt>Joker</dt>" in page
    page = client.get("/learn/tutorial/classic-discard/").text
    assert page.count('class="example discard-example"') == 2


@pytest.mark.parametrize("method", ["get", "head"])
def test_a_look_at_any_lesson_or_quiz_writes_nothing(client, banks, method):
    for url in tutorial_pages():
        response = assert_a_look_writes_nothing(client, method, url)
        assert response.status_code == 200, url
    served(client, "game=classic")
    for url in tutorial_pages():
        response = assert_a_look_writes_nothing(client, method, url)
        assert response.status_code == 200, url


@pytest.mark.parametrize("game", GAMES)
def test_each_games_quiz_grades_its_answers_and_stores_nothing(client, game):
    url = "/learn/quiz/" if game == "house" else f"/learn/quiz/{game}/"
    found = quiz.QUIZZES[game]
    page = client.get(url).text
    assert page.count('class="quiz-question"') == len(found.questions)
    assert f'hx-post="{url}"' in page and found.game in page
    before = stored()
    for question in found.questions:
        wrong = next(key for key, _ in question.choices if key != question.answer)
        with CaptureQueriesContext(connection) as queries:
            right = client.post(url, {"question": question.slug, "choice": question.answer})
            missed = client.post(
                url, {"question": question.slug, "choice": wrong}, HTTP_HX_REQUEST="true"
            )
        assert not [q for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]
        assert 'data-right="true"' in right.text and 'data-right="false"' in missed.text
        assert missed.text.count('class="quiz-question"') == 1
    assert stored() == before


def test_a_quiz_for_an_unknown_game_or_answer_is_refused_and_stores_nothing(client):
    before = stored()
    assert client.get("/learn/quiz/bridge/").status_code == 404
    response = client.post("/learn/quiz/bridge/", {"question": "hand", "choice": "9"})
    assert response.status_code == 404
    # a question of another game's quiz is not this one's
    response = client.post("/learn/quiz/classic/", {"question": "deck", "choice": "9"})
    assert response.status_code == 400
    response = client.post("/learn/quiz/classic/", {"question": "hand", "choice": "13"})
    assert response.status_code == 400 and "not one of the quiz" in response.text
    assert stored() == before
