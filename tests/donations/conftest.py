import pytest
from django.contrib.auth import get_user_model

from donations.models import Donation
from game.players import profiles as game_profiles
from tests.donations.fake_stripe import SECRET_KEY, WEBHOOK_SECRET, FakeStripe

SITE_URL = "https://smear.example"


@pytest.fixture(autouse=True)
def _stripe_off(settings, isolated_cache):
    """No keys and an address nothing listens on: a test that forgot the fake Stripe
    fails here instead of reaching the internet. The checkout rate limits count in a cache
    of the test's own."""
    settings.STRIPE_SECRET_KEY = ""
    settings.STRIPE_WEBHOOK_SECRET = ""
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"
    settings.STRIPE_CURRENCY = "cad"
    settings.SITE_URL = SITE_URL


@pytest.fixture
def fake_stripe(settings):
    """Keys for a test account, and the Stripe client pointed at a local fake server."""
    with FakeStripe() as fake:
        settings.STRIPE_SECRET_KEY = SECRET_KEY
        settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
        settings.STRIPE_API_BASE = fake.url
        yield fake


@pytest.fixture
def player(db):
    user = get_user_model().objects.create_user(username="prairie", password="x-long-pass-7")
    game_profiles.profile_update(user=user, display_name="Dealer Dan")
    return user


def make_donation(**fields) -> Donation:
    values = {
        "checkout_session_id": "cs_test_" + str(Donation.objects.count() + 1).zfill(8),
        "amount": 2500,
        "currency": "cad",
    }
    values.update(fields)
    return Donation.objects.create(**values)
