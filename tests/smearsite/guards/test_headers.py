"""Every page carries a Content-Security-Policy (scripts and styles from the site only) and
a Permissions-Policy."""

import pytest

pytestmark = pytest.mark.django_db


def directives(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    parts = [part.split() for part in policy.split(";") if part.strip()]
    return {name: values for name, *values in parts}


@pytest.mark.parametrize("path", ["/", "/play/", "/learn/", "/rules/", "/donate/"])
def test_pages_allow_scripts_and_styles_from_the_site_only(client, path):
    policy = directives(client.get(path))

    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]


def test_only_the_donate_page_may_send_its_form_to_stripe(client, settings):
    settings.STRIPE_API_BASE = ""

    assert directives(client.get("/"))["form-action"] == ["'self'"]
    # the trainer's buttons that serve a position are forms posting to the site itself
    assert directives(client.get("/learn/"))["form-action"] == ["'self'"]
    assert directives(client.get("/donate/"))["form-action"] == [
        "'self'",
        "https://checkout.stripe.com",
    ]


def test_pages_switch_off_the_browser_features_nothing_here_uses(client):
    header = client.get("/")["Permissions-Policy"]

    for feature in ("camera=()", "microphone=()", "geolocation=()", "payment=()"):
        assert feature in header
