"""Tables with friends in a real browser: two signed-in players on phones. A creates a
private table, B joins by its short code, A seats a bot and starts, and they play a whole
round together.

It runs against a real server (``tests.servers``), as the live table does: two browsers
polling one pytest-django live server share its in-memory SQLite across threads, which
locks. The pages update themselves (live, or by polling); ``eventually`` reloads if not.
"""

import time

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.conftest import phone_at, served_env
from tests.browser.test_play import table_position
from tests.servers import free_port, manage, serving

pytestmark = pytest.mark.browser

PASSWORD = "trump-leads-first-42"
TURN_WAIT_S = 30
ROUND_WAIT_S = 180


@pytest.fixture
def port() -> int:
    return free_port()


@pytest.fixture
def site_env(tmp_path, port):
    # SITE_URL names another port: the share link must follow the address actually used
    env = served_env(tmp_path / "friends.sqlite3", SITE_URL="http://127.0.0.1:8000")
    manage(
        [
            "shell",
            "-c",
            "from django.contrib.auth import get_user_model\n"
            "from game.players import profiles\n"
            "for name in ('ann', 'bea'):\n"
            f"    user = get_user_model().objects.create_user(name, password={PASSWORD!r})\n"
            "    profiles.profile_get_or_create(user=user)\n",
        ],
        env=env,
    )
    return env


def horizontal_overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def log_in(page: Page, username: str, next_path: str) -> None:
    page.goto(f"/accounts/login/?next={next_path}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("navigation", name="Account")).to_contain_text(username)


def eventually(page: Page, locator: Locator, timeout_s: float = TURN_WAIT_S) -> None:
    """Wait for ``locator`` to show: the page updates itself (live, or by polling while
    the connection is down); should it not, reload now and then. The one place to
    tighten once live updates are trusted everywhere."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            expect(locator.first).to_be_visible(timeout=5_000)
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            page.reload()


def wait_for_turn(page: Page) -> None:
    eventually(page, page.locator("#table .turn strong", has_text="Your turn"))


def take_turn(page: Page) -> None:
    """Bid the lowest (or pass where allowed) in the auction, else play the first card
    that can be played; then wait until the table shows the move stored."""
    before = table_position(page)
    bids = page.locator("#table .bid-form button")
    if bids.count():
        bids.first.click()
    else:
        page.get_by_role("button", name="can be played").first.click()
    page.wait_for_function(
        "before => { const t = document.querySelector('#table');"
        " return t && `${t.dataset.round}/${t.dataset.index}` !== before; }",
        arg=before,
    )


def seat_to_act(page: Page) -> str:
    """The name of the seat the table waits for, as this page shows it. Not while a
    finished trick stands there: the page holds the table's news until it goes (and
    another page whose player moved meanwhile has cut its own stay short)."""
    page.locator("#table .trick--done .card").first.wait_for(state="hidden")
    turn = page.locator("#table .seat--turn")
    eventually(page, turn)
    return turn.first.inner_text().strip()


def test_two_friends_set_up_a_private_table_and_play_a_round_on_phones(
    browser: Browser, site_env, port, tmp_path, artifacts
):
    with serving(env=site_env, log=tmp_path / "server.log", port=port) as server:
        ann, bea = phone_at(browser, server.url), phone_at(browser, server.url)

        # A: from the nav to a new private table for 3, everyone for themselves
        log_in(ann, "ann", "/")
        ann.get_by_role("navigation", name="Main").get_by_role("link", name="Tables").click()
        ann.get_by_role("link", name="New table").click()
        ann.get_by_label("Players").select_option("3")
        ann.get_by_label("Teams", exact=True).select_option("cutthroat")
        ann.get_by_label("Play to").fill("11")  # 5 to 100
        expect(ann.get_by_label("Public: list it on the open tables page")).not_to_be_checked()
        ann.get_by_role("button", name="Create the table").click()

        expect(ann.get_by_role("heading", name="Invite friends")).to_be_visible()
        code = ann.locator(".table-code").inner_text().strip()
        expect(ann.get_by_label("Share link")).to_have_value(f"{server.url}/table/{code}/")
        assert horizontal_overflow(ann) <= 0, "the lobby scrolls sideways at 390 px"

        # B: the short code, typed on the tables page (a private table is not listed)
        log_in(bea, "bea", "/tables/")
        expect(bea.get_by_text(f"Table {code}")).to_have_count(0)
        bea.get_by_label("Table code").fill(code.lower())
        bea.get_by_role("button", name="Go to the table").click()
        bea.get_by_role("button", name="Take seat 1").click()
        expect(bea.locator("#table")).to_contain_text("You are in seat 1")

        # A sees B arrive, seats a bot in the last seat and starts
        eventually(ann, ann.locator("#table .lobby-seat", has_text="bea"))
        # the lobby redrawn by the socket still shares this server's address
        expect(ann.get_by_label("Share link")).to_have_value(f"{server.url}/table/{code}/")
        ann.get_by_role("button", name="Greedy bot in seat 2").click()
        expect(ann.locator("#table")).to_contain_text("Greedy bot 2")
        assert horizontal_overflow(ann) <= 0
        ann.screenshot(path=artifacts / "phone-friends-lobby.png", full_page=True)
        ann.get_by_role("button", name="Start the match").click()
        expect(ann.get_by_role("heading", name="Your hand")).to_be_visible()
        eventually(bea, bea.get_by_role("heading", name="Your hand"))

        # the whole first round: whoever the table waits for moves, on their own phone
        pages = {"ann": ann, "bea": bea}
        moves = 0
        deadline = time.monotonic() + ROUND_WAIT_S
        while not ann.get_by_role("heading", name="Round 2").is_visible():
            assert time.monotonic() < deadline, "the first round did not finish"
            name = seat_to_act(ann).split()[0]
            page = pages.get(name)
            if page is None:  # a bot: it moves at its own pace
                time.sleep(0.2)
                continue
            assert moves < 14, "a round takes at most 7 moves from each friend"
            wait_for_turn(page)
            take_turn(page)
            moves += 1

        for page in (ann, bea):
            eventually(page, page.get_by_role("heading", name="Round 2"))
            expect(page.get_by_text("How the score changed").first).to_be_visible()
            assert horizontal_overflow(page) <= 0, "the table scrolls sideways at 390 px"
        bea.screenshot(path=artifacts / "phone-friends-round.png", full_page=True)
        for page in (ann, bea):
            page.context.close()
