"""The table's chat over plain HTTP, for a page whose live connection is down (with the
connection open, a line goes up the table's socket). Thin: the chat service writes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from game import selectors
from game.players.identity import request_owner
from game.services import chat
from smearsite.kernel.code_guard import code_lookup
from smearsite.kernel.http import found_or_404

if TYPE_CHECKING:
    pass


def _back(code: str) -> HttpResponse:
    return redirect(f"/table/{code}/#chat")


@code_lookup
@require_POST
def table_chat(request: HttpRequest, code: str) -> HttpResponse:
    found = found_or_404(selectors.table_by_code(code), "table")
    try:
        chat.chat_say(
            table_id=found.pk,
            owner=request_owner(request, start_session=True),
            text=request.POST.get("text", ""),
            saying=request.POST.get("say") or None,
        )
    except chat.ChatRefused as refused:
        messages.error(request, str(refused))
    return _back(found.code)


@code_lookup
@require_POST
def table_chat_switch(request: HttpRequest, code: str) -> HttpResponse:
    found = found_or_404(selectors.table_by_code(code), "table")
    try:
        chat.chat_switch(
            table_id=found.pk, owner=request_owner(request), on=request.POST.get("on") == "1"
        )
    except chat.ChatRefused as refused:
        messages.error(request, str(refused))
    return _back(found.code)
