"""Trainer pages through the Django test client: practice, reveal, bad input, progress,
tutorial, and hidden information staying hidden."""

import dataclasses
import re

import pytest
from django import forms
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection
from django.db.models import Model
from django.template import loader
from django.test import Client
from django.test.utils import CaptureQueriesContext

from game.engine import record
from game.engine.cards import CARD_CODES, cards_of
from game.engine.state import Deal, MatchState, RoundState
from game.engine.view import SeatView
from game.players.identity import GUEST_TOKEN
from learn import services, views
from learn.core import grades
from learn.core import positions as core_positions
from learn.models import Attempt, Learner, MissedPosition, PracticePosition
from learn.presenters import DealShown
from learn.round_review.worker import beat
from tests.learn.conftest import right_code, wrong_code

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
FORM = "application/x-www-form-urlencoded"


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def serve(client, query: str = ""):
    """Ask for a position as the practice page's button does: a post of the filters (given
    as a query string), followed to the page that shows the position served."""
    return client.post("/learn/serve/", query, content_type=FORM, follow=True)


def served(client, query: str = "") -> Attempt:
    response = serve(client, query)
    assert response.status_code == 200
    return shown(response.text)


def shown(html: str) -> Attempt:
    """The attempt whose question a page shows."""
    token = re.search(r'action="/learn/attempts/([^/"]+)/answer/"', html).group(1)
    return Attempt.objects.select_related("position", "learner").get(token=token)


def button(html: str, label: str) -> tuple[str, dict[str, str]]:
    """Where the form of the button ``label`` posts, and its hidden fields (but the CSRF
    token, which the test client does not ask for)."""
    for action, inside in re.findall(r'<form[^>]*action="([^"]+)"[^>]*>(.*?)</form>', html, re.S):
        if re.search(rf">\s*{re.escape(label)}\s*</button>", inside):
            hidden = r'<input type="hidden" name="([^"]+)" value="([^"]*)"'
            fields = dict(re.findall(hidden, inside))
            fields.pop("csrfmiddlewaretoken", None)
            return action, fields
    raise AssertionError(f"no button {label!r} on the page")


def press(client, html: str, label: str):
    """Press a page's button (a form that posts), following the redirect."""
    action, fields = button(html, label)
    return client.post(action, fields, follow=True)


def answer(client, attempt, choice, **extra):
    data = {"choice": choice, "position": attempt.position.key, **extra}
    return client.post(f"/learn/attempts/{attempt.token}/answer/", data, **extra.pop("headers", {}))


def snapshot(attempt: Attempt) -> tuple:
    learner = Learner.objects.get(pk=attempt.learner_id)
    position = PracticePosition.objects.get(pk=attempt.position_id)
    return (
        learner.rating,
        learner.deviation,
        position.rating,
        position.attempts,
        MissedPosition.objects.count(),
        Attempt.objects.filter(answered_at__isnull=False).count(),
    )


# --- Practising ------------------------------------------------------------------------


def test_the_nav_links_to_the_trainer(client, bank):
    body = client.get("/").text
    nav = body.split('aria-label="Main"', 1)[1].split("</nav>", 1)[0]
    assert re.search(r'<a href="/learn/"[^>]*>Learn</a>', nav)


def test_a_guest_gets_a_position_with_its_legal_options_as_buttons(client, bank):
    attempt = served(client)
    page = client.get("/learn/").text

    legal = set(attempt.position.core.legal_codes())
    buttons = set(re.findall(r'name="choice" value="([^"]+)"', page))
    assert buttons == legal
    assert "Auction" in page and "Match score" in page
    assert client.session[GUEST_TOKEN] == attempt.learner.guest_token


def test_filters_choose_the_position_and_a_filter_with_no_match_says_so(client, bank):
    position = bank[0]
    attempt = served(client, f"phase={position.phase}&players={position.players}")
    assert attempt.position.phase == position.phase
    assert attempt.position.players == position.players

    missing = next(n for n in range(3, 9) if not any(p.players == n for p in bank))
    response = client.get(f"/learn/?players={missing}")
    assert response.status_code == 200
    assert "No position matches these filters" in response.text
    assert "Show me a position" not in response.text
    response = serve(client, f"players={missing}")
    assert response.status_code == 200
    assert "No position matches these filters" in response.text
    assert Attempt.objects.count() == 1


def test_an_empty_bank_says_how_to_fill_it(client, db):
    response = client.get("/learn/")
    assert response.status_code == 200
    assert "The position bank is empty" in response.text


def test_a_filter_value_not_on_offer_in_the_address_is_ignored(client, bank):
    response = client.get("/learn/?phase=bogus&theme=nope&players=99&difficulty=x")
    assert response.status_code == 200
    assert button(response.text, "Show me a position") == ("/learn/serve/", {})
    assert 'name="choice"' in press(client, response.text, "Show me a position").text


def assert_only_visible_cards(html: str, position: PracticePosition) -> None:
    view = position.core.view()
    visible = {CARD_CODES[c] for c in cards_of(view.hand | view.played)}
    drawn = set(re.findall(r'data-card="([^"]+)"', html))
    assert drawn <= visible, f"{position.key} shows {drawn - visible}"


def test_the_practice_page_draws_no_card_the_seat_cannot_see(client, bank):
    for _ in bank:
        page = serve(client, "next=1")
        assert_only_visible_cards(page.text, shown(page.text).position)


def test_a_position_page_draws_no_card_the_seat_cannot_see(client, bank):
    for position in bank:
        assert 'data-card="' not in client.get(f"/learn/positions/{position.key}/").text
        response = client.post(f"/learn/positions/{position.key}/serve/", follow=True)
        assert response.status_code == 200
        assert_only_visible_cards(response.text, position)
        drawn = set(re.findall(r'data-card="([^"]+)"', response.text))
        assert {CARD_CODES[c] for c in position.core.view().hand_cards} <= drawn
        # nothing of the stored record or the analysis reaches the page before answering
        for leak in ("line_hands", "smear-record", '"hands"', "expert chooses", "Show me a deal"):
            assert leak not in response.text


# what the context processors add (the request, the user, messages) is not the trainer's
NOT_THE_VIEWS = {"True", "False", "None", "request", "user", "perms", "messages"}
NOT_THE_VIEWS |= {"DEFAULT_MESSAGE_LEVELS", "csrf_token"}
# the truth of a deal: what no page of the trainer is ever handed
TRUTH = (Model, core_positions.AnalysedPosition, MatchState, RoundState, Deal)


def contexts_of(response) -> list[dict]:
    """What the view handed the templates the test client saw rendered, or (for a response
    drawn from partials, which it does not see) what ``render_to_string`` was handed."""
    if getattr(response, "handed", None):
        return response.handed
    contexts = response.context
    contexts = [contexts] if hasattr(contexts, "dicts") else list(contexts or ())
    assert contexts, "no template was rendered"
    return [layer for context in contexts for layer in context.dicts]


def received(response) -> list[tuple[str, object]]:
    """Everything the view, and the partials it drew, handed learn's templates: each value
    reachable through dataclass fields, dicts and sequences, with its path."""
    found: list[tuple[str, object]] = []
    seen: set[int] = set()

    def walk(path: str, value: object) -> None:
        if id(value) in seen:
            return
        seen.add(id(value))
        found.append((path, value))
        if isinstance(value, (str, SeatView, Model, forms.BaseForm)):
            return  # a leaf: a SeatView is checked whole, a model row is itself the leak
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            for field in dataclasses.fields(value):
                walk(f"{path}.{field.name}", getattr(value, field.name))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(f"{path}[{key!r}]", item)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for index, item in enumerate(value):
                walk(f"{path}[{index}]", item)

    for layer in contexts_of(response):
        for name, value in layer.items():
            if name not in NOT_THE_VIEWS:
                walk(name, value)
    return found


def assert_handed_the_learners_view_alone(response, position: PracticePosition) -> None:
    """No template is handed a model row, a stored record or any true state; the only
    SeatView is the learner's own; every card code named is the learner's or played,
    but for the reveal's sampled deal (dealt from the seat's view: tests/learn/test_honesty)."""
    truth = record.read(position.core.record).round
    seat = position.core.seat
    view = truth.view_for(seat)
    visible = {CARD_CODES[c] for c in cards_of(view.hand | view.played)}
    others = {CARD_CODES[c] for s, h in enumerate(truth.hands) if s != seat for c in cards_of(h)}
    others |= {CARD_CODES[c] for c in cards_of(truth.deal.hidden)}
    handed = received(response)
    sampled = [path for path, value in handed if isinstance(value, DealShown)]
    views_handed = 0
    for path, value in handed:
        assert not isinstance(value, TRUTH), f"{path} is a {type(value).__name__}"
        if isinstance(value, SeatView):
            assert value == view, f"{path} is not the learner's view"
            views_handed += 1
        if isinstance(value, str) and value in CARD_CODES and not path.startswith("lesson"):
            if any(path.startswith(deal) for deal in sampled):
                continue
            assert value not in others, f"{path} names {value}, another seat's or hidden"
            assert value in visible, f"{path} names {value}, which the seat has not seen"
    assert views_handed, "the scan never reached the position's page"
    html = re.sub(r'<details class="learn-deal">.*?</details>', "", response.text, flags=re.S)
    assert not set(re.findall(r'data-card="([^"]+)"', html)) & others


def test_the_trainers_templates_are_handed_the_learners_view_and_nothing_more(
    client, bank, monkeypatch
):
    handed: list[dict] = []

    def render_to_string(template_name, context=None, request=None):
        handed.append(dict(context or {}))
        return loader.render_to_string(template_name, context, request)

    monkeypatch.setattr(views, "render_to_string", render_to_string)
    for position in bank:
        question = client.post(f"/learn/positions/{position.key}/serve/", follow=True)
        assert_handed_the_learners_view_alone(question, position)
        attempt = Attempt.objects.filter(position=position).latest("served_at")

        handed.clear()
        swapped = answer(client, attempt, wrong_code(position), headers=HTMX)
        assert "Not the best" in swapped.text and len(handed) == 2  # the reveal, the rating
        swapped.handed = handed
        assert_handed_the_learners_view_alone(swapped, position)

        reveal = client.get(f"/learn/attempts/{attempt.token}/")
        assert "Show me a deal" in reveal.text
        assert_handed_the_learners_view_alone(reveal, position)

    practice = serve(client, "next=1")
    assert_handed_the_learners_view_alone(practice, shown(practice.text).position)
    lesson = client.post("/learn/tutorial/deck/serve/", follow=True)
    assert_handed_the_learners_view_alone(lesson, shown(lesson.text).position)
    assert not any(isinstance(v, TRUTH) for _, v in received(client.get("/learn/progress/")))


def test_a_right_answer_without_htmx_redirects_to_the_reveal(client, bank):
    attempt = served(client)
    code = right_code(attempt.position)

    response = answer(client, attempt, code)

    assert response.status_code == 302
    assert response["Location"] == f"/learn/attempts/{attempt.token}/"
    page = client.get(response["Location"]).text
    text = text_of(page)
    assert "Right!" in text
    attempt.refresh_from_db()
    assert f"{attempt.rating_before:.0f} → {attempt.rating_after:.0f}" in text
    assert "Every option" in text and "Show me a deal" in text and "Next position" in text


def test_show_me_a_deal_on_an_auction_plays_the_round_after_the_auction(client, bank):
    position = next(p for p in bank if p.phase == "auction")
    client.post(f"/learn/positions/{position.key}/serve/")
    attempt = Attempt.objects.get(position=position)

    page = client.get(answer(client, attempt, right_code(position))["Location"]).text

    deal = text_of(page.split("Show me a deal", 1)[1].split("</details>", 1)[0])
    assert "The auction goes on: You " in deal
    assert "Trick 1" in deal and "Trick 6" in deal and "won by" in deal


def test_a_wrong_answer_with_htmx_swaps_in_the_reveal(client, bank):
    attempt = served(client)
    code = wrong_code(attempt.position)

    response = client.post(
        f"/learn/attempts/{attempt.token}/answer/",
        {"choice": code, "position": attempt.position.key},
        **HTMX,
    )

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="puzzle"')
    assert "<html" not in response.text
    text = text_of(response.text)
    assert "Not the best" in text and "the expert chooses" in text
    assert "Details: match value" in text and "The choice costs about" in text
    attempt.refresh_from_db()
    assert not attempt.correct and attempt.rating_after < attempt.rating_before
    # the rating line above the position is updated out of band
    assert re.search(
        rf'id="learn-me" hx-swap-oob="true">Your rating: <strong>{attempt.rating_after:.0f}<',
        response.text,
    )
    # every option is priced in the table
    rows = re.findall(r'data-option="([^"]+)"', response.text)
    assert rows == [option.code for option in attempt.position.core.options]


def test_the_reveal_shows_every_options_numbers(client, bank):
    attempt = served(client)
    answer(client, attempt, right_code(attempt.position))
    page = client.get(f"/learn/attempts/{attempt.token}/").text

    for option in attempt.position.core.options:
        assert f"{option.value:+.2f}".replace("-", "\u2212") in page
        if option.made is not None:
            assert f'value="{100 * option.made:.0f}"' in page  # the bid-made bar
            assert grades.odds(option.made) in page


def test_next_position_serves_a_new_one_with_the_same_filters(client, bank):
    position = bank[0]
    first = served(client, f"phase={position.phase}")
    answer(client, first, right_code(first.position), q=f"phase={position.phase}")
    reveal = client.get(f"/learn/attempts/{first.token}/?q=phase={position.phase}").text
    action, fields = button(reveal, "Next position")
    assert action == "/learn/serve/"
    assert fields == {"phase": position.phase, "next": "1"}

    second = shown(press(client, reveal, "Next position").text)
    assert second.pk != first.pk and second.position.phase == position.phase


def test_unrated_mode_shows_no_rating_change(client, bank):
    attempt = served(client, "mode=unrated")
    before = snapshot(attempt)

    answer(client, attempt, right_code(attempt.position))

    after = snapshot(attempt)
    assert after[:3] == before[:3]
    page = text_of(client.get(f"/learn/attempts/{attempt.token}/").text)
    assert "Not rated: you chose unrated practice." in page


def test_a_starter_position_served_in_rated_mode_says_why_it_is_not_rated(client, bank):
    PracticePosition.objects.update(published=True)

    page = text_of(serve(client).text)

    assert "Not rated: it is a starter position" in page
    assert "rated positions of this kind are still being prepared" in page


@pytest.mark.parametrize("worker_heard", [True, False])
def test_rated_practice_with_no_private_position_says_so_in_plain_words(client, bank, worker_heard):
    PracticePosition.objects.update(published=True)
    if worker_heard:
        beat(name="worker-1")

    page = text_of(client.get("/learn/").text)

    if worker_heard:
        assert "Rated positions of this kind are being analysed in the background" in page
    else:
        assert "background worker, which is not running right now" in page
    assert "being analysed" not in text_of(client.get("/learn/?mode=unrated").text)


def test_rated_practice_with_a_private_position_says_nothing_of_waiting(client, bank):
    page = text_of(client.get("/learn/").text)
    assert "being analysed" not in page and "not running" not in page


# --- Bad input: a clear message, and no rating changes ----------------------------------


@pytest.mark.parametrize("choice", ["", "bid:7", "QQ", "J3", "<script>"])
def test_an_answer_that_is_not_a_legal_option_is_refused(client, bank, choice):
    attempt = served(client)
    before = snapshot(attempt)

    response = answer(client, attempt, choice)

    assert response.status_code == 400
    assert "is not one of the legal options" in response.text
    assert "<script>" not in response.text
    assert snapshot(attempt) == before
    assert 'name="choice"' in response.text  # the position is offered again


def test_an_illegal_answer_with_htmx_shows_the_message_in_place(client, bank):
    attempt = served(client)
    before = snapshot(attempt)
    response = client.post(
        f"/learn/attempts/{attempt.token}/answer/",
        {"choice": "bid:9", "position": attempt.position.key},
        **HTMX,
    )
    assert response.status_code == 200  # htmx swaps only 2xx answers
    assert 'role="alert"' in response.text and "not one of the legal options" in response.text
    assert snapshot(attempt) == before


def test_a_replayed_answer_is_refused(client, bank):
    attempt = served(client)
    answer(client, attempt, wrong_code(attempt.position))
    before = snapshot(attempt)

    response = answer(client, attempt, right_code(attempt.position))

    assert response.status_code == 409
    assert "answered this position already" in response.text
    assert snapshot(attempt) == before
    attempt.refresh_from_db()
    assert not attempt.correct


def test_someone_elses_attempt_is_not_found_and_changes_nothing(client, bank, django_user_model):
    attempt = served(client)
    before = snapshot(attempt)
    intruder = django_user_model.objects.create_user("intruder", password="x-123-456-x")
    other = Client()
    other.force_login(intruder)
    served(other)  # the intruder practises too

    response = other.post(
        f"/learn/attempts/{attempt.token}/answer/",
        {"choice": right_code(attempt.position), "position": attempt.position.key},
    )
    assert response.status_code == 404
    assert "served to someone else" in response.text
    assert other.get(f"/learn/attempts/{attempt.token}/").status_code == 404

    stranger = Client()  # no session at all
    response = stranger.post(
        f"/learn/attempts/{attempt.token}/answer/",
        {"choice": right_code(attempt.position), "position": attempt.position.key},
    )
    assert response.status_code == 404
    assert snapshot(attempt) == before


def test_an_unknown_attempt_or_position_is_not_found(client, bank):
    served(client)
    response = client.post("/learn/attempts/no-such-token/answer/", {"choice": "pass"})
    assert response.status_code == 404
    assert "never served here" in response.text

    response = client.get("/learn/positions/0123456789abcdef/")
    assert response.status_code == 404
    assert "no position with that key" in response.text
    response = client.post("/learn/positions/0123456789abcdef/serve/")
    assert response.status_code == 404
    assert "no position with that key" in response.text

    assert client.get("/learn/attempts/no-such-token/").status_code == 404


def test_the_question_does_not_name_its_position_until_it_is_answered(client, bank):
    attempt = served(client)
    question = client.get(f"/learn/attempts/{attempt.token}/")
    assert attempt.position.key not in question.text

    answer(client, attempt, right_code(attempt.position))

    assert attempt.position.key in client.get(f"/learn/attempts/{attempt.token}/").text


def test_forged_fields_are_refused_or_ignored(client, bank):
    attempt = served(client, "mode=unrated")
    other = next(p for p in bank if p != attempt.position)
    before = snapshot(attempt)

    # an answer claiming to be for another position than the one served
    response = answer(client, attempt, right_code(attempt.position), position=other.key)
    assert response.status_code == 409
    response = answer(client, attempt, right_code(attempt.position), position="f" * 16)
    assert response.status_code == 404
    assert snapshot(attempt) == before

    # fields the form never sends cannot rate an unrated attempt or mark it right
    response = answer(
        client, attempt, wrong_code(attempt.position), rated="1", correct="1", mode="practice"
    )
    assert response.status_code == 302
    attempt.refresh_from_db()
    assert not attempt.rated and not attempt.correct
    assert snapshot(attempt)[:3] == before[:3]


def test_the_answer_url_takes_only_posts(client, bank):
    attempt = served(client)
    assert client.get(f"/learn/attempts/{attempt.token}/answer/").status_code == 405


# --- A look writes nothing: a position is served by a post ------------------------------

WRITES = ("INSERT", "UPDATE", "DELETE")


def stored() -> tuple[int, ...]:
    return (
        Learner.objects.count(),
        Attempt.objects.count(),
        MissedPosition.objects.count(),
        Session.objects.count(),
    )


def assert_a_look_writes_nothing(client, method: str, url: str):
    before = stored()
    with CaptureQueriesContext(connection) as queries:
        response = getattr(client, method)(url)
    written = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]
    assert written == [], url
    assert stored() == before, url
    assert settings.SESSION_COOKIE_NAME not in response.cookies, url
    return response


def trainer_pages(position: PracticePosition, attempt: Attempt) -> dict[str, int]:
    """Every trainer page a visitor (or a crawler) may look at, and its status to a guest
    who never practised."""
    return {
        "/learn/": 200,
        f"/learn/?phase={position.phase}&players={position.players}": 200,
        "/learn/?next=1&mode=unrated": 200,
        "/learn/?game=classic": 200,
        f"/learn/positions/{position.key}/": 200,
        "/learn/positions/0123456789abcdef/": 404,
        f"/learn/attempts/{attempt.token}/": 404,
        "/learn/progress/": 200,
        "/learn/tutorial/": 200,
        "/learn/tutorial/deck/": 200,
        "/learn/quiz/": 200,
    }


@pytest.mark.parametrize("method", ["get", "head"])
def test_a_first_look_at_any_trainer_page_writes_nothing(client, bank, method):
    someone = Client()
    attempt = served(someone)
    for url, status in trainer_pages(bank[0], attempt).items():
        response = assert_a_look_writes_nothing(client, method, url)
        assert response.status_code == status, url
    assert GUEST_TOKEN not in client.session


@pytest.mark.parametrize("method", ["get", "head"])
def test_a_learners_look_at_any_trainer_page_writes_nothing(client, bank, method):
    answered = served(client, "next=1")
    answer(client, answered, wrong_code(answered.position))  # a missed position, due later
    still_open = served(client, "next=1")
    pages = trainer_pages(answered.position, answered)
    pages[f"/learn/attempts/{answered.token}/"] = 200  # the reveal
    pages[f"/learn/attempts/{still_open.token}/"] = 200  # the question
    pages[f"/learn/positions/{still_open.position.key}/"] = 302  # to the attempt still open
    for url, status in pages.items():
        response = assert_a_look_writes_nothing(client, method, url)
        assert response.status_code == status, url
    assert Learner.objects.get().preset == ""  # ?game= only preselects the game


def test_the_practice_page_shows_the_position_still_open_or_a_button_that_serves_one(client, bank):
    page = client.get("/learn/").text
    assert 'data-state="ready"' in page and 'name="choice"' not in page
    assert button(page, "Show me a position") == ("/learn/serve/", {})

    attempt = served(client)
    assert shown(client.get("/learn/").text) == attempt  # a reload shows it again
    page = client.get("/learn/?next=1").text  # "next" offers another, serving nothing yet
    assert 'name="choice"' not in page
    assert button(page, "Next position")[1] == {"game": "", "next": "1"}
    assert Attempt.objects.count() == 1


def test_serving_is_a_post_that_stores_one_attempt_and_redirects_to_its_page(client, bank):
    position = bank[0]
    response = client.post("/learn/serve/", {"phase": position.phase, "mode": "unrated"})

    assert response.status_code == 302
    assert response["Location"] == f"/learn/?phase={position.phase}&mode=unrated"
    attempt = Attempt.objects.get()
    assert attempt.position.phase == position.phase and not attempt.rated
    assert shown(client.get(response["Location"]).text) == attempt
    assert client.session[GUEST_TOKEN] == attempt.learner.guest_token

    # the same filters again serve the position still open; "next" a new one
    client.post("/learn/serve/", {"phase": position.phase, "mode": "unrated"})
    assert Attempt.objects.count() == 1
    client.post("/learn/serve/", {"phase": position.phase, "mode": "unrated", "next": "1"})
    assert Attempt.objects.count() == 2
    assert client.get("/learn/serve/").status_code == 405


def test_a_position_asked_for_by_its_key_is_served_by_its_pages_button(client, bank):
    position = bank[0]
    page = client.get(f"/learn/positions/{position.key}/").text
    assert button(page, "Try this position") == (f"/learn/positions/{position.key}/serve/", {})

    response = client.post(f"/learn/positions/{position.key}/serve/")

    attempt = Attempt.objects.get()
    assert attempt.position == position and not attempt.rated  # asked for: never rated
    assert response.status_code == 302
    assert response["Location"] == f"/learn/attempts/{attempt.token}/"
    # while it is open, the position's page shows it; pressing again serves no other
    assert client.get(f"/learn/positions/{position.key}/")["Location"] == response["Location"]
    client.post(f"/learn/positions/{position.key}/serve/")
    assert Attempt.objects.count() == 1


@pytest.mark.parametrize(
    "forged",
    [
        {"phase": "bogus"},
        {"players": "99"},
        {"game": "bogus"},
        {"difficulty": "x"},
        {"mode": "maybe"},
        {"theme": "<script>"},
    ],
)
def test_a_forged_filter_is_refused_with_a_message_and_writes_nothing(client, bank, forged):
    before = stored()

    response = client.post("/learn/serve/", forged)

    assert response.status_code == 400
    text = text_of(response.text)
    assert "Nothing was served" in text and "is not one of the choices on offer" in text
    assert "<script>" not in response.text
    assert stored() == before
    assert settings.SESSION_COOKIE_NAME not in response.cookies


def test_an_unknown_position_or_lesson_is_refused_and_writes_nothing(client, bank):
    before = stored()
    response = client.post("/learn/positions/0123456789abcdef/serve/")
    assert response.status_code == 404 and "no position with that key" in response.text
    assert client.post("/learn/tutorial/no-such-lesson/serve/").status_code == 404
    assert stored() == before
    assert settings.SESSION_COOKIE_NAME not in response.cookies


def test_serving_is_rate_limited_per_learner(client, bank, monkeypatch):
    monkeypatch.setattr(services, "SERVES_PER_MINUTE", 3)
    served(client)  # a first visit has no guest token yet: its address alone counts it
    for _ in range(3):
        assert client.post("/learn/serve/", {"next": "1"}).status_code == 302

    for url in ("/learn/serve/", f"/learn/positions/{bank[0].key}/serve/"):
        refused = client.post(url, {"next": "1"})
        assert refused.status_code == 429
        assert "Many positions were served to you in the last minute" in refused.text
    assert client.post("/learn/tutorial/deck/serve/").status_code == 429
    assert Attempt.objects.count() == 4
    assert Client().post("/learn/serve/").status_code == 302  # someone else is served


def test_serving_is_rate_limited_per_address(bank, monkeypatch):
    monkeypatch.setattr(services, "SERVES_PER_ADDRESS", 2)
    assert [Client().post("/learn/serve/").status_code for _ in range(3)] == [302, 302, 429]
    assert Learner.objects.count() == Attempt.objects.count() == Session.objects.count() == 2


# --- Progress, sign-in, tutorial ---------------------------------------------------------


def test_progress_shows_rating_history_themes_and_due_misses(client, bank):
    assert "Nothing yet" in client.get("/learn/progress/").text
    for _ in range(3):
        attempt = served(client, "next=1")
        answer(client, attempt, wrong_code(attempt.position))

    page = client.get("/learn/progress/").text
    text = text_of(page)
    assert "3 positions answered, 0 right" in text
    assert "<polyline" in page
    assert "By theme" in text
    assert "3 more come back later" in text


def test_a_guest_who_signs_in_keeps_their_progress(client, bank, django_user_model):
    attempt = served(client)
    answer(client, attempt, right_code(attempt.position))
    user = django_user_model.objects.create_user("kim", password="x-123-456-x")

    client.force_login(user)

    text = text_of(client.get("/learn/progress/").text)
    assert "1 position answered, 1 right" in text
    served(client, "next=1")
    assert Learner.objects.get(user=user).attempts.count() == 2


# the lessons practise only positions chosen for them: the starter bank has some for each
def test_the_tutorial_lists_six_lessons_each_with_unrated_practice(client, starter_bank):
    page = client.get("/learn/tutorial/").text
    # a guest sees the house rules' lessons first (every game's: test_views_tutorial.py)
    slugs = re.findall(r'href="/learn/tutorial/([a-z-]+)/"', page)[:6]
    assert slugs == ["deck", "auction", "trump", "following", "points", "scoring"]

    for slug in slugs:
        response = client.get(f"/learn/tutorial/{slug}/")
        assert response.status_code == 200
        assert "Practice 1 of 3" in text_of(response.text)
        response = press(client, response.text, "Show me a position")
        assert response.redirect_chain == [(f"/learn/tutorial/{slug}/", 302)]
        assert "Practice 1 of 3" in text_of(response.text)
        attempt = shown(response.text)
        assert attempt.mode == "tutorial" and attempt.lesson == slug and not attempt.rated

    assert client.get("/learn/tutorial/no-such-lesson/").status_code == 404


def test_a_lesson_ends_after_its_practice_positions(client, starter_bank):
    learner_rating = None
    page = press(client, client.get("/learn/tutorial/deck/").text, "Show me a position").text
    for number in range(1, 4):
        assert f"Practice {number} of 3" in text_of(page)
        attempt = shown(page)
        learner_rating = learner_rating or attempt.learner.rating
        response = answer(client, attempt, wrong_code(attempt.position))
        reveal = client.get(response["Location"]).text
        assert "Not rated" in reveal
        page = press(client, reveal, "Continue the lesson").text

    assert Attempt.objects.count() == 3  # a lesson done serves no more
    page = text_of(page)
    assert "Lesson done" in page and "Next: The auction" in page
    assert Learner.objects.get().rating == learner_rating
    assert not MissedPosition.objects.exists()


def test_the_pages_use_no_wider_layout_than_the_site(client, bank):
    for url in ("/learn/", "/learn/progress/", "/learn/tutorial/", "/learn/tutorial/points/"):
        response = client.get(url)
        assert response.status_code == 200
        assert 'name="viewport"' in response.text


def test_the_rules_quiz_answers_with_feedback_with_and_without_htmx(client):
    from learn import quiz

    assert "a short rules quiz" in client.get("/learn/tutorial/").text
    page = client.get("/learn/quiz/").text
    assert page.count('class="quiz-question"') == len(quiz.QUESTIONS)
    assert 'hx-post="/learn/quiz/"' in page

    # without script: the whole page, with this question's feedback
    plain = client.post("/learn/quiz/", {"question": "trump", "choice": "dealer"}).text
    assert plain.count('class="quiz-question"') == len(quiz.QUESTIONS)
    assert 'data-right="false"' in plain and "Not quite: The first card" in plain
    # with htmx: the question alone, to swap in place
    swapped = client.post(
        "/learn/quiz/", {"question": "trump", "choice": "lead"}, HTTP_HX_REQUEST="true"
    ).text
    assert swapped.count('class="quiz-question"') == 1
    assert 'id="quiz-trump"' in swapped and 'data-right="true"' in swapped
    assert "<html" not in swapped


def test_the_rules_quiz_refuses_an_answer_it_does_not_offer(client):
    response = client.post("/learn/quiz/", {"question": "trump", "choice": "hearts"})
    assert response.status_code == 400
    assert client.post("/learn/quiz/", {"question": "x"}).status_code == 400
