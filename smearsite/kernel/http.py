"""The one place a domain error (smearsite.kernel) becomes an HTTP status."""

from __future__ import annotations

from smearsite.kernel import Conflict, DomainError, NotFound, TooMany

STATUS_FOR = ((NotFound, 404), (Conflict, 409), (TooMany, 429))


def status_for(error: DomainError) -> int:
    """404 for what does not exist, 409 for what changed meanwhile, 429 for more than a
    fair share, 400 for the rest."""
    return next((status for kind, status in STATUS_FOR if isinstance(error, kind)), 400)
