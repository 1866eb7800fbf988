"""Score sheet pages: thin function views. Services write, selectors read.

Every page works without JavaScript; with htmx, entering a hand swaps in the new
sheet and a fresh form instead of reloading the page.
"""

import csv
import hashlib
import json
import re
import uuid
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.template import Context, Template
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from game.players.identity import request_owner
from scoresheet import limits, selectors, services
from scoresheet.forms import HandForm, JoinForm, SheetForm, hand_initial
from smearsite.kernel import BadNumber, code_guard, ratelimit, request_int
from smearsite.kernel.code_guard import code_lookup

SHEET_TEMPLATE = "scoresheet/sheet.html"


def _sheet_context(request: HttpRequest, view: selectors.SheetView, form=None) -> dict:
    if form is None:
        form = HandForm(view=view, initial={"number": view.next_number, "client_id": uuid.uuid4()})
    return {
        "view": view,
        "form": form,
        "is_creator": selectors.is_creator(view.sheet, request_owner(request)),
        "sheet_data": selectors.page_data(view),
        "members": selectors.members(sheet=view.sheet),
        "board": selectors.board_link(view),
        "invite_url": request.build_absolute_uri(
            reverse("scoresheet:join_code", args=[view.sheet.invite_code])
        ),
        "watch_url": request.build_absolute_uri(
            reverse("scoresheet:watch", args=[view.sheet.watch_token])
        ),
    }


@require_safe
def sheet_list(request: HttpRequest) -> HttpResponse:
    sheets = [
        selectors.sheet_view(sheet=sheet)
        for sheet in selectors.sheets_for_owner(owner=request_owner(request))
    ]
    return render(request, "scoresheet/list.html", {"views": sheets})


@require_http_methods(["GET", "HEAD", "POST"])
def sheet_new(request: HttpRequest) -> HttpResponse:
    form = SheetForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        guest = not request.user.is_authenticated
        if guest and not limits.guest_start_allowed(address=ratelimit.request_address(request)):
            return render(request, "429.html", status=429)
        try:
            sheet = services.sheet_create(
                owner=request_owner(request, start_session=True),
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


@require_safe
def sheet_detail(request: HttpRequest, sheet_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, owner=request_owner(request))
    view = selectors.sheet_view(sheet=sheet)
    return render(request, SHEET_TEMPLATE, _sheet_context(request, view))


@require_POST
def hand_add(request: HttpRequest, sheet_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, owner=request_owner(request))
    view = selectors.sheet_view(sheet=sheet)
    form = HandForm(request.POST, view=view)
    if form.is_valid():
        try:
            hand = services.hand_add(
                sheet_id=sheet.pk,
                owner=request_owner(request),
                expected_number=form.cleaned_data["number"],
                hand=form.cleaned_data["hand"],
                client_id=form.cleaned_data.get("client_id"),
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


def _posted(fields: list) -> QueryDict:
    """A hand form's fields sent as ``[name, value]`` pairs, as a form post holds them."""
    data = QueryDict(mutable=True)
    for name, value in fields:
        if not isinstance(name, str) or not isinstance(value, str):
            raise TypeError("fields are pairs of text")
        data.appendlist(name, value)
    return data


@require_POST
def hands_sync(request: HttpRequest, sheet_id: int) -> JsonResponse:
    """The hands a phone kept while offline, sent together as JSON: ``{"hands": [...]}``,
    each the hand form's fields as ``[name, value]`` pairs, with the phone's
    ``client_id`` and, as ``number``, the number the phone showed. A hand sent twice is
    stored once. The answer: each hand's number on the sheet, or the error."""
    owner = request_owner(request)
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, owner=owner)
    view = selectors.sheet_view(sheet=sheet)
    try:
        sent = json.loads(request.body)["hands"]
        forms = [HandForm(_posted(fields), view=view) for fields in sent]
    except (ValueError, KeyError, TypeError):
        return JsonResponse({"error": 'Send {"hands": [[[name, value], ...], ...]}.'}, status=400)
    kept = []
    for form in forms:
        if not form.is_valid() or form.cleaned_data.get("client_id") is None:
            errors = [str(e) for errors in form.errors.values() for e in errors]
            return JsonResponse(
                {"error": " ".join(errors) or "A hand has no client_id."}, status=400
            )
        kept.append(
            services.KeptHand(
                client_id=form.cleaned_data["client_id"],
                entered_as=form.cleaned_data["number"],
                hand=form.cleaned_data["hand"],
            )
        )
    try:
        stored = services.hands_sync(sheet_id=sheet.pk, owner=owner, kept=kept)
    except services.SheetError as error:
        return JsonResponse({"error": str(error)}, status=409)
    hands = [
        {"number": hand.number, "client_id": str(hand.client_id), "created": created}
        for hand, created in stored
    ]
    created = any(one["created"] for one in hands)
    return JsonResponse({"hands": hands}, status=201 if created else 200)


def _saved_message(view: selectors.SheetView, number: int) -> str:
    row = next(row for row in view.rows if row.number == number)
    result = "made it" if row.row.made else "missed"
    return f"Hand {number} is on the sheet: {row.bidder} bid {row.hand.bid} and {result}."


@require_POST
def hand_preview(request: HttpRequest, sheet_id: int) -> HttpResponse:
    """What the sheet would show if this hand were entered: nothing is saved."""
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, owner=request_owner(request))
    view = selectors.sheet_view(sheet=sheet)
    form = HandForm(request.POST, view=view)
    preview = None
    if form.is_valid():
        preview = selectors.preview(view=view, hand=form.cleaned_data["hand"])
    return render(
        request, f"{SHEET_TEMPLATE}#preview", {"view": view, "form": form, "preview": preview}
    )


@require_http_methods(["GET", "HEAD", "POST"])
def hand_edit(request: HttpRequest, sheet_id: int, number: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, owner=request_owner(request))
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
                    owner=request_owner(request),
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


@require_POST
def hand_delete(request: HttpRequest, sheet_id: int, number: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, owner=request_owner(request))
    revision = _int(request.POST.get("revision"))
    try:
        services.hand_delete(
            sheet_id=sheet.pk, owner=request_owner(request), number=number, revision=revision
        )
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


@require_safe
def sheet_history(request: HttpRequest, sheet_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, owner=request_owner(request))
    view = selectors.sheet_view(sheet=sheet)
    return render(
        request,
        "scoresheet/history.html",
        {"view": view, "changes": selectors.history(sheet=sheet)},
    )


@require_POST
def change_undo(request: HttpRequest, sheet_id: int, change_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, owner=request_owner(request))
    try:
        services.change_undo(sheet_id=sheet.pk, owner=request_owner(request), change_id=change_id)
    except services.SheetError as error:
        messages.error(request, str(error))
        return redirect("scoresheet:history", sheet_id=sheet.pk)
    messages.success(request, "Undone. The history keeps that too, so it can be redone.")
    return redirect("scoresheet:sheet", sheet_id=sheet.pk)


@require_POST
def sheet_end(request: HttpRequest, sheet_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, owner=request_owner(request))
    try:
        services.sheet_end(
            sheet_id=sheet.pk, owner=request_owner(request), winner=_int(request.POST.get("winner"))
        )
    except services.SheetError as error:
        messages.error(request, str(error))
    else:
        view = selectors.sheet_view(sheet=sheet)
        messages.success(request, f"Match banked for {view.winner}.")
    return redirect("scoresheet:sheet", sheet_id=sheet.pk)


@require_POST
def sheet_strike(request: HttpRequest, sheet_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, owner=request_owner(request))
    try:
        services.sheet_strike(sheet_id=sheet.pk, owner=request_owner(request))
    except services.SheetError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "Match struck: nobody banks it.")
    return redirect("scoresheet:sheet", sheet_id=sheet.pk)


@require_POST
def sheet_codes(request: HttpRequest, sheet_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, owner=request_owner(request))
    try:
        services.sheet_codes_rotate(sheet_id=sheet.pk, owner=request_owner(request))
    except services.SheetError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "New invite code and link: the old ones no longer work.")
    return redirect("scoresheet:sheet", sheet_id=sheet.pk)


@require_POST
def sheet_rematch(request: HttpRequest, sheet_id: int) -> HttpResponse:
    sheet = selectors.sheet_for_member(sheet_id=sheet_id, owner=request_owner(request))
    try:
        rematch = services.sheet_rematch(sheet_id=sheet.pk, owner=request_owner(request))
    except services.SheetError as error:
        messages.error(request, str(error))
        return redirect("scoresheet:sheet", sheet_id=sheet.pk)
    messages.success(request, "Rematch: same sides, a clean sheet.")
    return redirect("scoresheet:sheet", sheet_id=rematch.pk)


# --- Joining --------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def join(request: HttpRequest) -> HttpResponse:
    form = JoinForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        if not code_guard.request_may_look_up(request):
            return code_guard.too_many_guesses(request)
        try:
            sheet = services.member_join(
                code=form.cleaned_data["code"], owner=request_owner(request, start_session=True)
            )
        except services.SheetError as error:
            code_guard.request_missed(request)
            form.add_error("code", str(error))
        else:
            messages.success(request, "You are on this sheet: you can enter hands.")
            return redirect("scoresheet:sheet", sheet_id=sheet.pk)
    return render(request, "scoresheet/join.html", {"form": form})


@code_lookup
@require_http_methods(["GET", "HEAD", "POST"])
def join_code(request: HttpRequest, code: str) -> HttpResponse:
    """An invite link: shows the sheet's sides and asks before joining (a POST)."""
    sheet = selectors.sheet_for_invite_code(code=code)
    if sheet is None:
        raise Http404("No sheet has that code.")
    if request.method == "POST":
        services.member_join(code=code, owner=request_owner(request, start_session=True))
        messages.success(request, "You are on this sheet: you can enter hands.")
        return redirect("scoresheet:sheet", sheet_id=sheet.pk)
    view = selectors.sheet_view(sheet=sheet)
    return render(request, "scoresheet/join_code.html", {"view": view, "code": code})


# --- The read-only live link ----------------------------------------------------------


@require_safe
def watch(request: HttpRequest, token: str) -> HttpResponse:
    view = selectors.sheet_view(sheet=selectors.sheet_for_watch_token(token=token))
    context = {"view": view, "token": token, "sheet_data": selectors.page_data(view)}
    return render(request, "scoresheet/watch.html", context)


@require_safe
def watch_sheet(request: HttpRequest, token: str) -> HttpResponse:
    """The sheet alone, for the live page to poll when its websocket is down."""
    view = selectors.sheet_view(sheet=selectors.sheet_for_watch_token(token=token))
    context = {"view": view, "token": token, "sheet_data": selectors.page_data(view)}
    return render(request, "scoresheet/watch.html#watched", context)


# --- Exports ----------------------------------------------------------------------------


def _filename(view: selectors.SheetView, extension: str) -> str:
    return f"{slugify(view.title)[:60] or 'sheet'}-{view.sheet.pk}.{extension}"


@require_safe
def export_csv(request: HttpRequest, sheet_id: int) -> HttpResponse:
    view = selectors.sheet_view(
        sheet=selectors.sheet_for_member(sheet_id=sheet_id, owner=request_owner(request))
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


@require_safe
def export_json(request: HttpRequest, sheet_id: int) -> HttpResponse:
    view = selectors.sheet_view(
        sheet=selectors.sheet_for_member(sheet_id=sheet_id, owner=request_owner(request))
    )
    response = JsonResponse(selectors.export_document(view), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{_filename(view, "json")}"'
    return response


# --- The app on the phone: its service worker, manifest and offline page ----------------

# the files every score sheet page loads, kept on the phone by the service worker (a test
# checks that each script and stylesheet of the sheet's pages is among them)
APP_FILES = (
    "css/site.css",
    "scoresheet/scoresheet.css",
    "js/local-time.js",
    "scoresheet/ledger.js",
    "scoresheet/sheet.js",
    "scoresheet/chart.js",
    "scoresheet/watch.js",
    "django_htmx/ext/hx-ws-2.min.js",
    "favicon.svg",
    "scoresheet/icons/icon.svg",
    "scoresheet/icons/icon-192.png",
    "scoresheet/icons/icon-512.png",
)


def _htmx_files() -> list[str]:
    """The htmx script(s) ``{% htmx_script %}`` puts in every page."""
    html = Template("{% load django_htmx %}{% htmx_script %}").render(Context())
    return re.findall(r'src="([^"]+)"', html)


def app_file_urls() -> list[str]:
    return [*_htmx_files(), *(static(name) for name in APP_FILES)]


def _version(urls: list[str]) -> str:
    """Changes whenever a file the worker keeps changes (its URL or, unhashed, its bytes)."""
    digest = hashlib.sha256()
    for url in urls:
        digest.update(url.encode())
        found = finders.find(url.removeprefix(settings.STATIC_URL).removeprefix("/static/"))
        if found:
            digest.update(Path(found).read_bytes())
    digest.update(render_to_string("scoresheet/sw.js", {"version": "", "files": "[]"}).encode())
    return digest.hexdigest()[:16]


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served under /sheets/ so that its scope covers the sheets."""
    urls = app_file_urls()
    response = render(
        request,
        "scoresheet/sw.js",
        {"version": _version(urls), "files": json.dumps(urls)},
        content_type="text/javascript; charset=utf-8",
    )
    # a phone checks for a new worker on every visit; never a stale one from a cache
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the score sheet installs on a phone's home screen."""
    document = {
        "name": "Smear score sheet",
        "short_name": "Smear sheet",
        "description": "Keep score of a game of Smear played at the table, with or without signal.",
        "start_url": reverse("scoresheet:list"),
        "scope": reverse("scoresheet:list"),
        "display": "standalone",
        "background_color": "#f7f3ea",
        "theme_color": "#1d5c3a",
        "icons": [
            {
                "src": static(f"scoresheet/icons/icon-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
            }
            for size in (192, 512)
        ]
        + [
            {
                "src": static("scoresheet/icons/icon.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
                "purpose": "any",
            }
        ],
    }
    return JsonResponse(document, content_type="application/manifest+json")


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the phone shows for a sheet page it never kept, when there is no network."""
    return render(request, "scoresheet/offline.html")
