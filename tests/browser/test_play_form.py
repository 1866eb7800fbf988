"""The play form in a real browser: only the bot pickers the table has, the submit in
sight at every player count on a phone and a desktop, the team picker writing the custom
teams, and the form working without scripts."""

import pytest
from playwright.sync_api import Browser, Page, expect

from game.models import Table
from tests.browser.conftest import PHONE, WIDE
from tests.browser.test_table_sides import TEXT_WIDER_THAN_BOX

pytestmark = pytest.mark.browser


def _form(browser: Browser, live_server, viewport: dict, scripts: bool = True) -> Page:
    context = browser.new_context(
        viewport=viewport, base_url=live_server.url, java_script_enabled=scripts
    )
    page = context.new_page()
    page.goto("/play/")
    return page


def _above_the_fold(page: Page) -> bool:
    box = page.get_by_role("button", name="Deal me in").bounding_box()
    return box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["phone", "desktop"])
def test_the_form_shows_a_bot_picker_per_bot_seat_and_its_submit_above_the_fold(
    browser: Browser, live_server, artifacts, viewport
):
    page = _form(browser, live_server, viewport)
    size = "phone" if viewport is PHONE else "desktop"
    for players in (3, 4, 6, 8):
        page.get_by_label("Players").select_option(str(players))
        expect(page.locator(".bot-seat:visible")).to_have_count(players - 1)
        expect(page.get_by_label(f"Seat {players - 1} bot")).to_be_visible()
        if players < 8:
            expect(page.get_by_label(f"Seat {players} bot")).to_be_hidden()
        expect(page.get_by_label("Custom teams")).to_be_hidden()  # until "Custom" is chosen
        assert _above_the_fold(page), f"Deal me in is below the fold at {players} players"
        assert page.evaluate(TEXT_WIDER_THAN_BOX, ".play-setup") == []
        page.screenshot(path=artifacts / f"play-form-{size}-{players}.png")
    page.context.close()


def test_the_team_picker_writes_the_teams_a_side_at_a_tap(browser: Browser, live_server):
    page = _form(browser, live_server, PHONE)
    page.get_by_label("Players").select_option("4")
    page.get_by_label("Teams", exact=True).select_option("custom")
    picker = page.locator(".team-picker")
    expect(picker).to_be_visible()
    text = page.locator("#id_custom_teams")
    expect(text).to_have_value("0,2:1,3")  # partners across, as the usual layout
    # seat 1 joins you: you and the seat on your left against the other two
    picker.get_by_role("radiogroup", name="Seat 1 (your left)").get_by_label("Side A").check()
    picker.get_by_role("radiogroup", name="Seat 2").get_by_label("Side B").check()
    expect(text).to_have_value("0,1:2,3")
    page.get_by_role("button", name="Deal me in").click()
    expect(page.locator("#table")).to_be_visible()
    code = page.url.rstrip("/").rsplit("/", 1)[-1]
    assert Table.objects.get(code=code).teams == [[0, 1], [2, 3]]
    page.context.close()


def test_without_scripts_three_players_deal_with_the_teams_the_form_starts_with(
    browser: Browser, live_server
):
    page = _form(browser, live_server, PHONE, scripts=False)
    page.get_by_label("Players").select_option("3")
    expect(page.get_by_label("Seat 3 bot")).to_be_hidden()  # the stylesheet alone hides it
    assert _above_the_fold(page)
    page.get_by_role("button", name="Deal me in").click()
    expect(page.get_by_role("heading", name="Your hand")).to_be_attached()
    code = page.url.rstrip("/").rsplit("/", 1)[-1]
    assert Table.objects.get(code=code).teams == [[0], [1], [2]]
    page.context.close()
