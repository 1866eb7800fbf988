"""The analysis board's pages: set up a position, open a board by its notation, ask for
its answers, follow them. Open to everyone, no account.

Thin views: the forms judge the position (through the engine), the services queue the
answers within the visitor's budget, the selectors read them back. A GET writes nothing:
a board's page only reads what is stored, and asking is a POST.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from game.engine import board_notation
from game.engine.board import BoardError, Replayed
from learn.analysis_board import answers, forms, moves, selectors, services
from learn.round_review import worker
from smearsite.kernel import ratelimit

NEW = "learn/analysis_new.html"
PAGE = "learn/analysis_board.html"
CARRIED = ("dealer", "scores", "seat")  # the position's fields a table step passes on


@require_http_methods(["GET", "HEAD", "POST"])
def board_new(request: HttpRequest) -> HttpResponse:
    """The form: the table first, then the position with the hands tapped in."""
    if request.method == "POST":
        form = forms.BoardForm(request.POST)
        if form.is_valid():
            replayed = forms.replayed_of(form)
            return redirect("analysis:board", notation=board_notation.write(replayed.board))
        context = _form_context(form, forms.TableSetupForm(request.POST))
        return render(request, NEW, context, status=400)
    error = ""
    if "board" in request.GET:
        try:
            board = board_notation.read(request.GET["board"])
            form = forms.BoardForm(initial=forms.initial_of(board))
            return render(request, NEW, _position(form, board.rules, board.teams))
        except (BoardError, ValueError) as refused:
            error = getattr(refused, "reason", str(refused))
    # a link from elsewhere (a score sheet) may set the position's dealer and score before
    # the table is chosen: the table's step carries them on
    carried = [(name, request.GET[name]) for name in CARRIED if name in request.GET]
    if "players" in request.GET:
        setup = forms.TableSetupForm(request.GET)
        if setup.is_valid():
            form = forms.BoardForm(initial=request.GET.dict())
            return render(request, NEW, _form_context(form, setup))
        return render(request, NEW, {"setup": setup, "carried": carried})
    setup = forms.TableSetupForm(initial=request.GET.dict() if "board" not in request.GET else {})
    return render(request, NEW, {"setup": setup, "error": error, "carried": carried})


@require_safe
def board_moves(request: HttpRequest) -> HttpResponse:
    """What can be tapped next at the end of the round typed so far (the form's fields, as
    they stand): the legal calls, or the cards. The form asks it as the round changes."""
    form = forms.BoardForm(request.GET)
    if form.is_valid():
        context = {"moves": moves.next_moves(forms.replayed_of(form))}
    else:
        context = {"moves": None, "refused": form.errors.get("actions", [""])[0]}
    return render(request, f"{NEW}#moves", context)


def _form_context(form: forms.BoardForm, setup: forms.TableSetupForm) -> dict:
    if not setup.is_valid() or "rules" not in setup.cleaned_data:
        return {"setup": setup, "form": None}
    return _position(form, setup.cleaned_data["rules"], setup.cleaned_data["teams"])


def _position(form: forms.BoardForm, rules, teams) -> dict:
    players = sum(len(unit) for unit in teams)
    return {
        "form": form,
        "deck": forms.deck_codes(rules, teams),
        "hands": [(seat, form[f"hand_{seat}"]) for seat in range(players)],
        "fill": form["fill"] if forms.draws_from_pack(rules) else None,
    }


def _replayed(notation: str) -> Replayed:
    return answers.read(notation)


@require_safe
def board(request: HttpRequest, notation: str) -> HttpResponse:
    try:
        replayed = _replayed(notation)
    except BoardError as refused:
        return render(request, PAGE, {"refused": refused.reason, "notation": notation}, status=400)
    context = _page_context(replayed, notation)
    template = f"{PAGE}#answers" if request.htmx else PAGE
    return render(request, template, context)


@require_POST
def board_ask(request: HttpRequest, notation: str) -> HttpResponse:
    try:
        replayed = _replayed(notation)
    except BoardError as refused:
        return render(request, PAGE, {"refused": refused.reason, "notation": notation}, status=400)
    try:
        services.board_ask(replayed=replayed, address=ratelimit.request_address(request))
    except services.TooManyAnswers as refused:
        return render(request, "429.html", {"reason": str(refused)}, status=429)
    return redirect("analysis:board", notation=notation)


def _page_context(replayed: Replayed, notation: str) -> dict:
    page = selectors.board_page(replayed=replayed, notation=notation)
    return {
        "page": page,
        "notation": notation,
        "worker_running": not page.waiting or worker.worker_running(),
    }
