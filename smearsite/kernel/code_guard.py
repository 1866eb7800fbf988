"""Share and invite codes are capabilities: whoever holds a table's code may watch it, and a
sheet's invite code makes its holder a member who may edit. So guessing them is paced.

A lookup of a code that matches nothing is a *miss*. Each client address, and each
session, may miss SMEAR_CODE_MISSES times in CODE_MISS_WINDOW_S; past that every code
lookup it makes (hits too) is answered 429 in words until the window turns. A person who
mistypes a code a few times never notices; a guesser gets a few dozen tries an hour,
against codes of CODE_LENGTH characters (``smearsite.kernel``). Counts live in the
cache (shared between processes with REDIS_URL), by the same address rule as every
other limit (``smearsite.kernel.ratelimit``).
"""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from smearsite.kernel.ratelimit import request_address, scope_address, scope_session_cookie

CODE_MISS_WINDOW_S = 600
TOO_MANY_GUESSES = (
    "Too many codes that match nothing came from your connection. Check the code with the "
    "person who shared it, and try again in ten minutes."
)


def _keys(address: str, session: str | None) -> list[str]:
    window = int(time.time() // CODE_MISS_WINDOW_S)
    who = [f"address:{address}"] + ([f"session:{session}"] if session else [])
    return [f"code-miss:{hashlib.sha256(name.encode()).hexdigest()[:32]}:{window}" for name in who]


def _allowed(keys: list[str]) -> bool:
    return all((cache.get(key) or 0) < settings.SMEAR_CODE_MISSES for key in keys)


def _missed(keys: list[str]) -> None:
    for key in keys:
        if not cache.add(key, 1, timeout=CODE_MISS_WINDOW_S + 1):
            try:
                cache.incr(key)
            except ValueError:  # expired between the two calls
                cache.set(key, 1, timeout=CODE_MISS_WINDOW_S + 1)


def _request_keys(request: HttpRequest) -> list[str]:
    session = getattr(request, "session", None)
    return _keys(request_address(request), getattr(session, "session_key", None))


def request_may_look_up(request: HttpRequest) -> bool:
    return _allowed(_request_keys(request))


def request_missed(request: HttpRequest) -> None:
    _missed(_request_keys(request))


def scope_may_look_up(scope: dict) -> bool:
    """The same for a websocket's connection (synchronous: run it off the event loop)."""
    return _allowed(_keys(scope_address(scope), scope_session_cookie(scope)))


def scope_missed(scope: dict) -> None:
    _missed(_keys(scope_address(scope), scope_session_cookie(scope)))


def too_many_guesses(request: HttpRequest) -> HttpResponse:
    return render(request, "429.html", {"reason": TOO_MANY_GUESSES}, status=429)


def code_lookup(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a view that finds something by a code in its URL: paced as above, a 404 (an
    answer or a raised one) counted as a miss."""

    @functools.wraps(view)
    def paced(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request_may_look_up(request):
            return too_many_guesses(request)
        try:
            response = view(request, *args, **kwargs)
        except Http404:
            request_missed(request)
            raise
        if response.status_code == 404:
            request_missed(request)
        return response

    return paced
