"""Donating in a real browser: the donate page, the (local, fake) Stripe checkout, and back.

Nothing leaves 127.0.0.1: the Stripe client talks to tests/donations/fake_stripe.py, whose
checkout page links back to our success and cancel URLs, and the test then delivers the
webhook Stripe would send, signed with the test secret.
"""

import re
import urllib.request

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from donations.models import Donation
from game.players import profiles as game_profiles
from tests.donations.fake_stripe import (
    SECRET_KEY,
    WEBHOOK_SECRET,
    FakeStripe,
    session_event,
    signature_header,
)

pytestmark = pytest.mark.browser

PASSWORD = "trump-leads-first-42"


@pytest.fixture
def fake_stripe(settings, live_server):
    with FakeStripe() as fake:
        settings.STRIPE_SECRET_KEY = SECRET_KEY
        settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
        settings.STRIPE_API_BASE = fake.url
        settings.STRIPE_CURRENCY = "cad"
        # Stripe sends the donor back to SITE_URL: here, the live server
        settings.SITE_URL = live_server.url
        yield fake


def deliver_webhook(live_server, payload: str) -> int:
    request = urllib.request.Request(
        f"{live_server.url}/donate/stripe/webhook/",
        data=payload.encode(),
        headers={
            "Content-Type": "application/json",
            "Stripe-Signature": signature_header(payload),
        },
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status


def horizontal_overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_donate_through_checkout_and_back_to_a_confirmed_thank_you(
    phone: Page, fake_stripe, live_server, artifacts
):
    phone.goto("/")
    phone.get_by_role("navigation", name="Main").get_by_role("link", name="Donate").click()
    expect(phone.get_by_role("heading", name="Support Smear")).to_be_visible()
    assert horizontal_overflow(phone) <= 0, "the donate page scrolls sideways at 390 px"
    phone.screenshot(path=artifacts / "phone-donate.png", full_page=True)

    phone.get_by_role("radio", name="$25").check()
    phone.get_by_label("Name (optional)").fill("Aunt Marg")
    phone.get_by_label("Message (optional)").fill("Deal me in!")
    phone.get_by_label("Show my name and message on the supporters list").check()
    phone.get_by_role("button", name="Continue to payment").click()

    # on the fake Stripe's checkout page
    expect(phone).to_have_url(re.compile(rf"^{re.escape(fake_stripe.url)}/pay/cs_test_\w+$"))
    expect(phone.locator("#amount")).to_have_text("25.00 CAD")
    [created] = fake_stripe.session_creations
    assert created.form["line_items[0][price_data][unit_amount]"] == "2500"
    assert created.form["success_url"].startswith(f"{live_server.url}/donate/thanks/")
    assert created.headers["idempotency-key"]
    [session] = fake_stripe.sessions.values()

    phone.get_by_role("link", name="Pay").click()

    # back on our thank-you page, which waits for Stripe's word
    expect(phone).to_have_url(re.compile(rf"/donate/thanks/\?session_id={session['id']}$"))
    status = phone.locator("#donation-status")
    expect(status).to_contain_text("We are waiting for confirmation")
    expect(status).not_to_contain_text("Confirmed")

    payload = session_event("checkout.session.completed", session, payment_status="paid")
    assert deliver_webhook(live_server, payload) == 200

    # htmx asks again every 2 s: the page confirms without a reload
    expect(status).to_contain_text("Confirmed: your donation of $25 CAD", timeout=10_000)
    assert horizontal_overflow(phone) <= 0
    phone.screenshot(path=artifacts / "phone-donate-thanks.png", full_page=True)
    assert Donation.objects.get().status == "paid"

    phone.get_by_role("link", name="supporters list").click()
    expect(phone.locator(".supporters")).to_contain_text("Aunt Marg")
    expect(phone.locator(".supporters")).to_contain_text("Deal me in!")


def test_cancelling_checkout_comes_back_to_the_donate_page(page: Page, fake_stripe):
    page.goto("/donate/")
    page.get_by_label("Or your own amount").fill("40")
    page.get_by_role("button", name="Continue to payment").click()
    expect(page.locator("#amount")).to_have_text("40.00 CAD")

    page.get_by_role("link", name="Cancel").click()

    expect(page).to_have_url(re.compile(r"/donate/\?cancelled=1$"))
    expect(page.get_by_text("Checkout was cancelled: nothing was charged.")).to_be_visible()
    assert Donation.objects.get().status == "pending"


def test_an_amount_out_of_range_is_refused_on_the_page(page: Page, fake_stripe):
    page.goto("/donate/")
    page.get_by_label("Or your own amount").fill("5000")
    page.get_by_role("button", name="Continue to payment").click()

    # the browser's own check of the number field's max stops the form first
    assert page.get_by_label("Or your own amount").evaluate("e => e.validity.rangeOverflow")
    expect(page).to_have_url(re.compile(r"/donate/$"))
    assert fake_stripe.session_creations == []


def test_a_supporters_profile_shows_the_badge_at_phone_width(phone: Page, artifacts):
    user = get_user_model().objects.create_user(username="prairie", password=PASSWORD)
    game_profiles.profile_update(user=user, display_name="Dealer Dan")
    Donation.objects.create(
        checkout_session_id="cs_test_badge", amount=2500, currency="cad", user=user, status="paid"
    )
    phone.goto("/accounts/login/?next=/accounts/profile/")
    phone.get_by_label("Username").fill("prairie")
    phone.get_by_label("Password:", exact=True).fill(PASSWORD)
    phone.get_by_role("button", name="Log in").click()

    expect(phone.locator(".supporter-badge")).to_contain_text("Supporter")
    assert horizontal_overflow(phone) <= 0
    phone.screenshot(path=artifacts / "phone-profile-supporter.png", full_page=True)
