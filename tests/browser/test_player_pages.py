"""The pages around the table as a player sees them (issue 40), at a phone's 390 x 844 and a
laptop's 1366 x 900: the trainer's position above the fold, the review drawing the hand,
the profile without sideways scrolling, and no text wider than its box on any of them."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from game.engine.state import MatchSetup
from game.players import ratings
from learn import services
from tests.browser.conftest import PHONE, WIDE, assert_no_csp_violations, watch_csp
from tests.game.stored import greedy_match, stored_table
from tests.learn.conftest import sample_lines
from tests.learn.reviewing import BLUNDER_SEAT, MONSTER, monster_round

pytestmark = pytest.mark.browser

SIZES = {"phone": PHONE, "wide": WIDE}
PASSWORD = "not-used-123"

# every element whose content is wider than its own box, beyond a pixel of rounding: an
# element that scrolls on purpose (.table-scroll) counts too, as nothing here should need it
OVERFLOWING = """() => [...document.querySelectorAll("main *")]
  .filter(el => el.clientWidth > 1)  // a box 1 px wide is hidden on purpose, for readers
  .filter(el => el.scrollWidth > el.clientWidth + 1)
  .filter(el => !(el instanceof SVGElement))
  .filter(el => !["SELECT", "INPUT", "TEXTAREA"].includes(el.tagName))
  .map(el => `${el.tagName.toLowerCase()}.${el.className}: `
    + `${el.scrollWidth} > ${el.clientWidth}`)"""


@pytest.fixture(params=list(SIZES))
def sized(request, browser: Browser, live_server) -> Page:
    context = browser.new_context(viewport=SIZES[request.param], base_url=live_server.url)
    page = watch_csp(context.new_page())
    page.set_default_timeout(15_000)
    page.size_name = request.param
    yield page
    context.close()
    assert_no_csp_violations(page)


def log_in(page: Page, username: str, next_url: str) -> None:
    page.goto(f"/accounts/login/?next={next_url}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def assert_fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    overflowing = page.evaluate(OVERFLOWING)
    assert overflowing == [], "\n".join(overflowing)


def test_the_trainers_position_is_above_the_fold(sized: Page, transactional_db, artifacts):
    assert not services.positions_load(lines=sample_lines()).errors
    sized.goto("/learn/")
    sized.get_by_role("button", name="Show me a position").click()
    puzzle = sized.locator("#puzzle")
    expect(puzzle).to_have_attribute("data-state", "question")
    height = sized.viewport_size["height"]
    heading = sized.locator("#puzzle-title").bounding_box()
    assert heading["y"] + heading["height"] <= height, "the position starts below the fold"
    card = sized.locator("#puzzle .hand .card").first.bounding_box()
    assert card["y"] + card["height"] <= height, "the hand is below the fold"
    filters = sized.locator(".learn-filters").bounding_box()
    assert filters["y"] > heading["y"], "the filters come before the position"
    assert_fits(sized)
    sized.screenshot(path=artifacts / f"issue40-trainer-{sized.size_name}.png")


def test_the_review_draws_the_hand_of_each_decision(sized: Page, transactional_db, artifacts):
    user = get_user_model().objects.create_user(username="ann", password=PASSWORD)
    seats = [{"bot_level": "greedy"} for _ in range(4)]
    seats[BLUNDER_SEAT] = {"user": user, "display_name": "Ann"}
    table = stored_table(monster_round("pass"), seats, status="finished")
    url = f"/learn/review/{table.code}/1/"
    log_in(sized, "ann", url)
    sized.get_by_role("button", name="Review my decisions").click()
    expect(sized.locator("progress.review-progress")).to_be_visible()
    call_command("db_worker", batch=True, startup_delay=False, interval=0, verbosity=0)

    marked = sized.locator('[data-grade="blunder"]')
    expect(marked).to_be_visible()  # the page polls until the review is done
    hand = marked.locator(".review-hand")
    expect(hand).to_be_visible()
    for card in MONSTER:
        expect(hand.locator(f'[data-card="{card}"]')).to_be_visible()
    expect(marked.get_by_role("heading", name="Auction")).to_be_visible()
    expect(sized.locator("#review")).not_to_contain_text("±")
    assert_fits(sized)
    marked.locator(".review-position").screenshot(
        path=artifacts / f"issue40-review-{sized.size_name}.png"
    )


def test_the_profile_fits_without_sideways_scrolling(sized: Page, transactional_db, artifacts):
    user = get_user_model().objects.create_user(username="prairie", password=PASSWORD)
    for seed in (1, 2, 3):
        match = greedy_match(MatchSetup.partnerships(4, 2, target=11), seed)
        table = stored_table(match, [{"user": user}] + [{"bot_level": "expert"}] * 3)
    ratings.ratings_settle()
    log_in(sized, "prairie", "/accounts/profile/")

    row = sized.locator(f'tr[data-table="{table.code}"]')
    expect(row).to_be_visible()
    review = row.get_by_role("link", name="review").last
    box = review.bounding_box()
    assert box["x"] + box["width"] <= sized.viewport_size["width"], "a review link is off screen"
    expect(sized.get_by_text("Your rating at 4 players, match by match: it")).to_be_visible()
    # the opt-in reads box, label, help, top to bottom or left to right
    box = sized.get_by_label("Show me on the leaderboards").bounding_box()
    label = sized.get_by_text("Show me on the leaderboards").bounding_box()
    help_text = sized.get_by_text("Your name and rating at each table size").bounding_box()
    assert box["x"] < label["x"] and label["y"] < help_text["y"]
    # the date is in the viewer's zone: the script replaced the server's text
    assert "CST" not in row.locator("time").inner_text()
    assert_fits(sized)
    sized.locator(".profile-history").screenshot(
        path=artifacts / f"issue40-profile-{sized.size_name}.png"
    )


def test_the_rules_quiz_answers_in_place_and_fits(sized: Page, transactional_db, artifacts):
    sized.goto("/learn/tutorial/")
    sized.locator("#game-house").get_by_role("link", name="a short rules quiz").click()
    trump = sized.locator("#quiz-trump")
    trump.get_by_role("button", name="The dealer names it").click()
    expect(trump.get_by_role("status")).to_contain_text("Not quite")
    sized.evaluate("window.quizMark = true")  # gone if the answer reloaded the page
    trump.get_by_role("button", name="The first card the auction winner leads").click()
    expect(trump.get_by_role("status")).to_contain_text("Right.")
    assert sized.evaluate("window.quizMark === true"), "htmx did not swap the question"
    assert_fits(sized)
    sized.screenshot(path=artifacts / f"issue40-quiz-{sized.size_name}.png")


def test_the_rules_quiz_works_without_script(browser: Browser, live_server, transactional_db):
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, java_script_enabled=False
    )
    page = context.new_page()
    page.goto("/learn/quiz/")
    page.locator("#quiz-low").get_by_role("button", name="Whoever captures").click()
    expect(page.locator("#quiz-low").get_by_role("status")).to_contain_text("Not quite")
    context.close()
