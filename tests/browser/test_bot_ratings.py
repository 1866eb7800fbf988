"""The bots' levels on a phone: one picked for a seat when the table is made, then their
ladder ratings on the bots page and on the leaderboard (seeded: the ladder is not run here)."""

import pytest
from playwright.sync_api import Browser, expect

from game.models import LadderRating, Seat, Table
from tests.browser.conftest import PHONE
from tests.browser.test_table_sides import TEXT_WIDER_THAN_BOX

pytestmark = pytest.mark.browser

SEEDED = {"beginner": 1720, "casual": 1900, "club": 2080, "expert": 2260, "greedy": 1500}


def test_a_level_is_picked_for_a_seat_and_its_rating_is_on_the_bots_page_and_leaderboard(
    browser: Browser, live_server
):
    for level, rating in SEEDED.items():
        LadderRating.objects.create(
            preset="house", players=4, target=11, level=level, rating=rating, deviation=40,
            volatility=0.06, matches=96, wins=48, rated_at="2026-12-06T00:00Z",
        )  # fmt: skip
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(15_000)

    page.goto("/play/")
    page.get_by_label("Players").select_option("4")
    page.get_by_label("Seat 1 bot").select_option("club")
    page.get_by_role("button", name="Deal me in").click()
    expect(page.locator("#table")).to_be_visible()
    code = page.url.rstrip("/").rsplit("/", 1)[-1]
    assert Seat.objects.get(table=Table.objects.get(code=code), number=1).bot_level == "club"

    page.goto("/play/")
    page.get_by_role("link", name="How strong is each bot?").click()
    expect(page.get_by_role("heading", name="House rules")).to_be_visible()
    club = page.get_by_role("row", name="Club")
    expect(club).to_contain_text("2080")
    expect(club).to_contain_text("2002 and 2158")  # 1.96 deviations either side
    expect(page.get_by_text("misjudges most hands in the auction")).to_be_visible()
    assert page.evaluate(TEXT_WIDER_THAN_BOX, ".bots-page") == []

    page.get_by_role("link", name="the leaderboards").click()
    expect(page.get_by_role("heading", name="The bots, for comparison")).to_be_visible()
    expect(page.locator(".bot-anchors").get_by_role("row", name="Expert")).to_contain_text(
        "2260 ± 78"
    )
    context.close()
