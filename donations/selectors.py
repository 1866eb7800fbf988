"""Selectors: read donations, never write them."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from donations.models import Donation

SUPPORTERS_SHOWN = 200


def donation_for_session(*, session_id: str) -> Donation | None:
    if not session_id:
        return None
    return Donation.objects.filter(checkout_session_id=session_id).first()


def user_is_supporter(*, user: AbstractBaseUser | AnonymousUser) -> bool:
    """A signed-in user with at least one paid donation."""
    if not user.is_authenticated:
        return False
    return Donation.objects.filter(user=user, status=Donation.Status.PAID).exists()


def supporters(*, limit: int = SUPPORTERS_SHOWN) -> QuerySet[Donation]:
    """Paid donations whose donors asked to be listed, newest first."""
    return Donation.objects.filter(status=Donation.Status.PAID, list_publicly=True).order_by(
        "-created"
    )[:limit]
