"""Which partial htmx gets, decided once, outside the views."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse


def for_htmx(partial: str) -> Callable:
    """A view's TemplateResponse renders only its template's ``partial`` for an htmx
    request (the page polling, or a form posted with htmx), the whole page otherwise."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            response = view(request, *args, **kwargs)
            if request.htmx and isinstance(response, TemplateResponse):
                response.template_name = f"{response.template_name}#{partial}"
            return response

        return wrapped

    return decorate
