"""The Stripe webhook: signed events only, each applied once, each session recorded once."""

import json
import time

import pytest
from django.test import Client

from donations.models import Donation, WebhookEvent
from tests.donations.conftest import make_donation
from tests.donations.fake_stripe import WEBHOOK_SECRET, session_event, signature_header

WEBHOOK = "/donate/stripe/webhook/"
COMPLETED = "checkout.session.completed"
SUCCEEDED = "checkout.session.async_payment_succeeded"
FAILED = "checkout.session.async_payment_failed"
EXPIRED = "checkout.session.expired"


def session_of(donation: Donation, **fields) -> dict:
    """The Checkout Session as Stripe would describe it in an event."""
    session = {
        "id": donation.checkout_session_id,
        "object": "checkout.session",
        "mode": "payment",
        "payment_status": "paid",
        "amount_total": donation.amount,
        "currency": donation.currency,
        "metadata": {"app": "smear-donations"},
    }
    session.update(fields)
    return session


def deliver(client, payload: str, *, secret=WEBHOOK_SECRET, timestamp=None, header=None):
    if header is None:
        header = signature_header(payload, secret, timestamp)
    return client.post(
        WEBHOOK, data=payload, content_type="application/json", HTTP_STRIPE_SIGNATURE=header
    )


@pytest.fixture
def pending(fake_stripe):
    """A donation whose checkout was started, and the webhook secret configured."""
    return make_donation(name="Aunt Marg")


def status_of(donation: Donation) -> str:
    donation.refresh_from_db()
    return donation.status


# --- Refused: bad signatures change nothing ------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "delivery",
    [
        pytest.param({"secret": "whsec_someone_else"}, id="forged-with-another-secret"),
        pytest.param({"timestamp": int(time.time()) - 3600}, id="an-hour-old"),
        pytest.param({"timestamp": int(time.time()) + 86400}, id="a-day-ahead"),
        pytest.param({"timestamp": int(time.time()) + 3600}, id="an-hour-ahead"),
        pytest.param({"header": ""}, id="no-signature"),
        pytest.param({"header": "t=123,v0=abc"}, id="no-v1-signature"),
        pytest.param({"header": "nonsense"}, id="garbled-header"),
    ],
)
def test_a_bad_signature_gets_400_and_changes_nothing(client, pending, delivery):
    payload = session_event(COMPLETED, session_of(pending))

    response = deliver(client, payload, **delivery)

    assert response.status_code == 400
    assert status_of(pending) == "pending"
    assert not WebhookEvent.objects.exists()


@pytest.mark.django_db
def test_a_signed_body_that_was_altered_is_refused(client, pending):
    payload = session_event(COMPLETED, session_of(pending, payment_status="unpaid"))
    header = signature_header(payload)
    altered = payload.replace('"unpaid"', '"paid"')

    response = deliver(client, altered, header=header)

    assert response.status_code == 400
    assert status_of(pending) == "pending"


@pytest.mark.django_db
def test_without_a_webhook_secret_every_event_is_refused(client, settings):
    donation = make_donation()
    settings.STRIPE_WEBHOOK_SECRET = ""

    response = deliver(client, session_event(COMPLETED, session_of(donation)))

    assert response.status_code == 400
    assert status_of(donation) == "pending"


@pytest.mark.django_db
def test_a_signed_body_that_is_not_an_event_is_refused(client, pending):
    for payload in ("not json", "[1, 2]", json.dumps({"object": "event"})):
        assert deliver(client, payload).status_code == 400
    assert not WebhookEvent.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("opening", ["[", '{"a":'])
def test_a_signed_body_nested_past_any_event_is_refused_with_400(client, pending, opening):
    payload = opening * 50_000 + "1" + ("]" if opening == "[" else "}") * 50_000

    response = deliver(client, payload)

    assert response.status_code == 400
    assert not WebhookEvent.objects.exists()
    assert status_of(pending) == "pending"


@pytest.mark.django_db
def test_the_webhook_takes_only_post(client, pending):
    assert client.get(WEBHOOK).status_code == 405


# --- Accepted ------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("skew_s", [-120, 120], ids=["two-minutes-old", "two-minutes-ahead"])
def test_a_signature_a_little_off_our_clock_is_accepted(client, pending, skew_s):
    payload = session_event(COMPLETED, session_of(pending))

    response = deliver(client, payload, timestamp=int(time.time()) + skew_s)

    assert response.status_code == 200
    assert status_of(pending) == "paid"


@pytest.mark.django_db
def test_a_completed_paid_session_marks_the_donation_paid(pending):
    # Stripe cannot send a CSRF token: the signature is what authenticates it
    client = Client(enforce_csrf_checks=True)

    response = deliver(client, session_event(COMPLETED, session_of(pending)))

    assert response.status_code == 200
    assert response.text == "processed"
    assert status_of(pending) == "paid"
    assert WebhookEvent.objects.get().type == COMPLETED


@pytest.mark.django_db
def test_a_replayed_event_is_acknowledged_and_changes_nothing(client, pending):
    payload = session_event(COMPLETED, session_of(pending), event_id="evt_test_once")
    deliver(client, payload)
    pending.refresh_from_db()
    updated = pending.updated
    # even if our record were back to pending, the same event must not apply again
    Donation.objects.filter(pk=pending.pk).update(status="pending")

    response = deliver(client, payload)  # the same event, freshly signed

    assert response.status_code == 200
    assert response.text == "duplicate"
    pending.refresh_from_db()
    assert pending.status == "pending"
    assert pending.updated == updated
    assert WebhookEvent.objects.count() == 1


@pytest.mark.django_db
def test_another_event_for_a_paid_session_records_nothing_new(client, pending):
    deliver(client, session_event(COMPLETED, session_of(pending)))
    pending.refresh_from_db()
    updated = pending.updated

    response = deliver(client, session_event(COMPLETED, session_of(pending, amount_total=1)))

    assert response.status_code == 200
    pending.refresh_from_db()
    assert (pending.status, pending.amount, pending.updated) == ("paid", 2500, updated)
    assert Donation.objects.count() == 1


@pytest.mark.django_db
def test_a_delayed_payment_waits_then_succeeds(client, pending):
    deliver(client, session_event(COMPLETED, session_of(pending), payment_status="unpaid"))
    assert status_of(pending) == "pending"

    deliver(client, session_event(SUCCEEDED, session_of(pending)))

    assert status_of(pending) == "paid"


@pytest.mark.django_db
def test_a_failed_async_payment_marks_the_donation_failed(client, pending):
    deliver(client, session_event(COMPLETED, session_of(pending), payment_status="unpaid"))

    response = deliver(client, session_event(FAILED, session_of(pending, payment_status="unpaid")))

    assert response.status_code == 200
    assert status_of(pending) == "failed"
    page = client.get(f"/donate/thanks/?session_id={pending.checkout_session_id}").text
    assert "did not go through" in page and "Confirmed" not in page


@pytest.mark.django_db
def test_failed_is_final_a_late_success_changes_nothing(client, pending):
    deliver(client, session_event(FAILED, session_of(pending, payment_status="unpaid")))

    deliver(client, session_event(SUCCEEDED, session_of(pending)))

    assert status_of(pending) == "failed"


@pytest.mark.django_db
def test_a_session_of_ours_without_a_record_is_recorded_from_stripe(client, fake_stripe, player):
    session = {
        "id": "cs_test_lost_write",
        "object": "checkout.session",
        "payment_status": "paid",
        "amount_total": 5000,
        "currency": "cad",
        "metadata": {"app": "smear-donations", "user_id": str(player.pk)},
    }

    deliver(client, session_event(COMPLETED, session))

    donation = Donation.objects.get()
    assert (donation.checkout_session_id, donation.amount, donation.status) == (
        "cs_test_lost_write",
        5000,
        "paid",
    )
    assert donation.user == player


@pytest.mark.django_db
def test_a_session_that_is_not_ours_is_acknowledged_and_ignored(client, fake_stripe):
    session = {"id": "cs_test_other_shop", "object": "checkout.session", "metadata": {}}

    response = deliver(client, session_event(COMPLETED, session))

    assert response.status_code == 200
    assert not Donation.objects.exists()


@pytest.mark.django_db
def test_an_expired_checkout_marks_the_donation_expired(client, pending):
    session = session_of(pending, payment_status="unpaid", status="expired")

    response = deliver(client, session_event(EXPIRED, session))

    assert response.status_code == 200 and response.text == "processed"
    assert status_of(pending) == "expired"
    page = client.get(f"/donate/thanks/?session_id={pending.checkout_session_id}").text
    assert "closed before the donation" in page and "hx-trigger" not in page


@pytest.mark.django_db
def test_a_paid_donation_stays_paid_when_an_expiry_arrives_late(client, pending):
    deliver(client, session_event(COMPLETED, session_of(pending)))

    deliver(client, session_event(EXPIRED, session_of(pending, status="expired")))

    assert status_of(pending) == "paid"


@pytest.mark.django_db
def test_an_event_type_we_do_not_handle_is_acknowledged(client, pending):
    response = deliver(client, session_event("payment_intent.succeeded", session_of(pending)))

    assert response.status_code == 200
    assert response.text == "ignored"
    assert status_of(pending) == "pending"


# --- Malformed but signed: acknowledged and logged, never a 500 -------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fields",
    [
        {"metadata": ["app", "smear-donations"]},
        {"amount_total": "2500"},
        {"amount_total": True},
        {"currency": ["cad"]},
        {"id": "cs_" + "x" * 300},
        {"id": 12345},
        {"metadata": {"app": {"nested": 1}}},
    ],
    ids=[
        "metadata-list",
        "amount-text",
        "amount-bool",
        "currency-list",
        "long-id",
        "id-number",
        "metadata-nested",
    ],
)
def test_a_signed_malformed_event_is_acknowledged_logged_and_changes_nothing(
    client, pending, caplog, fields
):
    payload = json.dumps(
        {
            "id": "evt_malformed",
            "type": COMPLETED,
            "data": {"object": session_of(pending, **fields)},
        }
    )

    response = deliver(client, payload)

    assert response.status_code == 200
    assert "malformed" in caplog.text
    assert status_of(pending) == "pending"
    assert Donation.objects.count() == 1
    assert not WebhookEvent.objects.exists()


@pytest.mark.django_db
def test_a_signed_event_with_an_overlong_id_is_acknowledged_not_stored(client, pending):
    payload = json.dumps(
        {"id": "evt_" + "x" * 300, "type": COMPLETED, "data": {"object": session_of(pending)}}
    )

    assert deliver(client, payload).status_code == 200
    assert not WebhookEvent.objects.exists()


@pytest.mark.django_db
def test_a_payment_confirmed_after_we_expired_the_donation_still_counts(client, pending):
    Donation.objects.filter(pk=pending.pk).update(status="expired")
    payload = json.dumps(
        {"id": "evt_late_paid", "type": COMPLETED, "data": {"object": session_of(pending)}}
    )

    deliver(client, payload)

    assert status_of(pending) == "paid"


@pytest.mark.django_db
@pytest.mark.parametrize("user_id", ["9" * 400, "²", "-1"])
def test_a_lost_sessions_forged_user_id_is_recorded_without_a_user(client, fake_stripe, user_id):
    session = {
        "id": "cs_test_odd_user",
        "object": "checkout.session",
        "payment_status": "paid",
        "amount_total": 5000,
        "currency": "cad",
        "metadata": {"app": "smear-donations", "user_id": user_id},
    }

    response = deliver(client, session_event(COMPLETED, session))

    assert response.status_code == 200
    assert Donation.objects.get().user is None
