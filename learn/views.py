"""Trainer pages: thin function views. Services write, selectors read, presenters build
what a template is handed.

A GET or HEAD writes nothing (no learner, attempt or session is made by a look, or by a
crawler following links): a page shows the position still open, or a button that posts
for one to be served, and the post redirects to the page that shows it.

Every page works without JavaScript: an answer posts and redirects to the attempt's
page, which then shows the reveal. With htmx the answer swaps the reveal in place.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from game.engine.notation import preset_name
from game.players.identity import request_owner
from learn import presenters, quiz, selectors, services, tutorial
from learn.forms import FilterForm, chosen_discard
from learn.round_review import worker
from smearsite.kernel.http import status_for
from smearsite.kernel.ratelimit import request_address

if TYPE_CHECKING:
    from learn.models import Attempt, Learner

PARTS = "learn/parts.html"
NEXT = ("next", "1")  # a posted field: serve a new position, not the one still open
TOO_MANY_SERVED = (
    "Many positions were served to you in the last minute. Nothing more was stored: "
    "wait a minute, then ask for the next one."
)


def _learner_serving(request: HttpRequest) -> Learner | None:
    """The learner a position is served to, made on first use (with a guest's session);
    None, with nothing stored, when they asked for too many positions a minute."""
    allowed = services.serving_allowed(
        owner=request_owner(request), address=request_address(request)
    )
    if not allowed:
        return None
    return services.learner_get_or_create(owner=request_owner(request, start_session=True))


def _too_many(request: HttpRequest) -> HttpResponse:
    return render(request, "429.html", {"reason": TOO_MANY_SERVED}, status=429)


def _missing(request: HttpRequest, message: str, status: int = 404) -> HttpResponse:
    return render(request, "learn/missing.html", {"message": message}, status=status)


def _question_context(attempt: Attempt, *, error: str | None = None) -> dict:
    return {
        "attempt": presenters.attempt_shown(attempt),
        "d": presenters.position_page(position=attempt.position),
        "error": error,
    }


def _next_button(attempt: Attempt, query: str) -> presenters.ServeButton:
    if attempt.in_lesson:
        url = reverse("learn:lesson_serve", args=[attempt.lesson])
        return presenters.ServeButton(url, "Continue the lesson")
    # only the filters the form knows pass on from a posted or linked query string
    fields = FilterForm(QueryDict(query)).fields_asked()
    return presenters.ServeButton(reverse("learn:serve"), "Next position", (*fields, NEXT))


def _answered_context(attempt: Attempt, query: str = "") -> dict:
    context = _question_context(attempt)
    context["reveal"] = presenters.reveal_for(attempt=attempt)
    context["next"] = _next_button(attempt, query)
    return context


# --- Practice ----------------------------------------------------------------------------


@require_safe
def practice(request: HttpRequest) -> HttpResponse:
    """The position still open for these filters, or a button that serves one."""
    learner = selectors.learner_for(owner=request_owner(request))
    data = request.GET.copy()
    if learner is not None:
        data.setdefault("game", learner.preset)  # with no game asked for, the one kept
    # an absent choice is the default one, and the form shows it selected
    data.setdefault("difficulty", "matched")
    data.setdefault("mode", "rated")
    fresh = request.GET.get("next") == "1"
    return _practice_page(request, FilterForm(data), learner, fresh=fresh)


def _practice_page(
    request: HttpRequest,
    form: FilterForm,
    learner: Learner | None,
    *,
    fresh: bool = False,
    status: int = 200,
) -> HttpResponse:
    filters = form.filters()
    attempt = None
    if learner is not None and not fresh:
        attempt = selectors.open_practice_attempt(learner=learner, filters=filters)
    context = {
        "form": form,
        "learner": presenters.learner_shown(learner),
        "attempt": None,
        "query": form.query(),
        "bank_size": selectors.bank_size(),
    }
    if filters.rated and (attempt is None or not attempt.rated):
        context["rated_waiting"] = _rated_waiting(learner, filters)
    if attempt is not None:
        context.update(_question_context(attempt))
    elif selectors.can_serve(learner=learner, filters=filters, now=timezone.now()):
        label = "Next position" if fresh else "Show me a position"
        fields = (*form.fields_asked(), NEXT) if fresh else form.fields_asked()
        context["serve"] = presenters.ServeButton(reverse("learn:serve"), label, fields)
    return render(request, "learn/practice.html", context, status=status)


def _rated_waiting(learner: Learner | None, filters) -> str:
    """Why rated practice has no position for these filters yet, in words ("" if it has)."""
    if selectors.rated_in_stock(learner=learner, filters=filters):
        return ""
    if worker.worker_running():
        return (
            "Rated positions of this kind are being analysed in the background: the first "
            "are ready within a couple of minutes. Until then the positions served are "
            "starter positions, for practice only."
        )
    return (
        "Rated positions are analysed by the site's background worker, which is not "
        "running right now: until it is, the positions served are for practice only."
    )


@require_POST
def serve(request: HttpRequest) -> HttpResponse:
    """Serve a position with the filters posted, then show it on the practice page."""
    form = FilterForm(request.POST)
    if not form.is_valid():
        learner = selectors.learner_for(owner=request_owner(request))
        return _practice_page(request, form, learner, status=400)
    learner = _learner_serving(request)
    if learner is None:
        return _too_many(request)
    filters = form.filters()
    # the game chosen is kept for the next visit; with none chosen, the one kept
    if "game" in request.POST:
        services.learner_preset_choose(learner=learner, preset=form.cleaned_data["game"])
    else:
        filters = dataclasses.replace(filters, preset=learner.preset or None)
    services.attempt_serve(learner=learner, filters=filters, fresh=request.POST.get("next") == "1")
    # the practice page shows the attempt just served: the newest open one in these filters
    query = form.query()
    url = reverse("learn:practice")
    return redirect(f"{url}?{query}" if query else url)


@require_safe
def position(request: HttpRequest, key: str) -> HttpResponse:
    """One position by its key (the progress page's missed positions link here): the
    attempt still open at it, or a button that serves it."""
    learner = selectors.learner_for(owner=request_owner(request))
    found = selectors.position_for(key=key, learner=learner)
    if found is None:
        return _missing(request, services.UNKNOWN_KEY)
    if learner is not None:
        open_attempt = selectors.open_practice_attempt(learner=learner, position=found)
        if open_attempt is not None:
            return redirect("learn:attempt", token=open_attempt.token)
    context = {
        "position": presenters.position_shown(found),
        "learner": presenters.learner_shown(learner),
        "serve": presenters.ServeButton(
            reverse("learn:position_serve", args=[key]), "Try this position"
        ),
    }
    return render(request, "learn/position.html", context)


@require_POST
def position_serve(request: HttpRequest, key: str) -> HttpResponse:
    """Serve the position with this key, then show it on its attempt's page."""
    mine = selectors.learner_for(owner=request_owner(request))
    if selectors.position_for(key=key, learner=mine) is None:
        return _missing(request, services.UNKNOWN_KEY)  # and nothing is stored
    learner = _learner_serving(request)
    if learner is None:
        return _too_many(request)
    attempt = services.attempt_serve(learner=learner, filters=selectors.Filters(), key=key)
    return redirect("learn:attempt", token=attempt.token)


@require_safe
def attempt(request: HttpRequest, token: str) -> HttpResponse:
    learner = selectors.learner_for(owner=request_owner(request))
    found = selectors.attempt_for(token=token, learner=learner)
    if found is None:
        return _missing(request, "No such position was served to you: open a new one.")
    query = request.GET.get("q", "")
    if found.is_answered:
        context = _answered_context(found, query)
    else:
        context = _question_context(found)
    context.update(query=query, learner=presenters.learner_shown(learner))
    return render(request, "learn/attempt.html", context)


@require_POST
def answer(request: HttpRequest, token: str) -> HttpResponse:
    learner = selectors.learner_for(owner=request_owner(request))
    query = request.POST.get("q", "")
    try:
        if learner is None:
            raise services.NotYourAttempt("No such position was served to you: open a new one.")
        done = services.attempt_answer(
            learner=learner,
            token=token,
            choice=request.POST.get("choice") or chosen_discard(request.POST),
            position_key=request.POST.get("position") or None,
        )
    except services.TrainerError as error:
        return _refused(request, token, learner, str(error), status_for(error))
    if not request.htmx:
        url = reverse("learn:attempt", args=[done.token])
        return redirect(f"{url}?{urlencode({'q': query})}" if query else url)
    reveal = render_to_string(
        f"{PARTS}#answered", {**_answered_context(done, query), "query": query}, request
    )
    learner.refresh_from_db()  # the answer moved the rating
    me = render_to_string(
        f"{PARTS}#me", {"learner": presenters.learner_shown(learner), "oob": True}, request
    )
    return HttpResponse(reveal + me)


def _refused(
    request: HttpRequest, token: str, learner: Learner | None, message: str, status: int
) -> HttpResponse:
    """The answer is refused and nothing changed: say why, and show the position again
    (or its reveal, if it was answered already) when it is the learner's own."""
    own = selectors.attempt_for(token=token, learner=learner)
    if own is None:
        context = {"message": message}
        if request.htmx:
            # htmx swaps only 2xx responses: the message replaces the position
            return render(request, f"{PARTS}#refused", context)
        return render(request, "learn/missing.html", context, status=status)
    if own.is_answered:
        context = {**_answered_context(own), "error": message}
    else:
        context = _question_context(own, error=message)
    if request.htmx:
        name = "answered" if own.is_answered else "question"
        return render(request, f"{PARTS}#{name}", context)
    return render(request, "learn/attempt.html", context, status=status)


# --- Progress ----------------------------------------------------------------------------


@require_safe
def progress(request: HttpRequest) -> HttpResponse:
    learner = selectors.learner_for(owner=request_owner(request))
    summary = selectors.progress_for(learner=learner, now=timezone.now())
    return render(request, "learn/progress.html", {"progress": summary})


# --- Tutorial ----------------------------------------------------------------------------


def _game_chosen(request: HttpRequest, learner: Learner | None) -> str:
    """The game whose lessons come first: ``?game=`` in the address (a preselection, kept
    nowhere), else the learner's own; "" (any game) when neither names one."""
    asked = request.GET.get("game")
    if asked == "" or asked in tutorial.BY_GAME:
        return asked
    return learner.preset if learner is not None else ""


def _quiz_url(game: str) -> str:
    return reverse("learn:quiz") if game == "house" else reverse("learn:quiz_game", args=[game])


@require_safe
def tutorial_index(request: HttpRequest) -> HttpResponse:
    """Every game's lessons, the chosen game's first (the house rules when none is)."""
    learner = selectors.learner_for(owner=request_owner(request))
    done = selectors.lessons_practised(learner=learner)
    chosen = _game_chosen(request, learner)
    games = [
        {
            "preset": game,
            "title": preset_name(game),
            "chosen": game == chosen,
            "lessons": [(lesson, done.get(lesson.slug, 0)) for lesson in tutorial.BY_GAME[game]],
            "quiz_url": _quiz_url(game),
        }
        for game in tutorial.games_first(chosen)
    ]
    return render(
        request,
        "learn/tutorial.html",
        {"games": games, "per_lesson": tutorial.PRACTICE_PER_LESSON},
    )


def _lesson(slug: str) -> tutorial.Lesson:
    found = tutorial.LESSONS_BY_SLUG.get(slug)
    if found is None:
        raise Http404("no such lesson")
    return found


@require_safe
def lesson(request: HttpRequest, slug: str) -> HttpResponse:
    """A lesson, then its practice: the position still open, or a button that serves one."""
    found = _lesson(slug)
    learner = selectors.learner_for(owner=request_owner(request))
    practised = selectors.lessons_practised(learner=learner).get(slug, 0)
    fits = selectors.lesson_filters(found)
    attempt = serve = None
    if practised < tutorial.PRACTICE_PER_LESSON:
        if learner is not None:
            attempt = selectors.open_lesson_attempt(learner=learner, lesson=slug, filters=fits)
        can_serve = selectors.can_serve(
            learner=learner, filters=fits, now=timezone.now(), missed=False
        )
        if attempt is None and can_serve:
            url = reverse("learn:lesson_serve", args=[slug])
            serve = presenters.ServeButton(url, "Show me a position")
    number, total = tutorial.lesson_number(found)
    context = {
        "lesson": found,
        "practised": practised,
        "per_lesson": tutorial.PRACTICE_PER_LESSON,
        "next_lesson": tutorial.lesson_after(slug),
        "quiz_url": _quiz_url(found.preset),
        "attempt": None,
        "serve": serve,
        "learner": presenters.learner_shown(learner),  # an answer updates it out of band
        "bank_size": selectors.bank_size(),
        "number": number,
        "total": total,
    }
    if attempt is not None:
        context.update(_question_context(attempt))
    return render(request, "learn/lesson.html", context)


@require_POST
def lesson_serve(request: HttpRequest, slug: str) -> HttpResponse:
    """Serve the lesson's next practice position (none once the lesson is done), then
    show it on the lesson's page."""
    found = _lesson(slug)
    learner = _learner_serving(request)
    if learner is None:
        return _too_many(request)
    practised = selectors.lessons_practised(learner=learner).get(slug, 0)
    if practised < tutorial.PRACTICE_PER_LESSON:
        services.lesson_serve(learner=learner, lesson=found)
    return redirect("learn:lesson", slug=slug)


@require_http_methods(["GET", "HEAD", "POST"])
def rules_quiz(request: HttpRequest, game: str = "house") -> HttpResponse:
    """A game's rules quiz: each question is its own form; an answer comes back with its
    feedback, as the question alone for htmx or as the whole page without it. Nothing is
    stored."""
    found = quiz.QUIZZES.get(game)
    if found is None:
        return _missing(request, "There is no rules quiz for that game.")
    feedback = None
    if request.method == "POST":
        try:
            feedback = quiz.check(
                request.POST.get("question", ""), request.POST.get("choice", ""), game=game
            )
        except (KeyError, quiz.UnknownAnswer):
            return _missing(request, "That is not one of the quiz's answers.", status=400)
    context = {
        "quiz": found,
        "questions": found.questions,
        "feedback": feedback,
        "quiz_url": _quiz_url(game),
        "others": [(preset_name(name), _quiz_url(name)) for name in quiz.QUIZZES if name != game],
    }
    if request.htmx and feedback is not None:
        return render(request, "learn/quiz.html#question", {**context, "q": feedback.question})
    return render(request, "learn/quiz.html", context)
