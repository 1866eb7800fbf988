"""The table as a card table, in a real browser against a real server: the hand and the
bid buttons stay wholly on screen and tappable in every phase, on a phone and a desktop,
at 4 and 8 players; a finished trick stays on the table; a whole round logs no error."""

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, WIDE, served_env, watch
from tests.browser.test_play import table_position
from tests.servers import serving

pytestmark = pytest.mark.browser

LAYOUTS = {4: "2v2", 8: "4v4"}

# every card and bid button of the dock: wholly inside the viewport, and the element
# found at its centre is itself (nothing covers it)
DOCK_REACHABLE = """() => {
  const dock = document.querySelector('.dock');
  if (!dock) return ['no dock'];
  const bad = [];
  const items = dock.querySelectorAll('.card, .bid-form button');
  if (!items.length) bad.push('an empty dock');
  for (const item of items) {
    const r = item.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
      bad.push(`${item.textContent.trim()} at ${r.top},${r.left}-${r.bottom},${r.right}`);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(item.contains(hit) || hit.contains(item)))
      bad.push(`${item.textContent.trim()} covered by ${hit && hit.className}`);
  }
  return bad;
}"""

LOW_CONTRAST = (Path(__file__).parent / "contrast.js").read_text()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("table-layout")
    env = served_env(folder / "table.sqlite3")
    with serving(env=env, log=folder / "server.log") as running:
        yield running


def _deal(browser: Browser, url: str, viewport: dict, players: int) -> Page:
    context = browser.new_context(viewport=viewport, base_url=url)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto("/play/")
    page.get_by_label("Players").select_option(str(players))
    page.get_by_label("Teams", exact=True).select_option(LAYOUTS[players])
    for seat in range(1, players):
        page.get_by_label(f"Seat {seat} bot").select_option("greedy")
    page.get_by_role("button", name="Deal me in").click()
    expect(page.locator("#live")).to_have_attribute("data-connected", "yes")
    return page


def _reachable(page: Page, phase: str) -> None:
    assert page.evaluate(DOCK_REACHABLE) == [], f"the hand is out of reach in {phase}"


def _wait_for_my_turn_or_summary(page: Page) -> None:
    page.wait_for_function(
        "() => document.querySelector('.your-turn')"
        " || document.querySelector('details.round-summary[open]')"
    )


def _move(page: Page) -> None:
    before = table_position(page)
    bids = page.locator(".dock .bid-form button")
    (bids.first if bids.count() else page.locator(".dock .card-button").first).click()
    page.wait_for_function(
        "before => { const t = document.querySelector('#table');"
        " return t && `${t.dataset.round}/${t.dataset.index}` !== before; }",
        arg=before,
    )


@pytest.mark.parametrize("players", [4, 8])
@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["phone", "desktop"])
def test_the_hand_is_in_reach_in_the_auction_in_play_and_after_the_summary(
    browser: Browser, server, artifacts, viewport, players
):
    page = _deal(browser, server.url, viewport, players)
    problems = watch(page)
    size = f"{'phone' if viewport is PHONE else 'desktop'}-{players}"
    phases = set()
    for _ in range(40):
        _wait_for_my_turn_or_summary(page)
        if page.locator("details.round-summary[open]").count():
            break
        phase = "auction" if page.locator(".dock .bid-form").count() else "play"
        _reachable(page, phase)
        low = page.evaluate(LOW_CONTRAST, "#table *, .dock *")
        assert low == [], f"text under 4.5 : 1 in {phase}"
        if phase not in phases:
            page.screenshot(path=artifacts / f"table-{size}-{phase}.png")
        phases.add(phase)
        _move(page)
    assert phases == {"auction", "play"}

    expect(page.get_by_role("heading", name="Round summary")).to_be_visible()
    _reachable(page, "the round summary")
    page.screenshot(path=artifacts / f"table-{size}-summary.png")
    # the summary closes to show the table, and stays closed through the redraws
    page.get_by_role("heading", name="Round summary").click()
    expect(page.locator("details.round-summary")).not_to_have_attribute("open", "")
    _reachable(page, "the next auction")
    page.context.close()
    assert problems == [], "a whole round logged errors or got a 4xx"


def test_a_finished_trick_stays_on_the_table_with_its_winner_marked(
    browser: Browser, server, artifacts
):
    page = _deal(browser, server.url, PHONE, 4)
    for _ in range(20):
        _wait_for_my_turn_or_summary(page)
        if not page.locator(".dock .bid-form").count():
            break
        _move(page)
    _move(page)  # a card: the rest of the table completes the trick before my next turn
    done = page.locator(".trick--done")
    winner = done.locator(".trick__play--winner .card")  # the list itself has no box
    winner.wait_for(state="visible", timeout=10_000)
    seen = time.monotonic()
    expect(done.locator(".trick__play")).to_have_count(4)
    expect(done.locator(".trick__play--winner")).to_have_count(1)
    page.screenshot(path=artifacts / "table-phone-trick-done.png")
    winner.wait_for(state="hidden", timeout=10_000)
    assert time.monotonic() - seen >= 1.0, "the finished trick went too soon"
    page.context.close()


def test_a_whole_round_plays_by_keyboard_with_the_turn_told_in_the_title_and_live_region(
    browser: Browser, server
):
    page = _deal(browser, server.url, PHONE, 4)
    problems = watch(page)
    # the seats are drawn once for everyone: only the viewer's says "(you)", at the bottom
    expect(page.locator(".seat__you:visible")).to_have_count(1)
    expect(page.locator(".seat.at-0 .seat__you")).to_be_visible()
    page.evaluate("window.announcer = document.getElementById('announce')")
    for _ in range(40):
        _wait_for_my_turn_or_summary(page)
        if page.locator("details.round-summary[open]").count():
            break
        # the focus is on the first legal card or bid: Enter plays it
        focused = page.evaluate("document.activeElement.closest('.dock') !== null")
        assert focused, "the focus is not on a move when the turn comes"
        assert page.title().startswith("Your turn")
        moves = page.locator(".dock .card-button, .dock .bid-form button")
        if moves.count() > 1:  # the arrows step through the moves, round and back
            page.keyboard.press("ArrowRight")
            assert moves.nth(1).evaluate("b => b === document.activeElement")
            page.keyboard.press("ArrowLeft")
            assert moves.nth(0).evaluate("b => b === document.activeElement")
        before = table_position(page)
        page.keyboard.press("Enter")
        page.wait_for_function(
            "before => { const t = document.querySelector('#table');"
            " return t && `${t.dataset.round}/${t.dataset.index}` !== before; }",
            arg=before,
        )
    else:
        raise AssertionError("the round did not end")
    # the live region is the same element through every redraw, and it has been told
    assert page.evaluate("document.getElementById('announce') === window.announcer")
    assert page.locator("#announce").text_content().strip()
    assert problems == []
    page.context.close()


def test_the_table_settings_colour_four_suits_and_play_a_single_legal_card(
    browser: Browser, server
):
    page = _deal(browser, server.url, PHONE, 4)
    page.get_by_text("Table settings").click()
    page.get_by_label("Four-colour deck (diamonds blue, clubs green)").check()
    page.get_by_label("Larger cards in my hand").check()
    page.get_by_label("Play my card for me when only one is legal").check()
    page.get_by_role("button", name="Save settings").click()
    expect(page.locator("body")).to_have_class("deck-four cards-large autoplay-single")
    expect(page.locator("#live")).to_have_attribute("data-connected", "yes")

    colours = page.evaluate(
        "() => { const probe = code => { const s = document.createElement('span');"
        " s.className = 'card card--red'; s.dataset.card = code;"
        " document.querySelector('.dock').append(s); const c = getComputedStyle(s).color;"
        " s.remove(); return c; }; return [probe('10H'), probe('10D')]; }"
    )
    assert colours[0] != colours[1], "hearts and diamonds share a colour"

    played_for_me = 0
    for _ in range(40):
        _wait_for_my_turn_or_summary(page)
        if page.locator("details.round-summary[open]").count():
            break
        _reachable(page, "play with larger cards")
        if page.locator(".dock .card-button").count() == 1:
            before = table_position(page)
            page.wait_for_function(  # nobody clicks: the page plays the only card
                "before => { const t = document.querySelector('#table');"
                " return t && `${t.dataset.round}/${t.dataset.index}` !== before; }",
                arg=before,
                timeout=5_000,
            )
            played_for_me += 1
        else:
            _move(page)
    assert played_for_me >= 1, "the last card at least has one legal play"
    page.context.close()


def test_a_countdown_comes_before_a_bot_plays_an_away_persons_turn(browser: Browser, tmp_path):
    env = served_env(tmp_path / "away.sqlite3", SMEAR_AWAY_AFTER_S="20")
    with serving(env=env, log=tmp_path / "server.log") as running:
        page = _deal(browser, running.url, PHONE, 4)
        _wait_for_my_turn_or_summary(page)
        countdown = page.locator(".countdown")
        expect(countdown).to_be_visible(timeout=9_000)
        expect(countdown).to_contain_text("A bot will play for you in")
        # a reloaded page counts from the turn's real start, not from the reload
        page.reload()
        expect(countdown).to_be_visible(timeout=2_000)
        left = int(re.search(r"in (\d+) s", countdown.text_content()).group(1))
        assert left <= 15, left
        page.context.close()
