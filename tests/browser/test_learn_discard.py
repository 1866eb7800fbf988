"""The trainer's discard in a real browser: the hand tapped as at the table. On a phone the
six-handed dealer keeps six of 23 cards in six taps and is graded; switching to "tap to
throw" keeps the same discard; a discard the expert had not priced is priced as it is
answered; without JavaScript the boxes are ticked and the form posts all the same."""

import json
import re

import pytest
from playwright.sync_api import Browser, Page, expect

from game.engine import notation
from game.engine.rules import Phase, discarded
from learn import services
from learn.core import discards as core_discards
from learn.models import Attempt, PracticePosition
from tests.browser.conftest import PHONE, WIDE, assert_no_csp_violations, watch, watch_csp
from tests.learn.core.test_positions_family import discards
from tests.learn.family import match_at, position_at

pytestmark = pytest.mark.browser


@pytest.fixture
def live_discards(transactional_db) -> list[PracticePosition]:
    """The six-handed dealer's discard (23 cards, none the rule fixes) and classic's."""
    cores = [
        position_at(match, discards(match, 4))
        for match in (match_at("six_handed", Phase.EXCHANGE), match_at("classic", Phase.EXCHANGE))
    ]
    report = services.positions_load(lines=[json.dumps(core.to_json()) for core in cores])
    assert not report.errors
    return list(PracticePosition.objects.all())


def ask(page: Page, game: str) -> Attempt:
    """Serve a discard of ``game`` through the practice page's filters."""
    page.goto("/learn/")
    page.get_by_label("Game").select_option(label=game)
    page.get_by_label("Phase").select_option("discard")
    page.get_by_role("button", name="Show a position").click()
    expect(page.locator("#puzzle")).to_have_attribute("data-state", "question")
    return Attempt.objects.select_related("position").order_by("-pk").first()


def kept_by(core, code: str) -> list[str]:
    return list(notation.cards(core.view().hand & ~discarded(notation.parse_action(code))))


def tap(page: Page, code: str) -> None:
    page.locator(f'label.chooser-card:has([data-card="{code}"])').click()


def horizontal_overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_the_six_handed_dealer_keeps_six_of_23_in_six_taps_on_a_phone_and_is_graded(
    phone: Page, live_discards, artifacts
):
    problems = watch(phone)
    attempt = ask(phone, "Six-handed")
    core = attempt.position.core
    chooser = phone.locator("[data-card-chooser]")
    expect(chooser.locator(".chooser-card")).to_have_count(23)
    expect(phone.get_by_label("Tap to keep")).to_be_checked()  # 6 taps, not 17
    count, submit = chooser.locator("[data-chooser-count]"), chooser.get_by_role("button")
    expect(count).to_have_text("Keep 6: 0 chosen")
    expect(submit).to_be_disabled()
    expect(chooser.locator("[data-chooser-why]")).to_have_text("choose 6 more cards to keep.")
    assert horizontal_overflow(phone) <= 0, "the hand scrolls sideways at 390 px"

    best = kept_by(core, core.best.code)
    taps = 0
    for code in best:
        tap(phone, code)
        taps += 1
        if taps == 4:
            expect(count).to_have_text("Keep 6: 4 chosen")
            phone.screenshot(path=artifacts / "phone-learn-discard-chooser.png")
    assert taps <= 6
    expect(count).to_have_text("Keep 6: 6 chosen")
    expect(submit).to_be_enabled()
    expect(submit).to_be_in_viewport()  # the bar stays in sight below the hand
    phone.screenshot(path=artifacts / "phone-learn-discard-chosen.png", full_page=True)

    submit.click()
    expect(phone.locator("#puzzle")).to_have_attribute("data-state", "reveal")
    expect(phone.locator(".learn-verdict")).to_have_text("Right!")
    done = Attempt.objects.get(pk=attempt.pk)
    assert done.answer == core.best.code and done.correct and done.rated
    assert not problems


def test_switching_to_tap_to_throw_keeps_the_same_discard_and_an_unpriced_one_is_priced(
    browser: Browser, live_server, live_discards, artifacts
):
    context = browser.new_context(viewport=WIDE, base_url=live_server.url)
    page = watch_csp(context.new_page())
    page.set_default_timeout(15_000)
    problems = watch(page)
    attempt = ask(page, "Six-handed")
    core = attempt.position.core
    chooser = page.locator("[data-card-chooser]")
    count = chooser.locator("[data-chooser-count]")
    hand = list(notation.cards(core.view().hand))
    for code in hand[:5]:
        tap(page, code)
    expect(count).to_have_text("Keep 6: 5 chosen")
    page.get_by_text("Tap to throw").click()  # the same discard: 18 thrown of 17
    expect(count).to_have_text("Throw 17: 18 chosen")
    expect(chooser.locator("[data-chooser-why]")).to_contain_text("1 card too many")
    expect(chooser.get_by_role("button")).to_be_disabled()
    tap(page, hand[5])  # thrown no more: kept
    expect(count).to_have_text("Throw 17: 17 chosen")
    page.screenshot(path=artifacts / "wide-learn-discard-chooser.png")

    chosen = "discard:" + ",".join(hand[6:])
    assert chosen not in core.legal_codes()  # the expert priced other discards
    chooser.get_by_role("button").click()
    expect(page.locator("#puzzle")).to_have_attribute("data-state", "reveal")
    unpriced = page.locator("[data-unpriced]")
    expect(unpriced).to_contain_text(f"not among the {len(core.options)} the expert priced")
    done = Attempt.objects.get(pk=attempt.pk)
    found = core_discards.afresh(core, chosen)  # kept from the answer (the same process)
    expect(unpriced).to_contain_text(f"over the same {found.deals} deals")
    assert found.deals >= 60  # the budget may cut a loaded machine short of 300
    assert done.answer == chosen and done.correct is found.correct
    page.screenshot(path=artifacts / "wide-learn-discard-unpriced.png", full_page=True)
    context.close()
    assert_no_csp_violations(page)
    assert not problems


def test_without_javascript_the_boxes_are_ticked_and_the_discard_posted(
    browser: Browser, live_server, live_discards
):
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, java_script_enabled=False
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    attempt = ask(page, "Classic four-point")
    core = attempt.position.core
    mode = page.locator('input[name="mode"]:checked').get_attribute("value")
    free = core.view().discard_rule.optional
    thrown = discarded(notation.parse_action(core.best.code))
    wanted = (core.view().hand & ~thrown if mode == "keep" else thrown) & free
    for code in notation.cards(wanted):
        page.locator(f'input[name="card"][value="{code}"]').check(force=True)
    page.get_by_role("button", name="Discard").click()
    expect(page.locator("#puzzle")).to_have_attribute("data-state", "reveal")
    expect(page.locator(".learn-verdict")).to_have_text(re.compile("Right!"))
    assert Attempt.objects.get(pk=attempt.pk).answer == core.best.code
    context.close()


def test_a_set_the_server_refuses_comes_back_with_its_reason_and_the_chooser_counting(
    phone: Page, live_discards
):
    problems = watch(phone)
    attempt = ask(phone, "Six-handed")
    chooser = phone.locator("[data-card-chooser]")
    for code in notation.cards(attempt.position.core.view().hand)[:5]:
        tap(phone, code)
    # a page that let five through (an old script, a forged form): the server says no
    chooser.get_by_role("button").evaluate("button => { button.disabled = false; }")
    chooser.get_by_role("button").click()
    expect(phone.get_by_role("alert")).to_contain_text("keep 6 cards, not 5")
    expect(phone.locator("#puzzle")).to_have_attribute("data-state", "question")
    expect(chooser.locator("[data-chooser-count]")).to_have_text("Keep 6: 0 chosen")
    tap(phone, notation.cards(attempt.position.core.view().hand)[0])
    expect(chooser.locator("[data-chooser-count]")).to_have_text("Keep 6: 1 chosen")
    assert not Attempt.objects.get(pk=attempt.pk).is_answered
    assert not problems
