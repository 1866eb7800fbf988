"""The live table in a real browser against a real server (the live server has no
websockets): moves go over the socket, bots answer at their pace without a reload, and a
server restart in mid-round loses nothing."""

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import assert_no_csp_violations, phone_at, served_env
from tests.browser.test_play import table_position
from tests.servers import serving

pytestmark = pytest.mark.browser


@pytest.fixture
def site_env(tmp_path):
    return served_env(tmp_path / "live.sqlite3")


def _live(page: Page) -> None:
    expect(page.locator("#live")).to_have_attribute("data-connected", "yes")


def _move(page: Page) -> None:
    """Make this seat's move, then wait until the table shows it stored."""
    before = table_position(page)
    bids = page.locator(".bid-form button")
    (bids.first if bids.count() else page.get_by_role("button", name="can be played").first).click()
    page.wait_for_function(
        "before => { const t = document.querySelector('#table');"
        " return t && `${t.dataset.round}/${t.dataset.index}` !== before; }",
        arg=before,
    )


def _my_turn(page: Page) -> None:
    expect(page.locator("#table").get_by_text("Your turn")).to_be_visible()


def test_moves_go_over_the_socket_and_survive_a_server_restart(
    browser: Browser, site_env, tmp_path, artifacts
):
    posted = []
    with serving(env=site_env, log=tmp_path / "first.log") as server:
        phone = phone_at(browser, server.url)
        phone.on(
            "request",
            lambda request: (
                posted.append(request.url)
                if request.method == "POST" and request.url.endswith("/play")
                else None
            ),
        )
        phone.goto("/play/")
        for seat in (1, 2, 3):
            phone.get_by_label(f"Seat {seat} bot").select_option("greedy")
        phone.get_by_role("button", name="Deal me in").click()
        _live(phone)
        for _ in range(3):
            _my_turn(phone)
            _move(phone)
        _my_turn(phone)
        assert posted == [], "moves went over HTTP, not the socket"
        assert_no_csp_violations(phone)  # the live table runs under the site's policy
        position = table_position(phone)
        hand = phone.locator(".your-hand [data-card]").evaluate_all(
            "cs => cs.map(c => c.dataset.card)"
        )
        port = server.port

    # the server is gone: the page says nothing new, then reconnects to a new server
    expect(phone.locator("#live")).to_have_attribute("data-connected", "no")
    expect(phone.locator("#reconnecting")).to_be_visible()
    with serving(env=site_env, log=tmp_path / "second.log", port=port):
        _live(phone)
        expect(phone.locator("#reconnecting")).to_be_hidden()
        assert table_position(phone) == position
        assert (
            phone.locator(".your-hand [data-card]").evaluate_all(
                "cs => cs.map(c => c.dataset.card)"
            )
            == hand
        )
        _move(phone)
        assert posted == []
        phone.screenshot(path=artifacts / "phone-live-table.png", full_page=True)
    phone.context.close()
