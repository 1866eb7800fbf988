"""How much a guest's score sheets may hold, like a guest's tables (``game.services.limits``).

A guest (no account, a token in its browser's session) keeps at most GUEST_SHEETS sheets
of GUEST_HANDS hands each, starts at most GUEST_STARTS_PER_ADDRESS a minute from one
address, and a sheet no signed-in member holds is deleted GUEST_SHEET_DAYS after its last
change (``manage.py prune_sheets``). Signing up or logging in makes a guest's sheets the
account's, and then none of this applies.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone

from scoresheet.models import Member, Sheet
from smearsite.kernel import ratelimit

GUEST_SHEETS = 10
GUEST_HANDS = 200  # a match to 21 takes about twenty; to 52, about fifty
GUEST_STARTS_PER_ADDRESS = 20
GUEST_SHEET_DAYS = 30


def guest_sheets_full(*, guest_token: str) -> bool:
    """Does this guest keep GUEST_SHEETS sheets already?"""
    held = Sheet.objects.filter(creator__isnull=True, creator_guest=guest_token).count()
    return held >= GUEST_SHEETS


def guest_start_allowed(*, address: str) -> bool:
    """Count a guest's new sheet from ``address``: False when they come too fast."""
    return ratelimit.allow(
        "sheet-start", f"address:{address}", limit=GUEST_STARTS_PER_ADDRESS, per_s=60
    )


def guest_sheets_to_prune(*, older_than: timedelta, now=None) -> QuerySet[Sheet]:
    """Sheets that no signed-in person made or joined, unchanged for ``older_than``."""
    now = now or timezone.now()
    held = Member.objects.filter(user__isnull=False).values("sheet_id")
    return Sheet.objects.filter(creator__isnull=True, updated_at__lte=now - older_than).exclude(
        pk__in=held
    )


def guest_sheets_prune(*, older_than: timedelta = timedelta(days=GUEST_SHEET_DAYS)) -> int:
    """Delete the guests' sheets nobody has changed for ``older_than``; how many."""
    ids = list(guest_sheets_to_prune(older_than=older_than).values_list("pk", flat=True))
    Sheet.objects.filter(pk__in=ids).delete()
    return len(ids)
