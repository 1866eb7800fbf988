"""Everything that talks to Stripe, and the only module that imports ``stripe``.

The rest of the app sees plain dataclasses and our own exceptions, never a Stripe object.
The keys come from the settings (``STRIPE_SECRET_KEY``, ``STRIPE_WEBHOOK_SECRET``, read
from the environment) and are never logged: errors are logged by class and code only.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field

import stripe
from django.conf import settings

logger = logging.getLogger(__name__)

# a stuck Stripe must not hold a request (and a worker) for the library's default 80 s
TIMEOUT_SECONDS = 20
# retries are safe: every session we create carries an idempotency key
NETWORK_RETRIES = 2


class NotConfigured(Exception):
    """STRIPE_SECRET_KEY or STRIPE_WEBHOOK_SECRET is not set."""


class Unavailable(Exception):
    """Stripe refused the request or could not be reached."""


class BadWebhook(Exception):
    """A webhook whose signature does not verify, or that is not a Stripe event at all."""


class MalformedEvent(Exception):
    """A correctly signed event whose fields are not what Stripe documents (a list for the
    metadata, text for an amount, an id too long to store): acknowledged, logged, and
    otherwise ignored: a retry would be just as malformed."""


# what our columns hold (donations.models): anything longer is not one of Stripe's
MAX_ID_CHARS = 255
MAX_TYPE_CHARS = 100
MAX_METADATA_CHARS = 500


@dataclass(frozen=True)
class CheckoutSession:
    id: str
    url: str | None
    payment_status: str = "unpaid"
    amount_total: int | None = None
    currency: str = ""
    metadata: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Event:
    id: str
    type: str
    # the event's object when it is a Checkout Session, else None
    session: CheckoutSession | None


CHECKOUT_ORIGIN = "https://checkout.stripe.com"


def checkout_origin() -> str:
    """Where the donate form's answer redirects the browser (a local fake in tests)."""
    return settings.STRIPE_API_BASE or CHECKOUT_ORIGIN


def is_configured() -> bool:
    """Both keys are needed: without the webhook secret no payment could be confirmed."""
    return bool(settings.STRIPE_SECRET_KEY.strip() and settings.STRIPE_WEBHOOK_SECRET.strip())


def _client() -> stripe.StripeClient:
    if not is_configured():
        raise NotConfigured("STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must both be set")
    base_addresses = {"api": settings.STRIPE_API_BASE} if settings.STRIPE_API_BASE else None
    return stripe.StripeClient(
        settings.STRIPE_SECRET_KEY.strip(),
        base_addresses=base_addresses,
        max_network_retries=NETWORK_RETRIES,
        http_client=stripe.RequestsClient(timeout=TIMEOUT_SECONDS),
    )


def _session_from(values: dict) -> CheckoutSession:
    """A Checkout Session from Stripe's JSON, checked field by field (MalformedEvent)."""
    session_id = values.get("id")
    metadata = values.get("metadata") or {}
    amount = values.get("amount_total")
    currency = values.get("currency") or ""
    url = values.get("url")
    status = values.get("payment_status") or "unpaid"
    if not _text(session_id, MAX_ID_CHARS) or not session_id:
        raise MalformedEvent("the session id is not a short text")
    if not isinstance(metadata, dict) or not all(
        _text(key, MAX_METADATA_CHARS) and _text(value, MAX_METADATA_CHARS)
        for key, value in metadata.items()
    ):
        raise MalformedEvent("the metadata is not a map of short texts")
    if amount is not None and (
        not isinstance(amount, int) or isinstance(amount, bool) or not 0 <= amount < 2**31
    ):
        raise MalformedEvent("the amount is not a whole number of minor units")
    if not _text(currency, 3) or not _text(status, MAX_TYPE_CHARS):
        raise MalformedEvent("the currency or the payment status is not a short text")
    if url is not None and not _text(url, 5000):
        raise MalformedEvent("the url is not a text")
    return CheckoutSession(
        id=session_id,
        url=url,
        payment_status=status,
        amount_total=amount,
        currency=currency,
        metadata=dict(metadata),
    )


def _text(value: object, max_chars: int) -> bool:
    return isinstance(value, str) and len(value) <= max_chars


def checkout_session_create(
    *,
    amount: int,
    currency: str,
    product_name: str,
    success_url: str,
    cancel_url: str,
    metadata: dict[str, str],
    idempotency_key: str,
    expires_at: int,
) -> CheckoutSession:
    """A one-time Checkout Session for ``amount`` minor units, priced inline, that Stripe
    closes at ``expires_at`` (a Unix time) if it is not paid by then."""
    params = {
        "mode": "payment",
        "submit_type": "donate",
        "line_items": [
            {
                "quantity": 1,
                "price_data": {
                    "currency": currency,
                    "unit_amount": amount,
                    "product_data": {"name": product_name},
                },
            }
        ],
        "success_url": success_url,
        "cancel_url": cancel_url,
        "metadata": metadata,
        "payment_intent_data": {"metadata": metadata},
        "expires_at": expires_at,
    }
    try:
        session = _client().v1.checkout.sessions.create(
            params=params, options={"idempotency_key": idempotency_key}
        )
    except stripe.StripeError as error:
        # class, code and status only: a message may quote (part of) the request
        logger.warning(
            "Stripe refused a Checkout Session: %s code=%s status=%s request=%s",
            type(error).__name__,
            error.code,
            error.http_status,
            error.request_id,
        )
        raise Unavailable(type(error).__name__) from None
    try:
        return _session_from(session.to_dict())
    except MalformedEvent as reason:
        logger.warning("Stripe answered a Checkout Session we cannot read: %s", reason)
        raise Unavailable("malformed session") from None


# how far a signature's time may stray from ours, either way: Stripe's own bound for an old
# one, and the same for one dated ahead (a clock a little fast, never a day)
SIGNATURE_TOLERANCE_S = stripe.Webhook.DEFAULT_TOLERANCE


def signed_at(signature: str) -> int | None:
    """The time in a Stripe-Signature header (``t=<seconds>``, the first one, as stripe
    reads it); None when there is none."""
    for item in signature.split(","):
        name, _, value = item.partition("=")
        if name == "t":
            return int(value) if value.isdigit() else None
    return None


def webhook_event_parse(*, payload: bytes, signature: str) -> Event:
    """The event Stripe signed, or BadWebhook: a wrong signature, one older or further
    ahead than SIGNATURE_TOLERANCE_S, or no secret; MalformedEvent when it is signed but
    its fields are not Stripe's."""
    secret = settings.STRIPE_WEBHOOK_SECRET.strip()
    if not secret:
        raise BadWebhook("STRIPE_WEBHOOK_SECRET is not set")
    try:
        stripe.WebhookSignature.verify_header(payload, signature, secret, SIGNATURE_TOLERANCE_S)
        # stripe bounds only the past: an event signed ahead of time would keep for as long
        timestamp = signed_at(signature)
        if timestamp is None or timestamp > time.time() + SIGNATURE_TOLERANCE_S:
            raise BadWebhook("signature is dated ahead")
        values = json.loads(payload)
    except stripe.SignatureVerificationError:
        raise BadWebhook("signature does not verify") from None
    except ValueError:
        raise BadWebhook("body is not JSON") from None
    except RecursionError:
        # nested past the parser's stack: no event Stripe sends is anything like it
        raise BadWebhook("body is nested too deep") from None
    if not isinstance(values, dict) or not values.get("id") or not values.get("type"):
        raise BadWebhook("not a Stripe event")
    if not _text(values["id"], MAX_ID_CHARS) or not _text(values["type"], MAX_TYPE_CHARS):
        raise MalformedEvent("the event id or type is not a short text")
    data = values.get("data")
    obj = data.get("object") if isinstance(data, dict) else None
    session = None
    if isinstance(obj, dict) and obj.get("object") == "checkout.session" and obj.get("id"):
        session = _session_from(obj)
    return Event(id=values["id"], type=values["type"], session=session)
