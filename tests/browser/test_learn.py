"""The trainer in a real browser on a phone: filter, answer, read the reveal, see the rating."""

import re

import pytest
from playwright.sync_api import Page, expect

from learn import services
from learn.models import PracticePosition
from tests.browser.conftest import watch
from tests.learn.conftest import sample_lines

pytestmark = pytest.mark.browser


@pytest.fixture
def live_bank(transactional_db) -> list[PracticePosition]:
    report = services.positions_load(lines=sample_lines())
    assert not report.errors
    return list(PracticePosition.objects.all())


def horizontal_overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_a_guest_filters_answers_reads_the_reveal_and_sees_the_rating_change_on_a_phone(
    phone: Page, live_bank, artifacts
):
    phase = "lead" if any(p.phase == "lead" for p in live_bank) else live_bank[0].phase
    phone.goto("/")
    phone.get_by_role("navigation", name="Main").get_by_role("link", name="Learn").click()
    expect(phone.get_by_role("heading", name="Practise", exact=True)).to_be_visible()
    expect(phone.locator(".learn-me")).to_contain_text("Your rating: 1500")

    phone.get_by_label("Phase").select_option(phase)
    phone.get_by_role("button", name="Show a position").click()
    puzzle = phone.locator("#puzzle")
    expect(puzzle).to_have_attribute("data-state", "question")
    expect(phone.get_by_role("heading", name="Your hand")).to_be_visible()
    assert horizontal_overflow(phone) <= 0, "the position scrolls sideways at 390 px"
    phone.screenshot(path=artifacts / "phone-learn-position.png", full_page=True)
    choice = phone.get_by_role("button", name="can be played").first
    if phase == "auction":
        choice = phone.locator(".bid-form button").first
    choice.click()

    expect(puzzle).to_have_attribute("data-state", "reveal")
    # the position's key is on the page only once it is answered
    key = puzzle.get_attribute("data-key")
    assert PracticePosition.objects.get(key=key).phase == phase
    verdict = phone.locator(".learn-verdict")
    expect(verdict).to_have_text(re.compile(r"Right!|Not the best"))
    rating = phone.locator(".learn-rating")
    expect(rating).to_contain_text(re.compile(r"1500 → \d+"))
    after = int(re.search(r"1500 → (\d+)", rating.inner_text()).group(1))
    assert after != 1500
    expect(phone.locator(".learn-me")).to_contain_text(f"Your rating: {after}")
    expect(phone.get_by_role("heading", name="Why")).to_be_visible()
    options = phone.locator("[data-option]")
    assert options.count() == len(PracticePosition.objects.get(key=key).core.options)
    expect(phone.locator(".learn-bar").first).to_be_visible()
    phone.locator(".learn-options").screenshot(path=artifacts / "phone-learn-options.png")

    phone.get_by_text("Show me a deal").click()
    expect(phone.locator(".learn-hands")).to_be_visible()
    assert horizontal_overflow(phone) <= 0, "the reveal scrolls sideways at 390 px"
    phone.screenshot(path=artifacts / "phone-learn-reveal.png", full_page=True)

    phone.get_by_role("button", name="Next position").click()
    expect(phone.locator(".learn-me")).to_contain_text(f"Your rating: {after}")
    expect(phone.locator("#puzzle")).to_have_attribute("data-state", "question")
    expect(phone.get_by_label("Phase")).to_have_value(phase)  # the same filters

    phone.get_by_role("link", name="progress").click()
    expect(phone.get_by_role("heading", name=re.compile(rf"Rating {after}"))).to_be_visible()
    expect(phone.get_by_text("1 position answered")).to_be_visible()
    assert horizontal_overflow(phone) <= 0
    phone.screenshot(path=artifacts / "phone-learn-progress.png", full_page=True)


def test_the_tutorial_teaches_a_newcomer_with_a_practice_position(
    phone: Page, live_bank, artifacts
):
    problems = watch(phone)
    phone.goto("/learn/tutorial/")
    phone.get_by_role("link", name="What you may play").click()
    expect(phone.get_by_role("heading", name="What you may play")).to_be_visible()
    expect(phone.get_by_text("Practice 1 of 3")).to_be_visible()
    phone.get_by_role("button", name="Show me a position").click()
    expect(phone.locator("#puzzle")).to_have_attribute("data-state", "question")
    expect(phone.get_by_text("Practice 1 of 3")).to_be_visible()
    assert horizontal_overflow(phone) <= 0
    phone.screenshot(path=artifacts / "phone-learn-lesson.png", full_page=True)
    phone.locator("#puzzle form button").first.click()
    expect(phone.locator("#puzzle")).to_have_attribute("data-state", "reveal")
    expect(phone.locator(".learn-rating")).to_contain_text("Not rated")
    phone.get_by_role("button", name="Continue the lesson").click()
    expect(phone.get_by_text("Practice 2 of 3")).to_be_visible()
    expect(phone.locator("#puzzle")).to_have_attribute("data-state", "question")
    assert horizontal_overflow(phone) <= 0
    phone.locator("#puzzle form button").first.click()  # a second answer, out of band again
    expect(phone.locator("#puzzle")).to_have_attribute("data-state", "reveal")
    assert problems == [], "the tutorial logged errors or got a 4xx"
