"""Thank-you page, supporters list, supporter badge, admin, and the configuration check."""

import pytest
from django.contrib.auth import get_user_model
from django.core import checks

from tests.donations.conftest import make_donation

THANKS = "/donate/thanks/?session_id="


def main_of(body: str) -> str:
    return body.split('id="main"', 1)[1].split("</main>", 1)[0]


# --- Thank-you page: from our record, never from the URL ---------------------------


@pytest.mark.django_db
def test_thanks_page_waits_while_our_record_is_pending_whatever_the_url_says(client):
    donation = make_donation()

    body = client.get(f"{THANKS}{donation.checkout_session_id}&payment_status=paid&status=paid")

    assert body.status_code == 200
    assert "We are waiting for confirmation" in body.text
    assert "$25 CAD" in body.text
    assert "Confirmed" not in body.text
    assert 'hx-trigger="every 2s"' in body.text  # htmx asks again until it is settled


@pytest.mark.django_db
def test_thanks_page_confirms_a_paid_donation_and_stops_asking(client):
    donation = make_donation(status="paid", list_publicly=True, name="Aunt Marg")

    body = client.get(THANKS + donation.checkout_session_id).text

    assert "Confirmed:" in body and "$25 CAD has been received" in body
    assert "supporters list" in body
    assert "hx-trigger" not in body


@pytest.mark.django_db
def test_thanks_page_for_an_unknown_session_claims_nothing(client):
    response = client.get(THANKS + "cs_test_made_up")

    assert response.status_code == 404
    assert "We have no record of that donation" in response.text
    assert "Confirmed" not in response.text
    assert client.get("/donate/thanks/").status_code == 404


@pytest.mark.django_db
def test_htmx_polling_gets_only_the_status(client):
    donation = make_donation(status="paid")

    response = client.get(THANKS + donation.checkout_session_id, HTTP_HX_REQUEST="true")

    assert response.text.lstrip().startswith('<div id="donation-status"')
    assert "<html" not in response.text
    assert "Confirmed:" in response.text


# --- Supporters list: only those who opted in, and paid ----------------------------


@pytest.mark.django_db
def test_supporters_list_shows_only_paid_donors_who_opted_in(client):
    make_donation(status="paid", list_publicly=True, name="Aunt Marg", message="Deal me in!")
    make_donation(status="paid", list_publicly=False, name="Quiet Quentin")
    make_donation(status="pending", list_publicly=True, name="Pending Pat")
    make_donation(status="failed", list_publicly=True, name="Bounced Bob")

    body = main_of(client.get("/donate/supporters/").text)

    assert "Aunt Marg" in body and "Deal me in!" in body
    for hidden in ("Quiet Quentin", "Pending Pat", "Bounced Bob"):
        assert hidden not in body
    assert "$25" not in body  # amounts are never shown


@pytest.mark.django_db
def test_supporters_list_escapes_what_donors_wrote(client):
    make_donation(status="paid", list_publicly=True, name="<b>Marg</b>", message="<script>")

    body = client.get("/donate/supporters/").text

    assert "&lt;b&gt;Marg&lt;/b&gt;" in body and "&lt;script&gt;" in body


# --- Supporter badge on the profile ------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("status", "badge"), [("paid", True), ("pending", False), ("failed", False)]
)
def test_profile_shows_the_supporter_badge_only_after_a_paid_donation(
    client, player, status, badge
):
    make_donation(user=player, status=status)
    client.force_login(player)

    body = client.get("/accounts/profile/").text

    assert ('class="supporter-badge"' in body) is badge


@pytest.mark.django_db
def test_someone_elses_donation_earns_no_badge(client, player):
    other = get_user_model().objects.create_user(username="other", password="x-long-pass-7")
    make_donation(user=other, status="paid")
    client.force_login(player)

    assert 'class="supporter-badge"' not in client.get("/accounts/profile/").text


# --- Admin ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_donations_are_listed_in_the_admin_and_cannot_be_made_up_there(admin_client):
    make_donation(status="paid", name="Aunt Marg")

    listing = admin_client.get("/admin/donations/donation/")

    assert listing.status_code == 200
    assert "Aunt Marg" in listing.text and "$25 CAD" in listing.text
    assert admin_client.get("/admin/donations/donation/add/").status_code == 403
    assert admin_client.get("/admin/donations/webhookevent/").status_code == 200


# --- Configuration -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("secret", "webhook", "warned"),
    [
        ("", "", False),
        ("sk_test_x", "whsec_x", False),
        ("sk_test_x", "", True),
        ("", "whsec_x", True),
    ],
)
def test_a_key_without_its_pair_is_a_check_warning(settings, secret, webhook, warned):
    settings.STRIPE_SECRET_KEY, settings.STRIPE_WEBHOOK_SECRET = secret, webhook

    ids = [message.id for message in checks.run_checks()]

    assert ("donations.W001" in ids) is warned
