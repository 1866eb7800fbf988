"""Play bots now in a real browser: a guest plays a whole round on a phone."""

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def horizontal_overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def table_position(page: Page) -> str:
    table = page.locator("#table")
    return f"{table.get_attribute('data-round')}/{table.get_attribute('data-index')}"


def test_a_guest_plays_a_whole_round_against_greedy_bots_on_a_phone(phone: Page, artifacts):
    phone.goto("/")
    phone.get_by_role("navigation", name="Main").get_by_role("link", name="Play").click()
    phone.get_by_label("Players").select_option("4")
    phone.get_by_label("Teams", exact=True).select_option("2v2")
    for seat in (1, 2, 3):
        phone.get_by_label(f"Seat {seat} bot").select_option("greedy")
    phone.get_by_role("button", name="Deal me in").click()

    expect(phone.get_by_role("heading", name="Your hand")).to_be_visible()
    assert horizontal_overflow(phone) <= 0, "the table scrolls sideways at 390 px"
    summary = phone.get_by_role("heading", name="Round summary")
    moves = 0
    while not summary.is_visible():
        assert moves < 20, "a round takes at most one bid and six cards from one seat"
        before = table_position(phone)
        bids = phone.locator(".bid-form button")
        if bids.count():
            bids.first.click()  # the lowest bid, or pass where passing is allowed
        else:
            playable = phone.get_by_role("button", name="can be played")
            expect(playable.first).to_be_visible()
            if moves == 1:  # the card not allowed is shown, not offered
                assert playable.count() <= 6
            playable.first.click()
        phone.wait_for_function(
            "before => { const t = document.querySelector('#table');"
            " return t && `${t.dataset.round}/${t.dataset.index}` !== before; }",
            arg=before,
        )
        moves += 1

    expect(phone.get_by_text("How the score changed")).to_be_visible()
    expect(phone.get_by_role("heading", name="Round 2")).to_be_visible()
    assert horizontal_overflow(phone) <= 0
    phone.screenshot(path=artifacts / "phone-table-summary.png", full_page=True)

    phone.get_by_role("link", name="step through").click()
    expect(phone.get_by_role("heading", name="Tricks: 0 of 6")).to_be_visible()
    phone.get_by_role("link", name="Next trick").click()
    expect(phone.get_by_role("heading", name="Tricks: 1 of 6")).to_be_visible()
    assert horizontal_overflow(phone) <= 0


def test_a_reload_in_mid_round_resumes_where_the_table_was(phone: Page):
    phone.goto("/play/")
    phone.get_by_role("button", name="Deal me in").click()
    expect(phone.get_by_role("heading", name="Your hand")).to_be_visible()
    for _ in range(2):  # a bid, then a card or two: well into the round
        before = table_position(phone)
        bids = phone.locator(".bid-form button")
        (
            bids.first if bids.count() else phone.get_by_role("button", name="can be played").first
        ).click()
        phone.wait_for_function(
            "before => { const t = document.querySelector('#table');"
            " return t && `${t.dataset.round}/${t.dataset.index}` !== before; }",
            arg=before,
        )
    position = table_position(phone)
    hand = phone.locator(".your-hand [data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
    auction = phone.locator(".auction-list").inner_text()

    phone.reload()

    expect(phone.get_by_role("heading", name="Your hand")).to_be_visible()
    assert table_position(phone) == position
    assert (
        phone.locator(".your-hand [data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
        == hand
    )
    assert phone.locator(".auction-list").inner_text() == auction
