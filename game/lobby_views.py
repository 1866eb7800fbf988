"""Tables with friends: create one, share its code, take seats, fill the rest with bots,
start. Thin: services write, selectors read. Every form works as a plain post that
redirects back to the table page; with htmx the response swaps in the table partial."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from game import selectors
from game.errors import TableError
from game.forms import JoinByCodeForm, TableForm
from game.htmx import for_htmx
from game.players import table_prefs
from game.players.identity import SeatOwner, request_owner
from game.services import lobby
from game.table_views import answer_table_form, settings_from
from smearsite.kernel import BadNumber, code_guard, request_int
from smearsite.kernel.code_guard import code_lookup
from smearsite.kernel.http import found_or_404

if TYPE_CHECKING:
    from game.models import Table


@require_safe
def tables(request: HttpRequest) -> HttpResponse:
    """Open public tables, a join-by-code box, and the signed-in user's own tables."""
    return _tables_page(request, JoinByCodeForm())


def _tables_page(request: HttpRequest, join_form: JoinByCodeForm, status: int = 200):
    mine = []
    if request.user.is_authenticated:
        mine = selectors.tables_for_user(user_id=request.user.pk)
    context = {
        "open_tables": selectors.open_public_tables(),
        "my_tables": mine,
        "join_form": join_form,
    }
    return render(request, "game/tables.html", context, status=status)


@require_safe
def join_by_code(request: HttpRequest) -> HttpResponse:
    """A code (or a pasted share link) leads to its table's page, where seats are taken."""
    form = JoinByCodeForm(request.GET)
    if form.is_valid():
        if not code_guard.request_may_look_up(request):
            return code_guard.too_many_guesses(request)
        found = selectors.table_for_code(form.cleaned_data["code"])
        if found is not None:
            return redirect("game:table", code=found.code)
        code_guard.request_missed(request)
        form.add_error("code", f"No table has the code {form.cleaned_data['code']}.")
    return _tables_page(request, form)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    form = TableForm(
        request.POST if request.method == "POST" else None,
        remembered=table_prefs.chosen_rules(request.session),
        initial=settings_from(request) if request.method != "POST" else None,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            created = lobby.table_create_lobby(
                host_user=request.user,
                players=data["players"],
                teams=data["teams"],
                target=data["target"],
                public=data["public"],
                table_rules=data["rules"],
            )
        except TableError as refused:
            form.add_error(None, str(refused))
        else:
            table_prefs.remember_rules(request, form.remembered())
            return redirect("game:table", code=created.code)
    return render(request, "game/lobby_new.html", {"form": form})


# --- Seats and the start, from the table page ----------------------------------------------


def _seat_number(value: str | None) -> int | None:
    """A seat posted by a form: blank for any free seat; anything else but a number is
    refused (a forged form)."""
    try:
        return request_int(value, name="seat", digits=2)
    except BadNumber:
        raise TableError("pick a seat by its number") from None


def _required_seat(request: HttpRequest, missing: str) -> int:
    seat = _seat_number(request.POST.get("seat"))
    if seat is None:
        raise TableError(missing)
    return seat


def _join(request: HttpRequest, found: Table, owner: SeatOwner) -> None:
    seat = _seat_number(request.POST.get("seat"))
    lobby.table_join(table_id=found.pk, owner=owner, seat=seat)


def _leave(request: HttpRequest, found: Table, owner: SeatOwner) -> None:
    lobby.table_leave(table_id=found.pk, owner=owner)


def _bot(request: HttpRequest, found: Table, owner: SeatOwner) -> None:
    """The host seats a bot (``level`` names it) or takes one out (``level`` blank)."""
    seat = _required_seat(request, "pick a seat for the bot")
    level = request.POST.get("level", "").strip() or None
    lobby.table_set_bot(table_id=found.pk, host=owner, seat=seat, level=level)


def _free(request: HttpRequest, found: Table, owner: SeatOwner) -> None:
    """The host asks the person in ``seat`` to leave it."""
    seat = _required_seat(request, "pick the seat to free")
    lobby.table_free_seat(table_id=found.pk, host=owner, seat=seat)


def _close(request: HttpRequest, found: Table, owner: SeatOwner) -> None:
    lobby.table_close(table_id=found.pk, host=owner)


def _start(request: HttpRequest, found: Table, owner: SeatOwner) -> None:
    lobby.table_start(table_id=found.pk, host=owner)


# what each of the lobby panel's buttons does, by the ``do`` its form posts
LOBBY_ACTIONS: dict[str, Callable[[HttpRequest, Table, SeatOwner], None]] = {
    "join": _join,
    "leave": _leave,
    "bot": _bot,
    "free": _free,
    "close": _close,
    "start": _start,
}


@code_lookup
@require_POST
@for_htmx("table")
def table_lobby(request: HttpRequest, code: str) -> HttpResponse:
    """The lobby panel's one view: every button posts here, its form saying what it does
    (``do``); the answer is the table, with any refusal."""
    found = found_or_404(selectors.table_by_code(code), "table")
    if not request.user.is_authenticated:
        return _to_log_in(request, found)
    owner = request_owner(request)
    act = LOBBY_ACTIONS.get(request.POST.get("do", ""))
    error = None
    try:
        if act is None:
            raise TableError("the lobby does not know that button")
        act(request, found, owner)
    except TableError as refused:
        error = str(refused)
    return answer_table_form(request, found, owner, error)


def _to_log_in(request: HttpRequest, found: Table) -> HttpResponse:
    """A guest is sent to log in, then back to the table page (never to the POST-only
    address they used)."""
    target = redirect_to_login(reverse("game:table", args=[found.code]))
    if request.htmx:
        return HttpResponseClientRedirect(target.url)
    return target
