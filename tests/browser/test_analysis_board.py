"""The analysis board on a phone and on a desktop: tap in a hand, read the expert's bid and
its odds, add the other hands and tap in the auction, read the exact table; then open a finished
round's reviewed decision on the board, the seat's own hand shown."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from learn.round_review import services as review_services
from tests.browser.conftest import PHONE, WIDE, assert_no_csp_violations, watch_csp
from tests.game.stored import stored_table
from tests.learn.reviewing import BLUNDER_SEAT, MONSTER, monster_round

pytestmark = pytest.mark.browser
PASSWORD = "not-used-123"

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


@pytest.fixture(params=[PHONE, WIDE], ids=["phone", "desktop"])
def screen(request, browser: Browser, live_server):
    context = browser.new_context(viewport=request.param, base_url=live_server.url)
    page = watch_csp(context.new_page())
    page.set_default_timeout(10_000)
    page.size = "phone" if request.param == PHONE else "desktop"
    yield page
    context.close()
    assert_no_csp_violations(page)


def _reviewed_round() -> str:
    """A finished round of a person (seat BLUNDER_SEAT) among bots, its review worked out:
    the review's address."""
    user = get_user_model().objects.create_user(username="ann", password=PASSWORD)
    seats = [{"bot_level": "greedy"} for _ in range(4)]
    seats[BLUNDER_SEAT] = {"user": user, "display_name": "Ann"}
    table = stored_table(monster_round("pass"), seats, status="finished")
    review_services.review_request(table=table, seat=BLUNDER_SEAT, number=0)
    _work_the_queue()
    return f"/learn/review/{table.code}/1/"


def test_a_hand_tapped_in_gets_the_experts_bid_then_every_hand_the_exact_table(
    screen: Page, artifacts
):
    phone = screen  # the steps read the same at either size
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
    phone.screenshot(path=artifacts / f"{screen.size}-analysis-expert.png", full_page=True)

    phone.get_by_role("link", name="Change the position").click()
    for seat in (1, 2, 3):
        _tap(phone, seat)
    moves = phone.locator("[data-moves]")  # the auction tapped, not typed
    expect(moves).to_contain_text("Seat 0 to bid")
    moves.get_by_role("button", name="Bid 2").click()
    for seat in (1, 2, 3):
        expect(moves).to_contain_text(f"Seat {seat} to bid")
        moves.get_by_role("button", name="Pass").click()
    expect(moves).to_contain_text("Seat 0 to play")
    expect(phone.get_by_label("The round so far")).to_have_value("b2 p p p")
    moves.screenshot(path=artifacts / f"{screen.size}-analysis-moves.png")
    phone.get_by_role("button", name="Analyse").click()
    phone.get_by_role("button", name="Ask the expert and the solver").click()
    _work_the_queue()
    table = phone.locator("table.board-table")
    expect(table).to_be_visible(timeout=10_000)
    # seat 0 leads any card but its joker (a joker may not open): the points per side
    expect(table.locator("tbody tr")).to_have_count(5)
    expect(table.locator('tr[data-lead="AS"] td')).to_have_text(["5", "0"])
    expect(table.locator('tr[data-lead="KH"] td')).to_have_text(["1", "4"])
    phone.locator(".board-exact").screenshot(path=artifacts / f"{screen.size}-analysis-exact.png")

    # a finished round's review: its decision opens on the board as the seat saw it
    review = _reviewed_round()
    phone.goto(f"/accounts/login/?next={review}")
    phone.get_by_label("Username").fill("ann")
    phone.get_by_label("Password:", exact=True).fill(PASSWORD)
    phone.get_by_role("button", name="Log in").click()
    phone.get_by_role("link", name="Analyse this position on the board").first.click()
    expect(phone).to_have_url(re.compile(r"/analysis/[^/]+/$"))
    hand = phone.locator(".board-position .hand").first
    for code in MONSTER:
        expect(hand.locator(f'[data-card="{code}"]')).to_be_visible()
    expect(phone.get_by_role("heading", name=re.compile(r"^Seat \d, as dealt"))).to_have_count(0)
    expect(
        phone.get_by_role("heading", name=f"Your hand (seat {BLUNDER_SEAT}), as dealt")
    ).to_be_visible()
