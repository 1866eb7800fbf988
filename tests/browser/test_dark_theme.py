"""The dark theme: the site follows the device's setting, a table setting overrides it, and
every text on the main pages keeps a contrast of 4.5 : 1 in the dark as in the light."""

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import PHONE
from tests.browser.test_table_layout import LOW_CONTRAST
from tests.learn.conftest import sample_lines

pytestmark = pytest.mark.browser

PAGES = ["/", "/learn/", "/learn/tutorial/", "/rules/", "/sheets/", "/play/", "/donate/"]


def _paper(page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


@pytest.fixture
def live_bank(transactional_db):
    from learn import services

    services.positions_load(lines=sample_lines())


def test_the_pages_follow_a_dark_device_with_readable_text(
    browser: Browser, live_server, live_bank, artifacts
):
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, color_scheme="dark")
    page = context.new_page()
    for path in PAGES:
        page.goto(path)
        assert _paper(page) == "rgb(18, 23, 21)", path  # the dark paper
        low = page.evaluate(LOW_CONTRAST, "main *, header *")
        assert low == [], f"text under 4.5 : 1 on {path} in the dark"
    page.goto("/learn/")
    page.get_by_role("button", name="Show a position").click()
    page.locator("#puzzle form button").first.click()
    expect(page.locator("#puzzle")).to_have_attribute("data-state", "reveal")
    assert page.evaluate(LOW_CONTRAST, "main *") == [], "the reveal in the dark"
    page.screenshot(path=artifacts / "phone-dark-learn-reveal.png", full_page=True)

    page.goto("/play/")
    page.get_by_label("Players").select_option("4")
    page.get_by_role("button", name="Deal me in").click()
    expect(page.get_by_role("heading", name="Your hand")).to_be_visible()
    assert page.evaluate(LOW_CONTRAST, "#table *, .dock *") == [], "the table in the dark"
    card = page.locator(".dock .card").first
    assert card.evaluate("c => getComputedStyle(c).backgroundColor") == "rgb(255, 255, 255)"
    page.screenshot(path=artifacts / "phone-dark-table.png", full_page=True)

    page.locator("details.table-prefs summary").click()
    page.get_by_label("Light pages, whatever the device's setting").check()
    page.get_by_role("button", name="Save settings").click()
    expect(page.locator("body")).to_have_class("theme-light")
    # light, on a dark device (once the page's stylesheet is in)
    page.wait_for_function(
        "getComputedStyle(document.body).backgroundColor === 'rgb(247, 244, 236)'"
    )
    context.close()
