"""Account flows in a real browser: sign up, log out, log in, password change, failures."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from game.players import profiles

pytestmark = pytest.mark.browser

PASSWORD = "trump-leads-first-42"
NEW_PASSWORD = "low-goes-to-the-dealt-7"


def make_user(username="prairie", password=PASSWORD):
    user = get_user_model().objects.create_user(username=username, password=password)
    profiles.profile_get_or_create(user=user)
    return user


def account_nav(page: Page):
    return page.get_by_role("navigation", name="Account")


def log_in(page: Page, username="prairie", password=PASSWORD):
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password:", exact=True).fill(password)
    page.get_by_role("button", name="Log in").click()


def test_sign_up_logs_the_new_player_in_on_the_page_they_came_from(page: Page):
    page.goto("/rules/")
    account_nav(page).get_by_role("link", name="Sign up").click()
    expect(page.get_by_role("heading", name="Sign up")).to_be_visible()

    page.get_by_label("Username").fill("newplayer")
    page.get_by_label("Email (optional)").fill("new@example.com")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()

    expect(page).to_have_url(re.compile(r"/rules/$"))
    expect(page.get_by_role("status")).to_contain_text("Welcome, newplayer")
    expect(account_nav(page).get_by_role("link", name="newplayer")).to_be_visible()
    assert get_user_model().objects.get(username="newplayer").profile.display_name == "newplayer"


def test_sign_up_with_mismatched_passwords_shows_the_error(page: Page):
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill("newplayer")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD + "x")
    page.get_by_role("button", name="Create my account").click()

    expect(page.locator(".errorlist")).to_contain_text("same password")
    assert not get_user_model().objects.filter(username="newplayer").exists()


def test_log_in_and_log_out(page: Page):
    make_user()
    page.goto("/")
    account_nav(page).get_by_role("link", name="Log in").click()
    log_in(page)

    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.get_by_role("status")).to_contain_text("you are logged in")
    account_nav(page).get_by_role("button", name="Log out").click()

    expect(page.get_by_role("status")).to_contain_text("You are logged out.")
    expect(account_nav(page).get_by_role("link", name="Log in")).to_be_visible()
    expect(account_nav(page).get_by_role("button", name="Log out")).to_have_count(0)


def test_failed_log_in_says_why_and_stays_logged_out(page: Page):
    make_user()
    page.goto("/accounts/login/")
    log_in(page, password="not-my-password")

    expect(page.get_by_text("That username and password do not match an account")).to_be_visible()
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    expect(account_nav(page).get_by_role("link", name="Log in")).to_be_visible()


def test_guest_is_asked_to_log_in_and_comes_back_to_the_profile(page: Page):
    make_user()
    page.goto("/accounts/profile/")

    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/accounts/profile/$"))
    log_in(page)

    expect(page).to_have_url(re.compile(r"/accounts/profile/$"))
    page.get_by_label("Display name").fill("Dealer Dan")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_contain_text("Your display name is saved.")
    expect(account_nav(page).get_by_role("link", name="Dealer Dan")).to_be_visible()


def test_password_change_then_log_in_with_the_new_password(page: Page):
    make_user()
    page.goto("/accounts/login/?next=/accounts/profile/")
    log_in(page)
    page.get_by_role("link", name="Change password").click()

    page.get_by_label("Current password").fill(PASSWORD)
    page.get_by_label("New Password:", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New Password (again):", exact=True).fill(NEW_PASSWORD)
    page.get_by_role("button", name="Change password").click()
    expect(page.get_by_role("status")).to_contain_text("Your password is changed.")

    account_nav(page).get_by_role("button", name="Log out").click()
    page.goto("/accounts/login/")
    log_in(page, password=PASSWORD)
    expect(page.get_by_text("do not match an account")).to_be_visible()
    log_in(page, password=NEW_PASSWORD)
    expect(account_nav(page).get_by_role("link", name="prairie")).to_be_visible()
