"""Playing at a table over plain HTTP: every form posts and redirects back, and with htmx
the response swaps in the table partial instead. Thin: services write, selectors read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from game import chat_page, selectors
from game.engine import record
from game.engine.state import MatchState
from game.errors import TableError
from game.forms import PlayBotsForm, settings_of
from game.htmx import for_htmx
from game.players import ratings, table_prefs
from game.players.identity import SeatOwner, request_owner
from game.services import limits
from game.services import play as play_services
from smearsite.kernel import CODE_MAX_LENGTH, BadNumber, request_int
from smearsite.kernel.code_guard import code_lookup
from smearsite.kernel.http import found_or_404
from smearsite.kernel.ratelimit import request_address

if TYPE_CHECKING:
    from game.models import Table


def _live_context(found: Table) -> dict:
    """What the page's live script is told: the table, the trick's stay, how long a
    person's turn runs before a bot plays it for them, and how long the turn on the table
    has run already (so that a reloaded page counts down from the turn's real start)."""
    return {
        "code": found.code,
        "trick_hold_ms": settings.SMEAR_TRICK_HOLD_MS,
        "away_after_s": settings.SMEAR_AWAY_AFTER_S,
        "turn_age_ms": selectors.turn_age_ms(table=found),
    }


def _no_seat(request: HttpRequest) -> HttpResponse:
    return render(request, "game/no_seat.html", status=403)


def settings_from(request: HttpRequest) -> dict:
    """``?from=<code>``: the settings of a table the asker sat at, offered again for a new
    one (nothing for a table they did not sit at, or no such table)."""
    code = request.GET.get("from", "")[:CODE_MAX_LENGTH]
    found = selectors.table_for_code(code) if code else None
    if found is None or selectors.seat_number_for(found, request_owner(request)) is None:
        return {}
    return settings_of(found, list(found.seats.all()))


@require_http_methods(["GET", "HEAD", "POST"])
def play(request: HttpRequest) -> HttpResponse:
    form = PlayBotsForm(
        request.POST if request.method == "POST" else None,
        remembered=table_prefs.chosen_rules(request.session),
        initial=settings_from(request) if request.method != "POST" else None,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        owner = request_owner(request, start_session=True)
        if not limits.table_start_allowed(owner=owner, address=request_address(request)):
            return render(request, "429.html", status=429)
        for closed in limits.bot_tables_make_room(owner=owner):
            messages.info(
                request,
                f"Your oldest table against bots, {closed.code}, is closed: you may have "
                f"{settings.SMEAR_BOT_TABLES_PER_PERSON} at once.",
            )
        table = play_services.table_create_vs_bots(
            owner=owner,
            players=data["players"],
            teams=data["teams"],
            bot_levels=data["bot_levels"],
            target=data["target"],
            table_rules=data["rules"],
        )
        table_prefs.remember_rules(request, form.remembered())
        return redirect("game:table", code=table.code)
    return render(request, "game/play.html", {"form": form})


@code_lookup
@require_safe
@for_htmx("table")  # the page polls while its live connection is down
def table(request: HttpRequest, code: str) -> HttpResponse:
    found = found_or_404(selectors.table_by_code(code), "table")
    owner = request_owner(request)
    context = selectors.table_page_context(table=found, seat_owner=owner)
    play_services.table_opened(table_id=found.pk)  # the bots resume after a restart
    return TemplateResponse(
        request,
        "game/table.html",
        {**context, **_live_context(found), **_ratings(request, found), **_chat(request, found)},
    )


def _chat(request: HttpRequest, found: Table) -> dict:
    """The chat panel, drawn once with the page (the socket adds its lines): not for the
    polled partial."""
    if request.htmx:
        return {}
    return {"chat": chat_page.chat_panel(table=found, owner=request_owner(request))}


def _ratings(request: HttpRequest, found: Table) -> dict:
    """Each seat's rating at this size, drawn once with the page (a rating changes only
    when a match ends): not for the polled partial."""
    if request.htmx or not found.dealt:
        return {}
    return {"seat_ratings": ratings.table_ratings(table=found)}


@code_lookup
@require_POST
@for_htmx("table")
def table_play(request: HttpRequest, code: str) -> HttpResponse:
    found = found_or_404(selectors.table_by_code(code), "table")
    owner = request_owner(request)
    try:
        index = request_int(request.POST.get("index"), name="move's index")
    except BadNumber as forged:
        return HttpResponseBadRequest(str(forged))
    error = None
    action = request.POST.get("action", "")
    if action == "discard":  # the card chooser: the cards tapped to keep, or to throw
        mode = "keep" if request.POST.get("mode") == "keep" else "throw"
        action = f"{mode}:" + ",".join(request.POST.getlist("card")[:64])
    try:
        play_services.table_play(table_id=found.pk, seat_owner=owner, action=action, index=index)
    except TableError as refused:
        error = str(refused)
    return answer_table_form(request, found, owner, error)


def answer_table_form(
    request: HttpRequest, found: Table, owner: SeatOwner, error: str | None
) -> HttpResponse:
    """After a table's form: back to the table page (the error as a message) or, with
    htmx, the table as it now stands with the error in it (``for_htmx`` picks the partial)."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("game:table", code=found.code)
    found.refresh_from_db()
    context = selectors.table_page_context(table=found, seat_owner=owner)
    return TemplateResponse(
        request, "game/table.html", {**context, **_live_context(found), "error": error}
    )


@code_lookup
@require_POST
@for_htmx("table")
def table_back(request: HttpRequest, code: str) -> HttpResponse:
    """The person is back: the bot that stood in for them stops."""
    found = found_or_404(selectors.table_by_code(code), "table")
    owner = request_owner(request)
    play_services.table_seat_back(table_id=found.pk, seat_owner=owner)
    return answer_table_form(request, found, owner, None)


@code_lookup
@require_POST
def table_rematch(request: HttpRequest, code: str) -> HttpResponse:
    found = found_or_404(selectors.table_by_code(code), "table")
    try:
        fresh = play_services.table_rematch(table_id=found.pk, owner=request_owner(request))
    except TableError as refused:
        messages.error(request, str(refused))
        return _go_to_table(request, found.code)
    return _go_to_table(request, fresh.code)


def _go_to_table(request: HttpRequest, code: str) -> HttpResponse:
    """To a table's page: with htmx the browser is told to go there itself."""
    if request.htmx:
        return HttpResponseClientRedirect(reverse("game:table", args=[code]))
    return redirect("game:table", code=code)


# --- Hand history -----------------------------------------------------------------------


def _seated_table(request: HttpRequest, code: str) -> Table | None:
    found = found_or_404(selectors.table_by_code(code), "table")
    if selectors.seat_number_for(found, request_owner(request)) is None:
        return None
    return found


def _download(match: MatchState, filename: str) -> HttpResponse:
    response = JsonResponse(record.write(match))
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@code_lookup
@require_safe
def table_record(request: HttpRequest, code: str) -> HttpResponse:
    """The match so far as a game record: finished rounds only."""
    found = _seated_table(request, code)
    if found is None:
        return _no_seat(request)
    match = selectors.finished_match(table=found)
    if not match.rounds:
        raise Http404("no round has finished yet")
    return _download(match, f"smear-{found.code}.json")


@code_lookup
@require_safe
def round_record(request: HttpRequest, code: str, number: int) -> HttpResponse:
    found = _seated_table(request, code)
    if found is None:
        return _no_seat(request)
    match = selectors.finished_match(table=found)
    if not 1 <= number <= len(match.rounds):
        raise Http404("no such finished round")
    state = match.rounds[number - 1]
    single = MatchState(match.setup, state.dealer, (state,))
    return _download(single, f"smear-{found.code}-round-{number}.json")


@code_lookup
@require_safe
def round_replay(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """A finished round, trick by trick: ``?trick=N`` shows the first N tricks."""
    found = _seated_table(request, code)
    if found is None:
        return _no_seat(request)
    replay = selectors.round_replay(table=found, number=number - 1)
    if replay is None:
        raise Http404("no such finished round")
    try:
        shown = min(request_int(request.GET.get("trick"), name="trick") or 0, len(replay.tricks))
    except BadNumber as forged:
        return HttpResponseBadRequest(str(forged))
    return render(
        request,
        "game/round_replay.html",
        {
            "code": found.code,
            "number": number,
            "replay": replay,
            "tricks": replay.tricks[:shown],
            "shown": shown,
            "total": len(replay.tricks),
            "previous": shown - 1 if shown > 0 else None,
            "next": shown + 1 if shown < len(replay.tricks) else None,
        },
    )
