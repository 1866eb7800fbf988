"""The layout and the rules page in a real browser, on a desktop and at phone width."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from game.players import profiles

pytestmark = pytest.mark.browser

PASSWORD = "trump-leads-first-42"


def horizontal_overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_rules_page_shows_the_deck_table_and_the_four_examples(page: Page):
    page.goto("/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Rules").click()

    expect(page.get_by_role("heading", name="How to play Smear")).to_be_visible()
    table = page.get_by_role("table", name="The functional deck for each number of players")
    expect(table.locator("tbody tr")).to_have_count(6)
    expect(table.locator('tr[data-players="4"] td')).to_have_text(["9 and up", "26", "2"])
    expect(page.locator(".play-example")).to_have_count(4)
    expect(page.get_by_role("img", name="king of spades, cannot be played").first).to_be_visible()


def test_cards_are_drawn_in_suit_colours_with_distinct_jokers(page: Page):
    page.goto("/rules/")

    def colour(name: str) -> str:
        return page.get_by_role("img", name=name).first.evaluate("e => getComputedStyle(e).color")

    def background(name: str) -> str:
        return page.get_by_role("img", name=name).first.evaluate(
            "e => getComputedStyle(e).backgroundColor"
        )

    red = colour("10 of hearts, can be played")
    black = colour("king of spades, cannot be played")
    joker = colour("joker, can be played")
    assert red == colour("ace of diamonds")
    assert len({red, black, joker}) == 3
    assert background("joker, can be played") != background("10 of hearts, can be played")


def test_nav_links_every_part_of_the_site(page: Page):
    page.goto("/")
    nav = page.get_by_role("navigation", name="Main")

    for part in ("Play", "Tables", "Learn", "Score sheet", "Donate", "Rules"):
        expect(nav.get_by_role("link", name=part)).to_be_visible()
    expect(nav.get_by_text("soon")).to_have_count(0)


@pytest.mark.parametrize(("path", "name"), [("/", "home"), ("/rules/", "rules")])
def test_phone_width_layout_fits_without_sideways_scrolling(phone: Page, artifacts, path, name):
    phone.goto(path)

    assert phone.evaluate("window.innerWidth") == 390
    assert horizontal_overflow(phone) <= 0, "the page scrolls sideways at 390 px"
    expect(
        phone.get_by_role("navigation", name="Main").get_by_role("link", name="Rules")
    ).to_be_visible()
    expect(
        phone.get_by_role("navigation", name="Account").get_by_role("link", name="Log in")
    ).to_be_visible()
    phone.screenshot(path=artifacts / f"phone-{name}.png", full_page=True)


def test_phone_width_account_pages_fit(phone: Page, artifacts):
    phone.goto("/accounts/signup/")

    assert horizontal_overflow(phone) <= 0
    phone.screenshot(path=artifacts / "phone-signup.png", full_page=True)


def test_desktop_layout_screenshot(page: Page, artifacts):
    page.goto("/rules/")

    assert horizontal_overflow(page) <= 0
    page.screenshot(path=artifacts / "desktop-rules.png")


def test_phone_width_signed_in_header_and_profile_fit(phone: Page, artifacts):
    user = get_user_model().objects.create_user(username="prairie", password=PASSWORD)
    profiles.profile_update(user=user, display_name="Dealer Dan from Moose Jaw")
    phone.goto("/accounts/login/?next=/accounts/profile/")
    phone.get_by_label("Username").fill("prairie")
    phone.get_by_label("Password:", exact=True).fill(PASSWORD)
    phone.get_by_role("button", name="Log in").click()

    account = phone.get_by_role("navigation", name="Account")
    expect(account.get_by_role("link", name="Dealer Dan from Moose Jaw")).to_be_visible()
    expect(account.get_by_role("button", name="Log out")).to_be_visible()
    assert horizontal_overflow(phone) <= 0
    phone.screenshot(path=artifacts / "phone-profile.png", full_page=True)


@pytest.mark.parametrize("preset", ["house", "classic", "six_handed", "seven_point"])
def test_rules_page_opens_at_each_preset_section_on_a_phone(phone: Page, artifacts, preset):
    # the table's rules at a glance link here: /rules/#<preset>
    phone.goto(f"/rules/#{preset}")

    section = phone.locator(f"section#{preset}")
    expect(section.get_by_role("heading", level=2)).to_be_in_viewport()
    assert horizontal_overflow(phone) <= 0, "the page scrolls sideways at 390 px"
    assert section.evaluate("s => s.scrollWidth <= s.clientWidth"), "the section overflows"
    section.screenshot(path=artifacts / f"phone-rules-{preset}.png")
