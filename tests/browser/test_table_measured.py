"""The table's layout measured, not eyeballed: at a phone's and a desktop's size, for 3 to 8
players and every preset, as a seated player and as a spectator, no word is broken inside a
table cell, no card of the trick lies over a seat's name or status, and no round summary
lies over a bid you must make; on a phone the menu shows every link."""

from random import Random

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from game.bots.basic import GreedyBot
from game.engine import variants
from game.engine.rules import Phase
from game.engine.state import MatchSetup, MatchState
from game.players import profiles
from tests.browser.conftest import PHONE, WIDE
from tests.game.stored import greedy_round, stored_table

pytestmark = pytest.mark.browser

PASSWORD = "trump-leads-first-42"
# every word of every table cell, and each that the page draws over two lines
BROKEN_WORDS = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll("#table th, #table td")) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rows = new Set(Array.from(range.getClientRects())
          .filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (rows.size > 1 && cell.getClientRects().length) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""
# each card of the trick that lies over a seat's name or status (more than 2 px)
CARDS_OVER_SEATS = """() => {
  const over = [];
  const seats = document.querySelectorAll(
    "#table .seat__name, #table .seat__facts, #table .seat__turn");
  for (const card of document.querySelectorAll("#table .trick__play .card")) {
    const c = card.getBoundingClientRect();
    for (const label of seats) {
      const s = label.getBoundingClientRect();
      const w = Math.min(c.right, s.right) - Math.max(c.left, s.left);
      const h = Math.min(c.bottom, s.bottom) - Math.max(c.top, s.top);
      if (w > 2 && h > 2 && s.width) {
        over.push(card.textContent.trim() + " over " + label.textContent.trim());
      }
    }
  }
  return over;
}"""
# the folded round summary's tab over a seat's name or facts
TAB_OVER_SEATS = """() => {
  const over = [];
  const tab = document.querySelector("#table details.round-summary:not([open]) > summary");
  if (!tab) return over;
  const t = tab.getBoundingClientRect();
  for (const label of document.querySelectorAll(
      "#table .seat__name, #table .seat__facts, #table .seat__turn")) {
    const s = label.getBoundingClientRect();
    const w = Math.min(t.right, s.right) - Math.max(t.left, s.left);
    const h = Math.min(t.bottom, s.bottom) - Math.max(t.top, s.top);
    if (w > 2 && h > 2 && s.width) over.push("the folded summary over " + label.textContent.trim());
  }
  return over;
}"""

# a bid button of your own that something else covers: the topmost element at its middle
# is not the button (a round summary laid over it, say)
BIDS_COVERED = """() => {
  const covered = [];
  for (const button of document.querySelectorAll("#table .bid-form button")) {
    button.scrollIntoView({block: "nearest"});
    const b = button.getBoundingClientRect();
    const top = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    if (!top || !button.contains(top)) {
      covered.push(button.textContent.trim() + " under " + (top ? top.className : "nothing"));
    }
  }
  return covered;
}"""

# the menu's row scrolls: some link is out of sight
NAV_HIDDEN = """() => {
  const row = document.querySelector(".site-nav ul");
  return row.scrollWidth > row.clientWidth + 1;
}"""

TABLES = [
    ("house", 3, ((0,), (1,), (2,))),
    ("house", 4, ((0, 2), (1, 3))),
    ("house", 5, ((0,), (1,), (2,), (3,), (4,))),
    ("house", 6, ((0, 3), (1, 4), (2, 5))),
    ("house", 7, tuple((n,) for n in range(7))),
    ("house", 8, ((0, 2, 4, 6), (1, 3, 5, 7))),
    ("classic", 4, ((0, 2), (1, 3))),
    ("six_handed", 6, ((0, 2, 4), (1, 3, 5))),
    ("seven_point", 4, ((0, 2), (1, 3))),
]


def _at(preset: str, players: int, teams, phase: str, seed: int) -> MatchState:
    """A match one round in (so a summary stands), then the next round played by the
    greedy bot until seat 0 is to act: in the auction, or with a trick begun."""
    rules = variants.PRESETS[preset]
    setup = MatchSetup(players, teams, rules=rules)
    for attempt in range(40):
        rng = Random(f"{seed}/{attempt}")
        match = greedy_round(MatchState(setup, rng.randrange(players)), rng)
        if match.is_terminal():
            continue
        match = match.deal_round(rng)
        bot = GreedyBot()
        while match.current_player() is not None:
            view = match.view_for(match.current_player())
            if match.current_player() == 0:
                if phase == "auction" and view.phase is Phase.AUCTION:
                    return match
                if phase == "trick" and view.phase is Phase.PLAY and view.current_trick:
                    return match
            seat = match.current_player()
            match = match.apply(bot.choose(view, match.legal_actions(), rng), seat)
    raise AssertionError(f"no {phase} for seat 0 at {preset} {players}")


@pytest.fixture
def player(transactional_db):
    user = get_user_model().objects.create_user(username="measured", password=PASSWORD)
    profiles.profile_get_or_create(user=user)
    return user


def _page(browser: Browser, url: str, viewport: dict, user: bool) -> Page:
    context = browser.new_context(viewport=viewport, base_url=url)
    page = context.new_page()
    page.set_default_timeout(15_000)
    if user:
        page.goto("/accounts/login/")
        page.get_by_label("Username").fill("measured")
        page.get_by_label("Password:", exact=True).fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        expect(page.get_by_role("navigation", name="Account")).to_contain_text("measured")
    return page


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["phone", "desktop"])
def test_no_broken_word_no_card_over_a_seat_no_summary_over_a_bid(
    browser: Browser, live_server, player, viewport, artifacts
):
    seated, watching = (_page(browser, live_server.url, viewport, user) for user in (True, False))
    found = []
    for preset, players, teams in TABLES:
        for phase in ("trick", "auction"):
            match = _at(preset, players, teams, phase, seed=players)
            seats = [{"user": player, "display_name": "Measured"}]
            seats += [
                {"bot_level": "greedy", "display_name": f"Greedy bot {n}"}
                for n in range(1, players)
            ]
            table = stored_table(match, seats)
            for who, page in (("player", seated), ("spectator", watching)):
                page.goto(f"/table/{table.code}/")
                expect(page.locator("#table .felt")).to_be_visible()
                where = f"{preset} {players}p {phase} {who}"
                found += [f"{where}: broken word {w!r}" for w in page.evaluate(BROKEN_WORDS)]
                found += [f"{where}: {o}" for o in page.evaluate(CARDS_OVER_SEATS)]
                if viewport is PHONE and page.evaluate(NAV_HIDDEN):
                    found.append(f"{where}: the menu hides a link")
                if who == "player" and phase == "auction":
                    found += [f"{where}: {b}" for b in page.evaluate(BIDS_COVERED)]
                summary = page.locator("#table details.round-summary[open] > summary")
                if summary.count():  # folded, its tab must leave every seat in sight
                    summary.click()
                    found += [f"{where}: {o}" for o in page.evaluate(TAB_OVER_SEATS)]
                shot = artifacts / f"measured-{viewport['width']}-{where.replace(' ', '-')}.png"
                if (found or players in (3, 8)) and not shot.exists():
                    page.screenshot(path=shot)
    assert found == [], "\n".join(found)
