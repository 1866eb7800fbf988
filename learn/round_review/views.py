"""The review of a player's own round: ask for it, watch it run, practise a decision.

Thin views. Only the person in the seat sees their review, and only of a finished round:
anyone else gets the "no seat" page, an unfinished or unknown round a 404.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from game import selectors as game_selectors
from game.players.identity import request_owner
from learn import services as trainer
from learn.presenters import SCALE_RULE, scale_legend
from learn.round_review import presenters, selectors, services, worker
from smearsite.kernel.http import found_or_404

if TYPE_CHECKING:
    from game.models import Table

PAGE = "learn/review.html"


def _seat_and_table(request: HttpRequest, code: str, number: int) -> tuple[Table, int | None]:
    table = found_or_404(game_selectors.table_by_code(code), "table")
    if not 1 <= number <= selectors.finished_rounds(table):
        raise Http404("no such finished round")
    return table, game_selectors.seat_number_for(table, request_owner(request))


def _context(table: Table, number: int, seat: int) -> dict:
    # every preset's round is reviewed (decisions.review_moment prices full-deck choices too)
    # only reads: a stale review is queued again by the workers (worker.periodic_work),
    # never by a look at its page, which polls
    found = selectors.review_for(table=table, seat=seat, number=number - 1)
    page = None if found is None else presenters.review_page(review=found)
    return {
        "code": table.code,
        "number": number,
        "page": page,
        "legend": scale_legend(),  # the one scale of mistakes, as the trainer's reveal shows it
        "scale_rule": SCALE_RULE,
        # asked only while a review waits: the page polls, and says so when nobody works
        "worker_running": page is None or page.finished or worker.worker_running(),
    }


@require_safe
def round_review(request: HttpRequest, code: str, number: int) -> HttpResponse:
    table, seat = _seat_and_table(request, code, number)
    if seat is None:
        return render(request, "game/no_seat.html", status=403)
    context = _context(table, number, seat)
    template = f"{PAGE}#review" if request.htmx else PAGE
    return render(request, template, context)


@require_POST
def round_review_start(request: HttpRequest, code: str, number: int) -> HttpResponse:
    table, seat = _seat_and_table(request, code, number)
    if seat is None:
        return render(request, "game/no_seat.html", status=403)
    error = None
    try:
        services.review_request(
            table=table, seat=seat, number=number - 1, owner=request_owner(request)
        )
    except services.TooManyReviews as refused:
        error = str(refused)
    if request.htmx:
        context = {**_context(table, number, seat), "error": error}
        return render(request, f"{PAGE}#review", context)  # htmx swaps only a 2xx
    if error:
        messages.error(request, error)
    return redirect("learn:round_review", code=table.code, number=number)


@require_POST
def round_review_practise(request: HttpRequest, code: str, number: int, index: int) -> HttpResponse:
    table, seat = _seat_and_table(request, code, number)
    if seat is None:
        return render(request, "game/no_seat.html", status=403)
    found = selectors.review_for(table=table, seat=seat, number=number - 1)
    if found is None:
        raise Http404("this round has not been reviewed")
    learner = trainer.learner_get_or_create(owner=request_owner(request, start_session=True))
    try:
        position = services.review_practise(learner=learner, review=found, index=index)
    except services.NoSuchDecision as error:
        raise Http404(str(error)) from None
    messages.success(request, "In your practice queue: it comes back until you solve it.")
    return redirect("learn:position", key=position.key)
