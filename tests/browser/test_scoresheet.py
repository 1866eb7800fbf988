"""The score sheet in a real browser, on a phone-sized screen.

Most tests run against pytest-django's live server. It speaks HTTP only (WSGI), so the
read-only live link, which needs websockets, is tested against a real server that this
module starts in a child process, on a SQLite file of its own: the same way under the
embedded defaults and under PostgreSQL/Redis (it then uses the Redis channel layer).
"""

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from game.players import profiles as game_profiles
from scoresheet.models import Hand, Sheet
from tests.browser.conftest import DESKTOP, PHONE, assert_no_csp_violations, watch, watch_csp
from tests.servers import manage, server_env, serving

pytestmark = pytest.mark.browser

PASSWORD = "trump-leads-first-42"
SAM, MUM = "Sam & Alex", "Mum & Dad"
# the live server shares one in-memory SQLite connection between its threads, so these
# tests never let two requests overlap: no service worker keeping pages in the background
# here (tests/browser/test_scoresheet_offline.py tests it against a real server)
NO_WORKER = {"service_workers": "block"}


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, **NO_WORKER)
    page = watch_csp(context.new_page())
    page.set_default_timeout(10_000)
    yield page
    context.close()
    assert_no_csp_violations(page)


def make_user(username: str):
    user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    game_profiles.profile_get_or_create(user=user)
    return user


def log_in(page: Page, username: str) -> None:
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def horizontal_overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def create_sheet(page: Page, *, target: str = "11") -> None:
    page.get_by_role("link", name="New score sheet").click()
    page.get_by_label("Side 1", exact=True).fill("Sam & Alex")
    page.get_by_label("Players on side 1").fill("Sam, Alex")
    page.get_by_label("Side 2", exact=True).fill("Mum & Dad")
    page.get_by_label("Players on side 2").fill("Mum, Dad")
    page.get_by_label("Target", exact=True).fill(target)
    page.get_by_role("button", name="Start the sheet").click()
    expect(page.get_by_role("heading", name="Sam & Alex v Mum & Dad")).to_be_visible()


def tap(page: Page, group: str, choice: str) -> None:
    page.locator("main").get_by_role("group", name=group, exact=True).get_by_role(
        "radio", name=choice, exact=True
    ).click()


def settled(page: Page, made: tuple[int, ...]) -> None:
    """Wait until the preview shows this very hand: no request of the form is in flight.

    Under the embedded defaults the live server's threads share one in-memory SQLite
    connection, so the test never lets two requests of a page overlap.
    """
    made_text = " ".join(str(points) for points in made)
    expect(page.locator(f'#preview .preview__verdict[data-made="{made_text}"]')).to_be_visible()


def enter_hand(
    page: Page, bidder: str, bid: int, points: dict[str, str], *, preview: bool = True
) -> tuple[int, ...]:
    """Enter one hand by tapping: the bidding player, the bid, who took each point."""
    tap(page, "Who bid", bidder)
    tap(page, "Bid", str(bid))
    for point, side in points.items():
        tap(page, point, side)
    made = tuple(sum(1 for side in points.values() if side == name) for name in (SAM, MUM))
    if preview:
        settled(page, made)
    return made


def save(page: Page) -> None:
    button = page.get_by_role("button", name=re.compile(r"^Save hand"))
    number = button.inner_text().split()[-1]
    button.click()
    # the new sheet and a fresh form are swapped in: tap nothing before they are
    expect(
        page.get_by_role("status").filter(has_text=f"Hand {number} is on the sheet")
    ).to_be_visible()


def cell(page: Page, hand: int, side: int):
    return page.locator(f'#hand-{hand} td[data-side="{side}"]')


def test_score_a_match_on_a_phone_debt_carried_and_paid_edit_and_bank(phone: Page, artifacts):
    problems = watch(phone)
    make_user("sam")
    phone.goto("/sheets/")
    # a guest may keep score, and is told how to keep the sheets on an account
    expect(phone.get_by_text("You keep score as a guest")).to_be_visible()
    phone.locator(".guest-note").get_by_role("link", name="log in").click()
    log_in(phone, "sam")
    expect(phone).to_have_url(re.compile(r"/sheets/$"))
    create_sheet(phone)

    # seed 002's worked hand: Dad bids 3; Sam's side takes High, nobody Low,
    # Mum's side Jack and Game
    expect(phone.get_by_role("heading", name=re.compile("Hand 1"))).to_contain_text("Sam deals")
    enter_hand(phone, "Dad", 3, {"High": SAM, "Low": "Nobody", "Jack": MUM, "Game": MUM})
    expect(phone.locator("#preview")).to_contain_text("bid missed")
    expect(phone.locator("#preview")).to_contain_text("Mum & Dad enters 0, owes 3")
    save(phone)

    expect(phone.get_by_role("status").filter(has_text="Hand 1 is on the sheet")).to_be_visible()
    expect(cell(phone, 1, 0).locator(".cell__entry")).to_have_text("1")
    expect(cell(phone, 1, 1).locator(".cell__entry")).to_have_text("0")
    expect(cell(phone, 1, 1)).to_contain_text("owes 3")
    expect(phone.locator("#hand-1 .bid")).to_contain_text("missed")

    # the debt is paid from Mum & Dad's next points before anything is entered
    enter_hand(phone, "Alex", 2, {"High": SAM, "Low": SAM, "Jack": MUM, "Game": MUM})
    save(phone)
    expect(cell(phone, 2, 1).locator(".cell__entry")).to_have_text("0")
    expect(cell(phone, 2, 1)).to_contain_text("owes 1")
    enter_hand(phone, "Mum", 2, {"High": MUM, "Low": MUM, "Jack": SAM, "Game": MUM})
    save(phone)
    expect(cell(phone, 3, 1).locator(".cell__entry")).to_have_text("2")
    expect(cell(phone, 3, 1)).not_to_contain_text("owes")

    # typing the totals works too
    tap(phone, "Who bid", "Dad")
    tap(phone, "Bid", "4")
    phone.get_by_text("Or type the points each side made").click()
    phone.get_by_role("spinbutton", name=SAM).fill("0")
    phone.get_by_role("spinbutton", name=MUM).fill("4")
    settled(phone, (0, 4))
    save(phone)
    expect(cell(phone, 4, 1).locator(".cell__entry")).to_have_text("4")
    standings = phone.get_by_role("list", name="Standings")
    expect(standings.locator('[data-side="0"] .standing__score')).to_have_text("4")
    expect(standings.locator('[data-side="1"] .standing__score')).to_have_text("6")

    # edit hand 2: Game went to Sam & Alex after all; every later hand is tallied again
    phone.get_by_role("link", name="Edit hand 2").click()
    expect(phone.get_by_role("heading", name="Edit hand 2")).to_be_visible()
    tap(phone, "Game", SAM)
    phone.get_by_role("button", name="Save hand 2").click()
    expect(phone.get_by_role("status")).to_contain_text("Hand 2 is changed")
    expect(cell(phone, 2, 0).locator(".cell__entry")).to_have_text("3")
    expect(cell(phone, 2, 1)).to_contain_text("owes 2")
    expect(cell(phone, 3, 1).locator(".cell__entry")).to_have_text("1")
    expect(standings.locator('[data-side="1"] .standing__score')).to_have_text("5")

    # Sam & Alex go from 5 to 12: past the target of 11
    enter_hand(phone, "Sam", 4, {"High": SAM, "Low": SAM, "Jack": SAM, "Game": SAM})
    save(phone)
    enter_hand(phone, "Alex", 3, {"High": SAM, "Low": SAM, "Jack": SAM, "Game": MUM})
    save(phone)
    expect(standings.locator('[data-side="0"]')).to_contain_text("at the target")
    assert horizontal_overflow(phone) <= 0, "the sheet scrolls sideways at 390 px"
    phone.screenshot(path=artifacts / "phone-scoresheet.png", full_page=True)

    phone.get_by_role("button", name="End match: bank it for Sam & Alex").click()
    expect(phone.get_by_role("status").first).to_contain_text("Match banked for Sam & Alex")
    expect(phone.get_by_role("button", name=re.compile("^Save hand"))).to_have_count(0)
    sheet = Sheet.objects.get()
    assert sheet.status == Sheet.Status.ENDED
    assert Hand.objects.filter(sheet=sheet).count() == 6
    assert problems == [], "the score sheet logged errors or got a 4xx"


def test_the_second_of_two_phones_entering_the_same_hand_is_told(browser: Browser, live_server):
    for name in ("sam", "mum"):
        make_user(name)
    phones = []
    for name in ("sam", "mum"):
        context = browser.new_context(viewport=PHONE, base_url=live_server.url, **NO_WORKER)
        phone = context.new_page()
        phone.goto("/accounts/login/?next=/sheets/")
        log_in(phone, name)
        expect(phone.get_by_role("heading", name="Score sheets")).to_be_visible()
        phones.append(phone)
    sam, mum = phones
    try:
        create_sheet(sam)
        code = sam.locator(".invite-code").text_content()
        mum.get_by_role("link", name="Join with a code").click()
        mum.get_by_label("Invite code").fill(code)
        mum.get_by_role("button", name="Join").click()
        expect(mum.get_by_role("heading", name="Hand 1", exact=False)).to_be_visible()

        # both have hand 1 open and filled in; Sam saves first
        enter_hand(sam, "Dad", 3, {"High": SAM, "Jack": MUM, "Game": MUM})
        enter_hand(mum, "Dad", 3, {"High": SAM, "Jack": MUM, "Game": MUM})
        save(sam)
        mum.get_by_role("button", name="Save hand 1").click()

        expect(mum.locator(".errorlist")).to_contain_text(
            "Hand 1 was already entered by someone else: your entry was not saved."
        )
        assert Hand.objects.count() == 1
    finally:
        for phone in phones:
            phone.context.close()


def test_a_hand_can_be_entered_without_javascript(browser: Browser, live_server):
    make_user("sam")
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, java_script_enabled=False, **NO_WORKER
    )
    phone = context.new_page()
    try:
        phone.goto("/accounts/login/?next=/sheets/")
        log_in(phone, "sam")
        create_sheet(phone)
        enter_hand(phone, "Dad", 3, {"High": SAM, "Jack": MUM, "Game": MUM}, preview=False)
        phone.get_by_role("button", name="Save hand 1").click()

        expect(phone.get_by_role("status")).to_contain_text("Hand 1 is on the sheet")
        expect(cell(phone, 1, 1)).to_contain_text("owes 3")
    finally:
        context.close()


# --- The read-only live link, against a real server ---------------------------------------


@pytest.fixture(scope="module")
def live_url(tmp_path_factory):
    """A server serving the site (HTTP and websockets) on a database of its own."""
    folder = tmp_path_factory.mktemp("live")
    env = server_env(
        DJANGO_SETTINGS_MODULE="tests.scoresheet.live_settings",
        SCORESHEET_LIVE_DB=str(folder / "db.sqlite3"),
        # DEBUG serves the static files (htmx, its websocket extension) without collectstatic
        DEBUG="true",
    )
    manage(["migrate", "--noinput"], env=env)
    with serving(env=env, log=folder / "server.log") as server:
        yield server.url


def _signed_up_phone(browser: Browser, url: str, username: str) -> Page:
    phone = browser.new_context(viewport=PHONE, base_url=url).new_page()
    phone.set_default_timeout(15_000)
    phone.goto("/accounts/signup/?next=/sheets/")
    phone.get_by_label("Username").fill(username)
    phone.get_by_label("Password:", exact=True).fill(PASSWORD)
    phone.get_by_label("Password (again)").fill(PASSWORD)
    phone.get_by_role("button", name="Create my account").click()
    expect(phone.get_by_role("heading", name="Score sheets")).to_be_visible()
    return phone


def test_read_only_link_updates_live_over_the_websocket(browser: Browser, live_url, artifacts):
    phone = _signed_up_phone(browser, live_url, "livesam")
    tv = browser.new_context(viewport=DESKTOP).new_page()
    try:
        create_sheet(phone)
        watch_url = phone.get_by_label("Read-only live link").input_value()
        tv.goto(watch_url)
        status = tv.locator("#watch-status")
        expect(status).to_have_attribute("data-state", "live", timeout=15_000)
        expect(tv.locator("#watched")).to_contain_text("No hands yet.")

        enter_hand(phone, "Dad", 3, {"High": SAM, "Jack": MUM, "Game": MUM})
        save(phone)
        # polling is paused while the socket is open: this arrived over the websocket
        expect(tv.locator('#hand-1 td[data-side="1"]')).to_contain_text("owes 3", timeout=10_000)
        expect(status).to_have_attribute("data-state", "live")

        enter_hand(phone, "Alex", 2, {"High": SAM, "Low": SAM, "Jack": MUM, "Game": MUM})
        save(phone)
        expect(tv.locator('#hand-2 td[data-side="1"]')).to_contain_text("owes 1", timeout=10_000)
        expect(tv.get_by_role("link", name=re.compile("Edit hand"))).to_have_count(0)
        # the chart on the public page is redrawn with each hand that comes in
        expect(tv.locator(".chart__svg")).to_have_attribute("data-hands", "2")
        expect(tv.locator(".chart__key")).to_have_text([f"{SAM} 3", f"{MUM} -1"])
        tv.screenshot(path=artifacts / "desktop-scoresheet-watch.png", full_page=True)
    finally:
        phone.context.close()
        tv.context.close()


def test_read_only_link_falls_back_to_polling_without_a_websocket(browser: Browser, live_url):
    phone = _signed_up_phone(browser, live_url, "pollsam")
    tv = browser.new_context(viewport=PHONE).new_page()
    # a network that lets no websocket through: the page keeps itself up to date by polling
    tv.route_web_socket(re.compile(r"/ws/"), lambda ws: ws.close())
    try:
        create_sheet(phone)
        tv.goto(phone.get_by_label("Read-only live link").input_value())
        expect(tv.locator("#watch-status")).to_have_attribute("data-state", "polling")

        enter_hand(phone, "Dad", 3, {"High": SAM, "Jack": MUM, "Game": MUM})
        save(phone)

        expect(tv.locator('#hand-1 td[data-side="1"]')).to_contain_text("owes 3", timeout=15_000)
        expect(tv.locator("#watch-status")).to_have_attribute("data-state", "polling")
    finally:
        phone.context.close()
        tv.context.close()


def test_the_history_shows_each_change_in_the_viewers_own_time_zone(browser: Browser, live_server):
    context = browser.new_context(
        viewport=PHONE,
        base_url=live_server.url,
        timezone_id="Asia/Tokyo",
        locale="en-GB",
        **NO_WORKER,
    )
    page = context.new_page()
    problems = watch(page)
    make_user("sam")
    page.goto("/accounts/login/?next=/sheets/")
    log_in(page, "sam")
    create_sheet(page)
    enter_hand(page, "Dad", 3, {"High": SAM, "Low": "Nobody", "Jack": MUM, "Game": MUM})
    save(page)

    page.goto(f"/sheets/{Sheet.objects.get().pk}/history/")
    shown = page.locator("time[data-local]").first
    when = datetime.fromisoformat(shown.get_attribute("datetime"))
    tokyo = when.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%H:%M")
    site = when.astimezone(ZoneInfo("America/Regina")).strftime("%H:%M")
    expect(shown).to_contain_text(tokyo)
    assert site not in shown.inner_text()
    assert problems == []
    context.close()
