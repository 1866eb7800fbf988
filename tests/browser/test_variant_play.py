"""The full-deck games in a real browser against a real server (websockets): a guest plays
a whole round of ``classic`` and of ``seven_point`` against bots by clicking, bidding,
naming trump and tapping the cards of the discard, on a phone and a desktop; the hand and
the controls stay on screen in every phase, and nothing logs an error."""

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, WIDE, served_env, watch
from tests.browser.test_play import table_position
from tests.browser.test_table_layout import DOCK_REACHABLE
from tests.servers import serving

pytestmark = pytest.mark.browser

GAMES = {"classic": "Classic four-point", "seven_point": "Seven-point"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("variant-play")
    env = served_env(folder / "variants.sqlite3")
    with serving(env=env, log=folder / "server.log") as running:
        yield running


def _deal(browser: Browser, url: str, viewport: dict, preset: str) -> Page:
    context = browser.new_context(viewport=viewport, base_url=url)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto("/play/")
    expect(page.get_by_label("Game")).to_have_value("house")  # the default
    page.get_by_label("Game").select_option(preset)
    page.get_by_label("Players").select_option("4")
    page.get_by_label("Teams", exact=True).select_option("2v2")
    for seat in range(1, 4):
        page.get_by_label(f"Seat {seat} bot").select_option("greedy")
    page.get_by_role("button", name="Deal me in").click()
    expect(page.locator("#live")).to_have_attribute("data-connected", "yes")
    return page


def _moved_on(page: Page, before: str) -> None:
    page.wait_for_function(
        "before => { const t = document.querySelector('#table');"
        " return t && `${t.dataset.round}/${t.dataset.index}` !== before; }",
        arg=before,
    )


def _discard(page: Page) -> int:
    """Tap cards in the mode first offered until the count is right (the button waits for
    it), then discard; how many taps it took."""
    chooser = page.locator(".dock [data-card-chooser]")
    mode = chooser.get_attribute("data-mode")
    wanted = int(chooser.get_attribute(f"data-{mode}"))
    fixed = chooser.locator(f'[data-fixed="{mode}"]').count()
    submit = chooser.locator("[data-chooser-submit]")
    taps = 0
    for card in chooser.locator("label.chooser-card").all()[: wanted - fixed]:
        expect(submit).to_be_disabled()
        card.click()
        taps += 1
    verb = "Keep" if mode == "keep" else "Throw"
    expect(chooser.locator("[data-chooser-count]")).to_have_text(
        f"{verb} {wanted}: {wanted} chosen"
    )
    expect(submit).to_be_enabled()
    submit.click()
    return taps


@pytest.mark.parametrize("preset", ["classic", "seven_point"])
@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["phone", "desktop"])
def test_a_whole_round_of_a_full_deck_game_by_clicking(
    browser: Browser, server, artifacts, viewport, preset
):
    page = _deal(browser, server.url, viewport, preset)
    problems = watch(page)
    size = "phone" if viewport is PHONE else "desktop"
    expect(page.locator(".rules-glance summary")).to_contain_text(GAMES[preset])
    assert page.locator(f'.rules-glance a[href$="#{preset}"]').count() == 1
    phases: set[str] = set()
    named_in = None  # the round where this seat named trump
    for _ in range(150):
        page.wait_for_function(
            "() => document.querySelector('.your-turn')"
            " || document.querySelector('details.round-summary[open]')"
        )
        round_now = int(page.locator("#table").get_attribute("data-round"))
        if named_in is not None and round_now > named_in and "discard" in phases:
            break  # a whole round with trump named here and a discard, finished
        if not page.locator(".your-turn").count():
            page.wait_for_function("() => document.querySelector('.your-turn')")
        assert page.evaluate(DOCK_REACHABLE) == [], f"the hand is out of reach ({phases})"
        before = table_position(page)
        dock = page.locator(".dock")
        if dock.locator(".trump-form").count():
            phase = "trump"
            named_in = round_now
            dock.locator(".trump-form button").first.click()
        elif dock.locator(".discard-form").count():
            phase = "discard"
            _discard(page)
        elif dock.locator(".bid-form").count():
            phase = "auction"
            bids = dock.locator('.bid-form button[value^="bid:"]')
            # the highest bid: this seat names trump (a pass when outbid at the top)
            (bids.last if bids.count() else dock.locator(".bid-form button").first).click()
        else:
            phase = "play"
            dock.locator(".card-button").first.click()
        if phase not in phases:
            page.screenshot(path=artifacts / f"variant-{preset}-{size}-{phase}.png")
        phases.add(phase)
        try:
            _moved_on(page, before)
        except Exception:
            page.screenshot(path=artifacts / f"variant-{preset}-{size}-stuck.png", full_page=True)
            raise
    else:
        raise AssertionError(f"no whole round with trump and a discard here: {phases}")

    assert phases == {"auction", "trump", "discard", "play"}
    page.locator("details.round-summary[open]").wait_for()
    summary = page.locator("details.round-summary").first
    expect(summary).to_contain_text("How the score changed")
    expect(summary).to_contain_text("Game")
    page.screenshot(path=artifacts / f"variant-{preset}-{size}-summary.png")
    page.context.close()
    assert problems == [], "a whole round logged errors or got a 4xx"


# --- The six-handed dealer's discard: the biggest hand there is, on a phone ---------------


def test_the_six_handed_dealer_discards_seventeen_of_twenty_three_on_a_phone(
    phone: Page, transactional_db, artifacts
):
    from random import Random

    from django.contrib.auth import get_user_model

    from game.engine import rules, variants
    from game.engine.state import MatchSetup, MatchState, shuffle_deal
    from game.players import profiles
    from tests.game.stored import stored_table

    user = get_user_model().objects.create_user(username="dealer", password="trump-leads-42")
    profiles.profile_get_or_create(user=user)
    setup = MatchSetup(6, ((0, 2, 4), (1, 3, 5)), rules=variants.SIX_HANDED)
    match = MatchState(setup, 0)
    match = match.start_round(shuffle_deal(setup, 0, Random(6)))
    match = match.apply(rules.bid_action(3), 1)
    for seat in (2, 3, 4, 5, 0):
        match = match.apply(rules.PASS, seat)
    match = match.apply(rules.trump_action(0), 1)
    assert match.current_player() == 0 and match.round.discard_rule().count == 17
    seats = [{"user": user, "display_name": "Dealer"}]
    seats += [{"bot_level": "greedy", "display_name": f"Bot {n}"} for n in range(1, 6)]
    table = stored_table(match, seats)
    problems = watch(phone)

    phone.goto(f"/accounts/login/?next=/table/{table.code}/")
    phone.get_by_label("Username").fill("dealer")
    phone.get_by_label("Password:", exact=True).fill("trump-leads-42")
    phone.get_by_role("button", name="Log in").click()

    form = phone.locator(".dock .discard-form")
    expect(form).to_be_visible()
    expect(phone.locator(".own-exchange")).to_contain_text("The pack you took")
    expect(form.locator(".chooser-rule")).to_contain_text("Keep 6 of your 23 cards")
    assert phone.evaluate(DOCK_REACHABLE) == [], "the dealer's hand is out of reach"
    phone.screenshot(path=artifacts / "variant-six_handed-phone-dealer.png")
    assert _discard(phone) <= 6  # six cards kept of 23: at most six taps
    expect(phone.locator(".own-exchange")).to_contain_text("You discarded")
    assert phone.locator(".dock .your-hand [data-card]").count() == 6
    # the live server speaks HTTP only: the page polls instead of its socket
    assert [p for p in problems if "/ws/table/" not in p] == []
