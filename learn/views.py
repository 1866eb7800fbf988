"""Trainer pages: thin function views. Services write, selectors read, presenters build
what a template is handed.

Every page works without JavaScript: an answer posts and redirects to the attempt's
page, which then shows the reveal. With htmx the answer swaps the reveal in place.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from game.players.identity import request_owner
from learn import presenters, quiz, selectors, services, tutorial
from learn.forms import FilterForm
from learn.models import Attempt, Learner
from smearsite.kernel.http import status_for

PARTS = "learn/parts.html"


def _learner(request: HttpRequest) -> Learner:
    return services.learner_get_or_create(owner=request_owner(request, start_session=True))


def _missing(request: HttpRequest, message: str, status: int = 404) -> HttpResponse:
    return render(request, "learn/missing.html", {"message": message}, status=status)


def _question_context(attempt: Attempt, *, error: str | None = None) -> dict:
    return {
        "attempt": presenters.attempt_shown(attempt),
        "d": presenters.position_page(position=attempt.position),
        "error": error,
    }


def _next_url(attempt: Attempt, query: str) -> str:
    if attempt.mode == Attempt.Mode.TUTORIAL and attempt.lesson:
        return reverse("learn:lesson", args=[attempt.lesson])
    url = reverse("learn:practice") + "?next=1"
    # only the filters the form knows pass on from a posted or linked query string
    query = FilterForm(QueryDict(query)).query()
    return f"{url}&{query}" if query else url


def _answered_context(attempt: Attempt, query: str = "") -> dict:
    context = _question_context(attempt)
    context["reveal"] = presenters.reveal_for(attempt=attempt)
    context["next_url"] = _next_url(attempt, query)
    return context


# --- Practice ----------------------------------------------------------------------------


@require_safe
def practice(request: HttpRequest) -> HttpResponse:
    data = request.GET.copy()
    learner = _learner(request)
    # the game chosen is kept for the next visit; with none chosen, the one kept
    if "game" in data:
        services.learner_preset_choose(learner=learner, preset=data["game"])
    else:
        data["game"] = learner.preset
    # an absent choice is the default one, and the form shows it selected
    data.setdefault("difficulty", "matched")
    data.setdefault("mode", "rated")
    form = FilterForm(data)
    filters = form.filters()
    attempt = services.attempt_serve(
        learner=learner, filters=filters, fresh=request.GET.get("next") == "1"
    )
    context = {
        "form": form,
        "learner": presenters.learner_shown(learner),
        "attempt": None,
        "query": form.query(),
        "bank_size": selectors.bank_size(),
    }
    if attempt is not None:
        context.update(_question_context(attempt))
    return render(request, "learn/practice.html", context)


@require_safe
def position(request: HttpRequest, key: str) -> HttpResponse:
    """One position by its key: the dashboard's missed positions link here."""
    learner = _learner(request)
    try:
        attempt = services.attempt_serve(
            learner=learner, filters=selectors.Filters(), key=key, fresh=True
        )
    except services.UnknownPosition as error:
        return _missing(request, str(error))
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
            choice=request.POST.get("choice", ""),
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


@require_safe
def tutorial_index(request: HttpRequest) -> HttpResponse:
    learner = selectors.learner_for(owner=request_owner(request))
    done = selectors.lessons_practised(learner=learner)
    lessons = [(lesson, done.get(lesson.slug, 0)) for lesson in tutorial.LESSONS]
    return render(
        request,
        "learn/tutorial.html",
        {"lessons": lessons, "per_lesson": tutorial.PRACTICE_PER_LESSON},
    )


@require_safe
def lesson(request: HttpRequest, slug: str) -> HttpResponse:
    found = tutorial.LESSONS_BY_SLUG.get(slug)
    if found is None:
        raise Http404("no such lesson")
    learner = _learner(request)
    practised = selectors.lessons_practised(learner=learner).get(slug, 0)
    attempt = None
    if practised < tutorial.PRACTICE_PER_LESSON:
        attempt = services.lesson_serve(learner=learner, lesson=found)
    context = {
        "lesson": found,
        "practised": practised,
        "per_lesson": tutorial.PRACTICE_PER_LESSON,
        "next_lesson": tutorial.lesson_after(slug),
        "attempt": None,
        "learner": presenters.learner_shown(learner),  # an answer updates it out of band
        "bank_size": selectors.bank_size(),
        "number": tutorial.LESSONS.index(found) + 1,
        "total": len(tutorial.LESSONS),
    }
    if attempt is not None:
        context.update(_question_context(attempt))
    return render(request, "learn/lesson.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def rules_quiz(request: HttpRequest) -> HttpResponse:
    """The rules quiz: each question is its own form; an answer comes back with its
    feedback, as the question alone for htmx or as the whole page without it."""
    feedback = None
    if request.method == "POST":
        try:
            feedback = quiz.check(request.POST.get("question", ""), request.POST.get("choice", ""))
        except (KeyError, quiz.UnknownAnswer):
            return _missing(request, "That is not one of the quiz's answers.", status=400)
    context = {"questions": quiz.QUESTIONS, "feedback": feedback}
    if request.htmx and feedback is not None:
        return render(request, "learn/quiz.html#question", {**context, "q": feedback.question})
    return render(request, "learn/quiz.html", context)
