"""The one place a domain error (smearsite.kernel) becomes an HTTP status."""

from __future__ import annotations

from typing import TypeVar

from django.http import Http404

from smearsite.kernel import Conflict, DomainError, NotFound, TooMany

Found = TypeVar("Found")

STATUS_FOR = ((NotFound, 404), (Conflict, 409), (TooMany, 429))


def status_for(error: DomainError) -> int:
    """404 for what does not exist, 409 for what changed meanwhile, 429 for more than a
    fair share, 400 for the rest."""
    return next((status for kind, status in STATUS_FOR if isinstance(error, kind)), 400)


def found_or_404(found: Found | None, what: str) -> Found:
    """What a selector found, or a 404 that says ``what`` was not."""
    if found is None:
        raise Http404(f"no such {what}")
    return found
