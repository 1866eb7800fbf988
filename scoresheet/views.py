"""Score sheet pages: thin function views. Services write, selectors read.

Every page works without JavaScript; with htmx, entering a hand swaps in the new
sheet and a fresh form instead of reloading the page.
"""

import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoresheet import selectors, services
from scoresheet.forms import HandForm, JoinForm, SheetForm, hand_initial
from smearsite.kernel import BadNumber, code_guard, request_int
from smearsite.kernel.code_guard import code_lookup

SHEET_TEMPLATE = "scoresheet/sheet.html"


def _sheet_context(request: HttpRequest, view: selectors.SheetView, form=None) -> dict:
    if form is None:
        form = HandForm(view=view, initial={"number": view.next_number})
    return {
        "view": view,
        "form": form,
        "members": selectors.members(sheet=view.sheet),
        "invite_url": request.build_absolute_uri(
            reverse("scoresheet:join_code", args=[view.sheet.invite_code])
        ),
        "watch_url": request.build_absolute_uri(
            reverse("scoresheet:watch", args=[view.sheet.watch_token])
        ),
    }


@login_required
@require_safe
def sheet_list(request: HttpRequest) -> HttpResponse:
    sheets = [
        selectors.sheet_view(sheet=sheet) for sheet in selectors.sheets_for_user(user=request.user)
    ]
    return render(request, "scoresheet/list.html", {"views": sheets})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def sheet_new(request: HttpRequest) -> HttpResponse:
    form = SheetForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            sheet = services.sheet_create(
                user=request.user,
                title=form.cleaned_data["title"],
                sides=form.cleaned_data["sides"],
                seats=form.cleaned_data["seats"],
                preset=form.cleaned_data["preset"],
                rules=form.cleaned_data["rules"],
            )
        except services.SheetError as error:
            form.add_error(None, str(error))
        else:
            return redirect("scoresheet:sheet", sheet_id=sheet.pk)
    return render(request, "scoresheet/new.html", {"form": form})


@login_required
@require_safe
def sheet_detail(request: HttpRequest, sheet_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, user=request.user)
    view = selectors.sheet_view(sheet=sheet)
    return render(request, SHEET_TEMPLATE, _sheet_context(request, view))


@login_required
@require_POST
def hand_add(request: HttpRequest, sheet_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, user=request.user)
    view = selectors.sheet_view(sheet=sheet)
    form = HandForm(request.POST, view=view)
    if form.is_valid():
        try:
            hand = services.hand_add(
                sheet_id=sheet.pk,
                user=request.user,
                expected_number=form.cleaned_data["number"],
                hand=form.cleaned_data["hand"],
            )
        except services.SheetError as error:
            form.add_error(None, str(error))
        else:
            sheet.refresh_from_db()
            view = selectors.sheet_view(sheet=sheet)
            saved = _saved_message(view, hand.number)
            if not request.htmx:
                messages.success(request, saved)
                return redirect("scoresheet:sheet", sheet_id=sheet.pk)
            context = _sheet_context(request, view)
            context["saved"] = saved
            return render(request, f"{SHEET_TEMPLATE}#live", context)
    context = _sheet_context(request, view, form)
    if request.htmx:
        return render(request, f"{SHEET_TEMPLATE}#live", context)
    return render(request, SHEET_TEMPLATE, context)


def _saved_message(view: selectors.SheetView, number: int) -> str:
    row = next(row for row in view.rows if row.number == number)
    result = "made it" if row.row.made else "missed"
    return f"Hand {number} is on the sheet: {row.bidder} bid {row.hand.bid} and {result}."


@login_required
@require_POST
def hand_preview(request: HttpRequest, sheet_id: int) -> HttpResponse:
    """What the sheet would show if this hand were entered: nothing is saved."""
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, user=request.user)
    view = selectors.sheet_view(sheet=sheet)
    form = HandForm(request.POST, view=view)
    preview = None
    if form.is_valid():
        preview = selectors.preview(view=view, hand=form.cleaned_data["hand"])
    return render(
        request, f"{SHEET_TEMPLATE}#preview", {"view": view, "form": form, "preview": preview}
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def hand_edit(request: HttpRequest, sheet_id: int, number: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, user=request.user)
    view = selectors.sheet_view(sheet=sheet)
    row = next((row for row in view.rows if row.number == number), None)
    if row is None:
        raise Http404("No such hand.")
    if request.method == "POST":
        form = HandForm(request.POST, view=view, version_field="revision")
        if form.is_valid():
            try:
                services.hand_edit(
                    sheet_id=sheet.pk,
                    user=request.user,
                    number=number,
                    revision=form.cleaned_data["revision"],
                    hand=form.cleaned_data["hand"],
                )
            except services.SheetError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, f"Hand {number} is changed; the sheet is tallied again.")
                return redirect("scoresheet:sheet", sheet_id=sheet.pk)
    else:
        form = HandForm(view=view, version_field="revision", initial=hand_initial(row.hand, view))
    return render(request, "scoresheet/edit.html", {"view": view, "row": row, "form": form})


@login_required
@require_POST
def hand_delete(request: HttpRequest, sheet_id: int, number: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, user=request.user)
    revision = _int(request.POST.get("revision"))
    try:
        services.hand_delete(sheet_id=sheet.pk, user=request.user, number=number, revision=revision)
    except services.SheetError as error:
        messages.error(request, str(error))
        return redirect("scoresheet:hand_edit", sheet_id=sheet.pk, number=number)
    messages.success(request, f"Hand {number} is deleted. The history can undo that.")
    return redirect("scoresheet:sheet", sheet_id=sheet.pk)


def _int(value: str | None) -> int:
    """A posted number; -1 (which every service refuses in words) when it is none."""
    try:
        found = request_int(value, name="number")
    except BadNumber:
        return -1
    return -1 if found is None else found


@login_required
@require_safe
def sheet_history(request: HttpRequest, sheet_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, user=request.user)
    view = selectors.sheet_view(sheet=sheet)
    return render(
        request,
        "scoresheet/history.html",
        {"view": view, "changes": selectors.history(sheet=sheet)},
    )


@login_required
@require_POST
def change_undo(request: HttpRequest, sheet_id: int, change_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, user=request.user)
    try:
        services.change_undo(sheet_id=sheet.pk, user=request.user, change_id=change_id)
    except services.SheetError as error:
        messages.error(request, str(error))
        return redirect("scoresheet:history", sheet_id=sheet.pk)
    messages.success(request, "Undone. The history keeps that too, so it can be redone.")
    return redirect("scoresheet:sheet", sheet_id=sheet.pk)


@login_required
@require_POST
def sheet_end(request: HttpRequest, sheet_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, user=request.user)
    try:
        services.sheet_end(
            sheet_id=sheet.pk, user=request.user, winner=_int(request.POST.get("winner"))
        )
    except services.SheetError as error:
        messages.error(request, str(error))
    else:
        view = selectors.sheet_view(sheet=sheet)
        messages.success(request, f"Match banked for {view.winner}.")
    return redirect("scoresheet:sheet", sheet_id=sheet.pk)


@login_required
@require_POST
def sheet_strike(request: HttpRequest, sheet_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, user=request.user)
    try:
        services.sheet_strike(sheet_id=sheet.pk, user=request.user)
    except services.SheetError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "Match struck: nobody banks it.")
    return redirect("scoresheet:sheet", sheet_id=sheet.pk)


@login_required
@require_POST
def sheet_codes(request: HttpRequest, sheet_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, user=request.user)
    try:
        services.sheet_codes_rotate(sheet_id=sheet.pk, user=request.user)
    except services.SheetError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "New invite code and link: the old ones no longer work.")
    return redirect("scoresheet:sheet", sheet_id=sheet.pk)


@login_required
@require_POST
def sheet_rematch(request: HttpRequest, sheet_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, user=request.user)
    try:
        rematch = services.sheet_rematch(sheet_id=sheet.pk, user=request.user)
    except services.SheetError as error:
        messages.error(request, str(error))
        return redirect("scoresheet:sheet", sheet_id=sheet.pk)
    messages.success(request, "Rematch: same sides, a clean sheet.")
    return redirect("scoresheet:sheet", sheet_id=rematch.pk)


# --- Joining --------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def join(request: HttpRequest) -> HttpResponse:
    form = JoinForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        if not code_guard.request_may_look_up(request):
            return code_guard.too_many_guesses(request)
        try:
            sheet = services.member_join(code=form.cleaned_data["code"], user=request.user)
        except services.SheetError as error:
            code_guard.request_missed(request)
            form.add_error("code", str(error))
        else:
            messages.success(request, "You are on this sheet: you can enter hands.")
            return redirect("scoresheet:sheet", sheet_id=sheet.pk)
    return render(request, "scoresheet/join.html", {"form": form})


@login_required
@code_lookup
@require_http_methods(["GET", "HEAD", "POST"])
def join_code(request: HttpRequest, code: str) -> HttpResponse:
    """An invite link: shows the sheet's sides and asks before joining (a POST)."""
    sheet = selectors.sheet_for_invite_code(code=code)
    if sheet is None:
        raise Http404("No sheet has that code.")
    if request.method == "POST":
        services.member_join(code=code, user=request.user)
        messages.success(request, "You are on this sheet: you can enter hands.")
        return redirect("scoresheet:sheet", sheet_id=sheet.pk)
    view = selectors.sheet_view(sheet=sheet)
    return render(request, "scoresheet/join_code.html", {"view": view, "code": code})


# --- The read-only live link ----------------------------------------------------------


@require_safe
def watch(request: HttpRequest, token: str) -> HttpResponse:
    view = selectors.sheet_view(sheet=selectors.sheet_for_watch_token(token=token))
    return render(request, "scoresheet/watch.html", {"view": view, "token": token})


@require_safe
def watch_sheet(request: HttpRequest, token: str) -> HttpResponse:
    """The sheet alone, for the live page to poll when its websocket is down."""
    view = selectors.sheet_view(sheet=selectors.sheet_for_watch_token(token=token))
    return render(request, "scoresheet/watch.html#watched", {"view": view, "token": token})


# --- Exports ----------------------------------------------------------------------------


def _filename(view: selectors.SheetView, extension: str) -> str:
    return f"{slugify(view.title)[:60] or 'sheet'}-{view.sheet.pk}.{extension}"


@login_required
@require_safe
def export_csv(request: HttpRequest, sheet_id: int) -> HttpResponse:
    view = selectors.sheet_view(
        sheet=selectors.sheet_for_member(sheet_id=sheet_id, user=request.user)
    )
    header, rows = selectors.export_rows(view)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(view, "csv")}"'
    writer = csv.writer(response)
    writer.writerow([inert_cell(cell) for cell in header])
    writer.writerows([inert_cell(cell) for cell in row] for row in rows)
    return response


# a spreadsheet reads a cell that starts with one of these as a formula (OWASP's list)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert_cell(cell: object) -> object:
    """A text cell a spreadsheet shows as the text it is: a leading quote before a formula
    start, its look-alikes too (a full-width "\uff1d" is "=" once NFKC-normalised, as some
    spreadsheets read it). Numbers stay numbers (a negative standing is not a formula)."""
    import unicodedata

    if isinstance(cell, str) and unicodedata.normalize("NFKC", cell).startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


@login_required
@require_safe
def export_json(request: HttpRequest, sheet_id: int) -> HttpResponse:
    view = selectors.sheet_view(
        sheet=selectors.sheet_for_member(sheet_id=sheet_id, user=request.user)
    )
    response = JsonResponse(selectors.export_document(view), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{_filename(view, "json")}"'
    return response
