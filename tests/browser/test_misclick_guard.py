"""The misclick guard on a touch screen: the first tap lifts a card, the second plays it;
a key plays at once; the "one tap" setting turns the guard off."""

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, watch_csp
from tests.browser.test_play import table_position

pytestmark = pytest.mark.browser


@pytest.fixture
def touch_phone(browser: Browser, live_server):
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, has_touch=True, is_mobile=True
    )
    page = watch_csp(context.new_page())
    page.set_default_timeout(10_000)
    yield page
    context.close()


def moved_on(page: Page, before: str) -> None:
    page.wait_for_function(
        "before => { const t = document.querySelector('#table');"
        " return t && `${t.dataset.round}/${t.dataset.index}` !== before; }",
        arg=before,
    )


def to_the_cards(page: Page) -> None:
    """A guest's table against greedy bots, through the auction by taps (bids are not
    guarded), until a card is theirs to play."""
    page.goto("/play/")
    page.get_by_label("Players").select_option("4")
    page.get_by_label("Teams", exact=True).select_option("2v2")
    for seat in (1, 2, 3):
        page.get_by_label(f"Seat {seat} bot").select_option("greedy")
    page.get_by_role("button", name="Deal me in").tap()
    playable = page.get_by_role("button", name="can be played")
    bids = page.locator(".bid-form button")
    expect(playable.first.or_(bids.first)).to_be_visible()
    while bids.count():
        before = table_position(page)
        bids.last.tap()  # pass, or the highest bid
        moved_on(page, before)
        expect(playable.first.or_(bids.first)).to_be_visible()


def test_a_tap_lifts_a_card_and_a_second_tap_plays_it(touch_phone: Page, artifacts):
    page = touch_phone
    to_the_cards(page)
    card = page.get_by_role("button", name="can be played").first
    before = table_position(page)

    card.tap()
    page.wait_for_timeout(600)
    assert table_position(page) == before, "one tap played the card"
    expect(card).to_have_class("card-button card-button--lifted")
    page.screenshot(path=artifacts / "phone-table-card-lifted.png")

    card.tap()
    moved_on(page, before)


def test_a_key_plays_at_once_and_one_tap_can_be_chosen(touch_phone: Page):
    page = touch_phone
    to_the_cards(page)
    card = page.get_by_role("button", name="can be played").first
    before = table_position(page)
    card.focus()
    page.keyboard.press("Enter")
    moved_on(page, before)

    page.locator("details.table-prefs summary").tap()
    page.get_by_label("Play a card with one tap on a touch screen").check()
    page.get_by_role("button", name="Save settings").tap()
    playable = page.get_by_role("button", name="can be played")
    expect(playable.first).to_be_visible(timeout=20_000)
    before = table_position(page)
    playable.first.tap()
    moved_on(page, before)
