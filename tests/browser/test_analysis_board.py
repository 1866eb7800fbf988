"""The analysis board on a phone: tap in a hand, read the expert's bid and its odds, add
the other hands and the auction, read the exact table."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

HANDS = [
    ["AS", "10S", "JS", "J1", "KH", "QD"],
    ["KS", "QS", "JH", "10H", "9D", "9C"],
    ["AH", "9S", "10D", "JD", "KC", "QC"],
    ["AD", "10C", "JC", "AC", "9H", "QH"],
]


@pytest.fixture(autouse=True)
def _brief_expert(settings):
    settings.SMEAR_BOARD_EXPERT = {"budget_ms": 150.0, "max_deals": 12}


def _tap(page: Page, seat: int) -> None:
    hand = page.locator(f'details[data-seat="{seat}"]')
    if hand.get_attribute("open") is None:
        hand.locator("summary").click()
    for code in HANDS[seat]:
        hand.locator(f'label.chooser-card:has([data-card="{code}"])').click()


def _work_the_queue() -> None:
    call_command("db_worker", batch=True, startup_delay=False, interval=0, verbosity=0)


def test_a_hand_tapped_in_gets_the_experts_bid_then_every_hand_the_exact_table(
    phone: Page, artifacts
):
    phone.goto("/analysis/")
    phone.get_by_label("Game").select_option("house")
    phone.get_by_label("Players").select_option("4")
    phone.get_by_label("Teams", exact=True).select_option("2v2")
    phone.get_by_role("button", name="Next: the cards").click()
    _tap(phone, 0)
    phone.get_by_label("Dealer").select_option("3")
    phone.get_by_role("button", name="Analyse").click()

    phone.get_by_role("button", name="Ask the expert").click()
    expect(phone.locator("progress.board-progress")).to_be_visible()
    _work_the_queue()
    choice = phone.locator("[data-expert-choice]")
    expect(choice).to_contain_text("The expert's choice: Bid", timeout=10_000)  # polled in
    odds = phone.locator("table.learn-options td.learn-odds").first
    expect(odds).to_have_text(re.compile(r"in 10|every time"))  # how often the bid is made
    phone.screenshot(path=artifacts / "phone-analysis-expert.png", full_page=True)

    phone.get_by_role("link", name="Change the position").click()
    for seat in (1, 2, 3):
        _tap(phone, seat)
    phone.get_by_label("The round so far").fill("b2 p p p")
    phone.get_by_role("button", name="Analyse").click()
    phone.get_by_role("button", name="Ask the expert and the solver").click()
    _work_the_queue()
    table = phone.locator("table.board-table")
    expect(table).to_be_visible(timeout=10_000)
    # seat 0 leads any card but its joker (a joker may not open): the points per side
    expect(table.locator("tbody tr")).to_have_count(5)
    expect(table.locator('tr[data-lead="AS"] td')).to_have_text(["5", "0"])
    expect(table.locator('tr[data-lead="KH"] td')).to_have_text(["1", "4"])
    phone.locator(".board-exact").screenshot(path=artifacts / "phone-analysis-exact.png")
