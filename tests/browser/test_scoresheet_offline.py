"""The score sheet at the kitchen table: a guest with no account, a phone with no network.

Against a real server in a child process (its own SQLite file), like the live link's
tests: the service worker, background refreshes and a phone's hands sent as it comes
back online are requests that overlap, which the live server's one shared in-memory
connection is not made for. The database is read straight from the server's file.
"""

import re
import sqlite3

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import PHONE, watch_csp
from tests.browser.test_scoresheet import MUM, SAM, create_sheet, enter_hand
from tests.servers import manage, server_env, serving

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """(url, database file) of a server serving the site on a database of its own."""
    folder = tmp_path_factory.mktemp("offline")
    database = folder / "db.sqlite3"
    env = server_env(
        DJANGO_SETTINGS_MODULE="tests.scoresheet.live_settings",
        SCORESHEET_LIVE_DB=str(database),
        DEBUG="true",  # static files straight from the finders, no collectstatic
    )
    manage(["migrate", "--noinput"], env=env)
    with serving(env=env, log=folder / "server.log") as server:
        yield server.url, database


def rows(database, sql: str, *params) -> list[tuple]:
    with sqlite3.connect(database) as db:
        return db.execute(sql, params).fetchall()


def guest_phone(browser: Browser, url: str) -> Page:
    context = browser.new_context(viewport=PHONE, base_url=url)
    page = watch_csp(context.new_page())
    page.set_default_timeout(15_000)
    return page


def eventually(page: Page, script: str, seconds: float = 15) -> None:
    """Wait until ``script`` is true in the page (polled from here: wait_for_function
    would evaluate a string, which the site's CSP forbids)."""
    for _ in range(int(seconds * 10)):
        if page.evaluate(script):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never true: {script}")


def kept_by_the_worker(page: Page) -> None:
    """Wait until the service worker runs the page and has kept it for offline."""
    eventually(page, "!!(navigator.serviceWorker && navigator.serviceWorker.controller)")
    eventually(
        page,
        "caches.open('sheets-pages').then(c => c.match(location.pathname)).then(Boolean)",
    )


def save_offline(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(
        page.get_by_role("status").filter(has_text=f"Hand {number} is saved on this phone")
    ).to_be_visible()


def standings(page: Page) -> list[str]:
    scores = page.get_by_role("list", name="Standings").locator(".standing__score")
    return scores.all_inner_texts()


def totals_by_hand(page: Page) -> list[list[str]]:
    table = page.locator(".sheet-table tbody tr[data-hand], .sheet-table tbody tr.pending")
    return [row.locator(".cell__total").all_inner_texts() for row in table.all()]


def test_a_guest_keeps_score_offline_and_the_sheet_gets_every_hand_once(
    browser: Browser, site, artifacts
):
    url, database = site
    phone = guest_phone(browser, url)
    context: BrowserContext = phone.context
    sync_posts = []  # the sendings of kept hands that the server answered
    phone.on(
        "response",
        lambda response: (
            sync_posts.append((response.url, response.request.post_data, response.request.headers))
            if response.url.endswith("/hands/sync/")
            else None
        ),
    )
    try:
        # no account: "Score sheet" opens the sheets, not the log-in page
        phone.goto("/")
        phone.get_by_role("navigation", name="Main").get_by_role("link", name="Score sheet").click()
        expect(phone).to_have_url(re.compile(r"/sheets/$"))
        create_sheet(phone)
        expect(phone.get_by_text("You keep score as a guest")).to_be_visible()
        sheet_path = phone.evaluate("location.pathname")
        kept_by_the_worker(phone)
        eventually(
            phone, "caches.open('sheets-pages').then(c => c.match('/sheets/')).then(Boolean)"
        )
        # installable: chromium finds nothing missing (but that a test's context is private)
        cdp = phone.context.new_cdp_session(phone)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert [error["errorId"] for error in errors] in ([], ["in-incognito"])

        context.set_offline(True)
        # the preview works offline too, by the same rules
        enter_hand(phone, "Dad", 3, {"High": SAM, "Low": "Nobody", "Jack": MUM, "Game": MUM})
        expect(phone.locator("#preview")).to_contain_text("Mum & Dad enters 0, owes 3")
        save_offline(phone, 1)
        enter_hand(phone, "Alex", 2, {"High": SAM, "Low": SAM, "Jack": MUM, "Game": MUM})
        save_offline(phone, 2)
        enter_hand(phone, "Mum", 2, {"High": MUM, "Low": MUM, "Jack": SAM, "Game": MUM})
        save_offline(phone, 3)

        pending = phone.locator("tr.pending")
        expect(pending).to_have_count(3)
        expect(pending.first).to_contain_text("saved on this phone")
        expect(pending.first).to_contain_text("missed")
        expect(pending.nth(0).locator('td[data-side="1"]')).to_contain_text("owes 3")
        expect(pending.nth(1).locator('td[data-side="1"]')).to_contain_text("owes 1")
        expect(phone.locator("#sheet-offline")).to_contain_text("No network")
        offline_standings = standings(phone)
        offline_totals = totals_by_hand(phone)
        assert offline_standings == ["4", "2"]
        assert rows(database, "select count(*) from scoresheet_hand") == [(0,)]
        # the chart draws the kept hands too: a point a hand, ending on the standings
        chart = phone.locator(".chart__svg")
        expect(chart).to_have_attribute("data-hands", "3")
        for side, standing in enumerate(offline_standings):
            line = chart.locator(f'.chart__line[data-side="{side}"]')
            expect(line).to_have_attribute("data-last", standing)
            assert len(line.get_attribute("points").split()) == 4  # before any hand, then 3
        # (a full-page screenshot leaves inline styles that a later htmx swap would copy,
        # which the CSP refuses: the reload below starts the page afresh)
        phone.screenshot(path=artifacts / "phone-scoresheet-offline.png", full_page=True)

        # a reload without network: the page the phone kept, and its kept hands
        phone.reload()
        expect(phone.locator("tr.pending")).to_have_count(3)
        assert standings(phone) == offline_standings
        assert totals_by_hand(phone) == offline_totals
        # the app opens from the home screen on the list of sheets, kept with this one; a
        # page never kept says so in the site's words, not the browser's error page
        phone.goto("/sheets/")
        phone.get_by_role("link", name="Sam & Alex v Mum & Dad").click()
        expect(phone.locator("tr.pending")).to_have_count(3)
        phone.goto("/sheets/join/")
        expect(phone.get_by_role("heading", name="No network")).to_be_visible()
        phone.goto(sheet_path)
        expect(phone.locator("tr.pending")).to_have_count(3)

        # the network is back: the kept hands go, once each, in their order
        context.set_offline(False)
        expect(phone.locator("tr.pending")).to_have_count(0)
        expect(phone.locator("tr[data-hand]")).to_have_count(3)
        assert standings(phone) == offline_standings
        assert totals_by_hand(phone) == offline_totals
        assert len(sync_posts) == 1  # the three kept hands went together

        # a retry of a hand already sent (its answer lost, say) adds nothing
        sent_url, body, headers = sync_posts[0]
        retry = phone.request.post(
            sent_url,
            data=body,
            headers={
                "Content-Type": headers["content-type"],
                "X-CSRFToken": headers["x-csrftoken"],
                "Referer": url + sheet_path,
            },
        )
        assert retry.status == 200
        assert [hand["created"] for hand in retry.json()["hands"]] == [False] * 3
        stored = rows(database, "select number, client_id from scoresheet_hand order by number")
        assert [number for number, _ in stored] == [1, 2, 3]
        assert len({client_id for _, client_id in stored}) == 3

        # another browser, a guest too: not by the sheet's number, only by its code
        other = guest_phone(browser, url)
        missing = other.goto(sheet_path)
        assert missing.status == 404
        code = phone.locator(".invite-code").text_content()
        other.goto("/sheets/join/")
        other.get_by_label("Invite code").fill(code)
        other.get_by_role("button", name="Join").click()
        expect(other.locator("tr[data-hand]")).to_have_count(3)
        assert standings(other) == offline_standings
        assert totals_by_hand(other) == offline_totals
        expect(other.locator(".chart__svg")).to_have_attribute("data-hands", "3")
        other.locator(".chart").scroll_into_view_if_needed()
        other.screenshot(path=artifacts / "phone-scoresheet-chart.png")
        assert not other.csp_violations, "\n".join(other.csp_violations)
        other.context.close()

        # the guest signs up: the sheet is the account's
        phone.goto("/accounts/signup/?next=/sheets/")
        phone.get_by_label("Username").fill("kitchen")
        phone.get_by_label("Password:", exact=True).fill("trump-leads-first-42")
        phone.get_by_label("Password (again)").fill("trump-leads-first-42")
        phone.get_by_role("button", name="Create my account").click()
        expect(phone.get_by_role("link", name="Sam & Alex v Mum & Dad")).to_be_visible()
        creator = rows(
            database,
            "select u.username from scoresheet_sheet s join auth_user u on u.id = s.creator_id",
        )
        assert creator == [("kitchen",)]

        # logging out: the pages this phone kept go with the account
        phone.get_by_role("button", name="Log out").click()
        eventually(
            phone,
            f"caches.open('sheets-pages').then(c => c.match('{sheet_path}')).then(f => !f)",
        )
    finally:
        context.close()
    assert not phone.csp_violations, "\n".join(phone.csp_violations)


def test_two_phones_that_both_kept_hands_offline_end_with_the_same_sheet(browser: Browser, site):
    url, database = site
    sam, mum = guest_phone(browser, url), guest_phone(browser, url)
    try:
        sam.goto("/sheets/")
        create_sheet(sam)
        code = sam.locator(".invite-code").text_content()
        mum.goto("/sheets/join/")
        mum.get_by_label("Invite code").fill(code)
        mum.get_by_role("button", name="Join").click()
        expect(mum.get_by_role("heading", name="Hand 1", exact=False)).to_be_visible()
        for phone in (sam, mum):
            kept_by_the_worker(phone)

        # no signal at the table: both keep hands 1 and 2, Mum with a slip in hand 2
        for phone in (sam, mum):
            phone.context.set_offline(True)
        for phone, game in ((sam, SAM), (mum, MUM)):
            enter_hand(phone, "Dad", 3, {"High": SAM, "Jack": MUM, "Game": MUM})
            save_offline(phone, 1)
            enter_hand(phone, "Alex", 2, {"High": SAM, "Low": SAM, "Jack": MUM, "Game": game})
            save_offline(phone, 2)
            expect(phone.locator("tr.pending")).to_have_count(2)

        for phone in (sam, mum):
            phone.context.set_offline(False)
        for phone in (sam, mum):
            expect(phone.locator("tr.pending")).to_have_count(0)
        newest = "select max(id) from scoresheet_sheet"
        count = f"select count(*) from scoresheet_hand where sheet_id = ({newest})"
        assert rows(database, count) == [(4,)]

        # both see the sheet as it is now: the same four hands, the later two marked
        for phone in (sam, mum):
            phone.reload()
        sheets = [(standings(phone), totals_by_hand(phone)) for phone in (sam, mum)]
        assert sheets[0] == sheets[1]
        for phone in (sam, mum):
            expect(phone.locator("tr[data-hand]")).to_have_count(4)
            expect(phone.locator(".bid__clash")).to_have_count(2)
            expect(phone.locator(".offline-rule")).to_contain_text("in the order they reach it")
        assert not sam.csp_violations and not mum.csp_violations
    finally:
        sam.context.close()
        mum.context.close()
