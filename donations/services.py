"""Services: the only code that writes donations. Keyword-only, named <thing>_<verb>."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from donations import amounts, stripe_client
from donations.models import Donation, WebhookEvent
from smearsite.kernel import BadNumber, request_int

logger = logging.getLogger(__name__)

# In every session's metadata: tells our sessions apart from others on the same account.
METADATA_APP = "smear-donations"
PRODUCT_NAME = "Donation to the Smear web site"
# Stripe closes an unpaid checkout this long after it was created (30 min at the least);
# a pending donation older than that, and a margin for the webhook, will never be paid
CHECKOUT_LIFETIME = timedelta(hours=1)
EXPIRE_MARGIN = timedelta(minutes=15)


@dataclass(frozen=True)
class CheckoutStart:
    donation: Donation
    # where to send the donor: Stripe's payment page
    redirect_url: str


def _idempotency_key(*, attempt: str, **request: object) -> str:
    """The same form, sent twice (a double click), gets the same session back from Stripe.

    ``attempt`` is minted when the form is drawn; the rest is what the donor chose, so
    going back and changing the amount or the message starts a new session instead of
    colliding with the old one.
    """
    text = "|".join([attempt, *(f"{key}={request[key]}" for key in sorted(request))])
    return "donation-" + hashlib.sha256(text.encode()).hexdigest()[:48]


def donation_checkout_start(
    *,
    units: int,
    user: AbstractBaseUser | AnonymousUser,
    name: str,
    message: str,
    list_publicly: bool,
    attempt: str,
) -> CheckoutStart:
    """Create the Stripe Checkout Session and our pending Donation for it.

    Raises ``stripe_client.Unavailable`` (nothing is recorded) when Stripe says no.
    """
    currency = settings.STRIPE_CURRENCY
    amount = amounts.to_minor(units, currency)
    user_id = user.pk if user.is_authenticated else None
    metadata = {"app": METADATA_APP}
    if user_id is not None:
        metadata["user_id"] = str(user_id)
    session = stripe_client.checkout_session_create(
        amount=amount,
        currency=currency,
        product_name=PRODUCT_NAME,
        # Stripe puts the session id in place of {CHECKOUT_SESSION_ID}
        success_url=f"{settings.SITE_URL}{reverse('donations:thanks')}"
        "?session_id={CHECKOUT_SESSION_ID}",
        cancel_url=f"{settings.SITE_URL}{reverse('donations:donate')}?cancelled=1",
        metadata=metadata,
        expires_at=int((timezone.now() + CHECKOUT_LIFETIME).timestamp()),
        idempotency_key=_idempotency_key(
            attempt=attempt,
            amount=amount,
            currency=currency,
            user=user_id,
            name=name,
            message=message,
            list_publicly=list_publicly,
        ),
    )
    # a repeated form gets the same session back: keep the one donation already recorded
    donation, _ = Donation.objects.get_or_create(
        checkout_session_id=session.id,
        defaults={
            "amount": amount,
            "currency": currency,
            "user_id": user_id,
            "name": name,
            "message": message,
            "list_publicly": list_publicly,
        },
    )
    redirect_url = session.url or f"{settings.SITE_URL}{reverse('donations:thanks')}"
    return CheckoutStart(donation=donation, redirect_url=redirect_url)


def donations_expire_stale() -> int:
    """Pending donations whose checkout Stripe has closed by now become expired (the
    webhook's ``expired`` event may be lost or never configured); how many."""
    cutoff = timezone.now() - CHECKOUT_LIFETIME - EXPIRE_MARGIN
    return Donation.objects.filter(status=Donation.Status.PENDING, created__lt=cutoff).update(
        status=Donation.Status.EXPIRED, updated=timezone.now()
    )


# --- Webhook ------------------------------------------------------------------------


def _donation_for(session: stripe_client.CheckoutSession) -> Donation | None:
    """Our record of the session; rebuilt from Stripe's data if only our write was lost."""
    donation = Donation.objects.filter(checkout_session_id=session.id).first()
    # found, or not ours at all (another product on the same Stripe account)
    if donation is not None or session.metadata.get("app") != METADATA_APP:
        return donation
    try:  # our own metadata, but checked like any number: a huge one would overflow
        user_id = request_int(session.metadata.get("user_id"), name="user id", digits=18)
    except BadNumber:
        user_id = None
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    logger.warning("Checkout Session %s had no donation record; recorded it now", session.id)
    donation, _ = Donation.objects.get_or_create(
        checkout_session_id=session.id,
        defaults={
            "amount": session.amount_total or 0,
            "currency": session.currency or settings.STRIPE_CURRENCY,
            "user": user,
        },
    )
    return donation


def _settle(session: stripe_client.CheckoutSession, status: Donation.Status) -> None:
    donation = _donation_for(session)
    if donation is None:
        return
    changes = {"status": status, "updated": timezone.now()}
    charged = (session.amount_total, session.currency or donation.currency)
    if status == Donation.Status.PAID and session.amount_total is not None:
        # what Stripe took is what we record
        changes.update(amount=charged[0], currency=charged[1])
    # paid, failed and expired are final: a late or out-of-order event changes nothing,
    # except that a payment Stripe confirms late overrides our own expiry of a stale row
    open_statuses = [Donation.Status.PENDING]
    if status == Donation.Status.PAID:
        open_statuses.append(Donation.Status.EXPIRED)
    settled = Donation.objects.filter(pk=donation.pk, status__in=open_statuses).update(**changes)
    if settled and "amount" in changes and charged != (donation.amount, donation.currency):
        logger.warning("Checkout Session %s was paid another amount than we asked", session.id)


def _session_completed(session: stripe_client.CheckoutSession) -> None:
    # a delayed payment method (a bank debit) completes the session unpaid; its outcome
    # comes later as async_payment_succeeded or async_payment_failed
    if session.payment_status == "paid":
        _settle(session, Donation.Status.PAID)
    else:
        _donation_for(session)


def _async_payment_succeeded(session: stripe_client.CheckoutSession) -> None:
    _settle(session, Donation.Status.PAID)


def _async_payment_failed(session: stripe_client.CheckoutSession) -> None:
    _settle(session, Donation.Status.FAILED)


def _session_expired(session: stripe_client.CheckoutSession) -> None:
    _settle(session, Donation.Status.EXPIRED)


_HANDLERS: dict[str, Callable[[stripe_client.CheckoutSession], None]] = {
    "checkout.session.completed": _session_completed,
    "checkout.session.async_payment_succeeded": _async_payment_succeeded,
    "checkout.session.async_payment_failed": _async_payment_failed,
    "checkout.session.expired": _session_expired,
}


def webhook_event_handle(*, event: stripe_client.Event) -> str:
    """Apply a verified Stripe event once: 'processed', 'ignored' or 'duplicate'.

    The event id is recorded in the same transaction as its effect, so a failure leaves
    neither (and Stripe's retry starts afresh) and a redelivery finds the id and stops.
    """
    handler = _HANDLERS.get(event.type)
    with transaction.atomic():
        try:
            with transaction.atomic():
                WebhookEvent.objects.create(stripe_event_id=event.id, type=event.type)
        except IntegrityError:
            return "duplicate"
        if handler is None or event.session is None:
            return "ignored"
        handler(event.session)
    return "processed"
