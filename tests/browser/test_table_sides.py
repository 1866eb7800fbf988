"""Who is who at the table, in a real browser against a real server, at 3, 4, 6 and 8
players on a phone and a desktop: every seat's whole name and its side in sight, no text
wider than its box, and the last round's summary never over the auction you bid in."""

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, WIDE, served_env, watch
from tests.browser.test_play import table_position
from tests.browser.test_table_layout import DOCK_REACHABLE
from tests.servers import serving

pytestmark = pytest.mark.browser

# every element whose own text is wider than its box (a name cut to "Expert b…" is one);
# visually hidden text is clipped on purpose, for screen readers alone
TEXT_WIDER_THAN_BOX = """root => {
  const clipped = e => {
    for (let x = e; x; x = x.parentElement)
      if (getComputedStyle(x).clipPath !== 'none') return true;
    return false;
  };
  const bad = [];
  for (const e of document.querySelectorAll(root + ' *')) {
    if (clipped(e)) continue;
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (own && e.clientWidth && e.scrollWidth > e.clientWidth + 1)
      bad.push(`${e.className || e.tagName}: "${e.textContent.trim().slice(0, 30)}"`
        + ` ${e.scrollWidth} > ${e.clientWidth}`);
  }
  return bad;
}"""

# each seat: its name as drawn (without "(you)"), whether the name shows whole and
# uncovered, and its side's letter as shown
SEATS = """() => [...document.querySelectorAll('.felt .seat')].map(seat => {
  const name = seat.querySelector('.seat__name');
  const r = name.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const badge = seat.querySelector('.side-badge');
  return {
    name: name.firstChild.textContent.trim(),
    whole: name.scrollWidth <= name.clientWidth + 1 && r.width > 0,
    seen: !!hit && seat.contains(hit),
    side: badge && badge.checkVisibility() ? badge.textContent.replace('side', '').trim() : null,
  };
})"""

# the boxes of the seats and of the summary: none may meet while you bid
SUMMARY_OVER_SEATS = """() => {
  const summary = document.querySelector('.round-summary');
  if (!summary) return null;
  const s = summary.getBoundingClientRect();
  return [...document.querySelectorAll('.felt .seat')].filter(seat => {
    const r = seat.getBoundingClientRect();
    return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
  }).map(seat => seat.querySelector('.seat__name').textContent.trim());
}"""

# the seat names a finished trick's "wins" tag lies over
WINS_OVER_NAMES = """() => {
  const tag = document.querySelector('.trick--done .trick__won');
  if (!tag) return [];
  const w = tag.getBoundingClientRect();
  return [...document.querySelectorAll('.felt .seat__name')].filter(name => {
    const r = name.getBoundingClientRect();
    return r.left < w.right && w.left < r.right && r.top < w.bottom && w.top < r.bottom;
  }).map(name => name.textContent.trim());
}"""

LAYOUTS = {3: ("cutthroat", None), 4: ("2v2", "ABAB"), 6: ("3v3", "ABABAB"), 8: ("4v4", "ABABABAB")}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("table-sides")
    env = served_env(folder / "table.sqlite3")
    with serving(env=env, log=folder / "server.log") as running:
        yield running


def _deal(browser: Browser, url: str, viewport: dict, players: int) -> Page:
    page = browser.new_context(viewport=viewport, base_url=url).new_page()
    page.set_default_timeout(20_000)
    page.goto("/play/")
    page.get_by_label("Players").select_option(str(players))
    for seat in range(1, players):
        page.get_by_label(f"Seat {seat} bot").select_option("greedy")
    page.get_by_role("button", name="Deal me in").click()
    expect(page.locator("#live")).to_have_attribute("data-connected", "yes")
    return page


def _my_turn(page: Page) -> None:
    page.wait_for_function("() => document.querySelector('.your-turn')")


def _move(page: Page) -> None:
    before = table_position(page)
    bids = page.locator(".dock .bid-form button")
    (bids.first if bids.count() else page.locator(".dock .card-button").first).click()
    page.wait_for_function(
        "before => { const t = document.querySelector('#table');"
        " return t && `${t.dataset.round}/${t.dataset.index}` !== before; }",
        arg=before,
    )


def _who_is_who(page: Page, players: int, phase: str) -> None:
    seats = page.evaluate(SEATS)
    assert len(seats) == players
    for seat in seats:
        assert seat["whole"], f"{seat['name']} is cut short in {phase}"
        assert seat["seen"], f"{seat['name']} is covered in {phase}"
        assert seat["name"].startswith(("Guest", "Greedy bot")), seat["name"]
    sides = LAYOUTS[players][1]
    if sides is None:  # everyone for themselves: each seat's score under its own name
        assert all(seat["side"] is None for seat in seats)
        scores = page.locator(".scores th").all_inner_texts()
        assert sorted(scores) == sorted(seat["name"] for seat in seats)
    else:
        assert "".join(seat["side"] for seat in seats) == sides
        # the viewer's partners say so; the viewer's own seat says "(you)"
        partners = page.locator(".felt .seat__partner:visible")
        expect(partners).to_have_count(players // 2 - 1)
        expect(page.locator(".scores .is-yours")).to_contain_text("Your side")
    assert page.evaluate(TEXT_WIDER_THAN_BOX, "#table") == [], f"text overflows in {phase}"


@pytest.mark.parametrize("players", [3, 4, 6, 8])
@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["phone", "desktop"])
def test_every_seat_shows_its_name_and_side_and_the_summary_leaves_the_auction_in_sight(
    browser: Browser, server, artifacts, viewport, players
):
    page = _deal(browser, server.url, viewport, players)
    problems = watch(page)
    size = f"{'phone' if viewport is PHONE else 'desktop'}-{players}"
    _my_turn(page)
    _who_is_who(page, players, "the first auction")
    said = page.locator(".seat__said").all_inner_texts()
    expect(page.locator(".dock-area .turn")).to_contain_text(
        "High bid" if any(words.startswith("bid") for words in said) else "Nobody has bid yet"
    )

    for _ in range(20):  # the first round, to its end
        if page.locator("#table").get_attribute("data-round") != "0":
            break
        _move(page)
        if page.locator("#table").get_attribute("data-round") == "0":
            _my_turn(page)
    else:
        raise AssertionError("the first round did not end")

    # the next auction: at this seat's bid the summary stands aside, every bid in sight
    page.wait_for_function(
        "() => document.querySelector('.dock .bid-form')"
        " || document.querySelector('.round-summary:not([open])')"
    )
    _my_turn(page)
    assert page.locator(".dock .bid-form").count(), "this seat bids once in every auction"
    assert page.locator(".round-summary").count(), "no card is played before this bid"
    assert page.evaluate(SUMMARY_OVER_SEATS) == [], "the summary covers the auction"
    assert page.evaluate(DOCK_REACHABLE) == [], "the bids are out of reach"
    _who_is_who(page, players, "the next auction")
    expect(page.locator(".round-summary .review-link a")).to_have_attribute(
        "href", f"/learn/review/{page.url.rstrip('/').rsplit('/', 1)[-1]}/1/"
    )
    page.screenshot(path=artifacts / f"sides-{size}-next-auction.png")
    page.context.close()
    assert problems == [], "errors or a 4xx on the way"


def test_a_move_made_while_a_finished_trick_stands_shows_at_once(browser: Browser, tmp_path):
    # a long stay: a move that waited it out would show seconds late
    env = served_env(tmp_path / "hold.sqlite3", SMEAR_TRICK_HOLD_MS="3000")
    with serving(env=env, log=tmp_path / "server.log") as running:
        page = _deal(browser, running.url, PHONE, 4)
        problems = watch(page)
        quick = []
        for _ in range(60):
            _my_turn(page)
            # the list itself has no box: its cards show whether it stands
            standing = page.locator(".trick--done .card:visible").count() > 0
            if not standing:
                _move(page)
                continue
            assert page.evaluate(WINS_OVER_NAMES) == [], "the trick's tag covers a name"
            started = page.evaluate("performance.now()")
            _move(page)  # waits for the table to show the move
            page.locator(".trick--done .card").first.wait_for(state="hidden", timeout=1_000)
            quick.append(page.evaluate("performance.now()") - started)
            if len(quick) >= 2:
                break
        assert quick, "no move came while a finished trick stood"
        assert max(quick) < 1_000, f"the move waited for the trick's stay: {quick} ms"
        page.context.close()
        assert problems == []
