"""Accounts through django-allauth, our templates and the profile page (Django test client)."""

import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from game.models import Profile
from game.players import profiles

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("isolated_cache", "fast_password_hashing"),
]

User = get_user_model()
PASSWORD = "trump-leads-first-42"
NEW_PASSWORD = "low-goes-to-the-dealt-7"


def signup(client, **fields):
    data = {"username": "prairie", "email": "", "password1": PASSWORD, "password2": PASSWORD}
    data.update(fields)
    return client.post("/accounts/signup/", data)


def make_user(username="prairie", email="", password=PASSWORD):
    user = User.objects.create_user(username=username, email=email, password=password)
    profiles.profile_get_or_create(user=user)
    return user


def login(client, username="prairie", password=PASSWORD, **extra):
    return client.post("/accounts/login/", {"login": username, "password": password, **extra})


def errors_of(response) -> str:
    return " ".join(re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', response.text, re.S))


# --- Sign up ----------------------------------------------------------------------


def test_signup_creates_the_user_and_profile_and_logs_in(client):
    response = signup(client)

    assert response.status_code == 302
    user = User.objects.get(username="prairie")
    assert user.email == ""
    assert user.profile.display_name == "prairie"
    assert client.session["_auth_user_id"] == str(user.pk)


def test_signup_with_an_email_keeps_it_and_asks_to_confirm_it_without_requiring_it(client):
    response = signup(client, email="player@example.com")

    assert response.status_code == 302
    assert User.objects.get(username="prairie").email == "player@example.com"
    assert len(mail.outbox) == 1 and "player@example.com" in mail.outbox[0].to
    # verification is optional: the new player is logged in already
    assert "_auth_user_id" in client.session


def test_signup_returns_to_the_page_the_guest_came_from(client):
    response = client.post(
        "/accounts/signup/?next=/rules/",
        {"username": "prairie", "password1": PASSWORD, "password2": PASSWORD, "next": "/rules/"},
    )

    assert response.status_code == 302
    assert response["Location"] == "/rules/"


def test_signup_with_mismatched_passwords_shows_the_error_and_creates_nothing(client):
    response = signup(client, password2=PASSWORD + "x")

    assert response.status_code == 200
    assert "same password" in errors_of(response)
    assert not User.objects.exists() and not Profile.objects.exists()


def test_signup_with_a_common_password_is_refused_by_djangos_validators(client):
    response = signup(client, password1="password123", password2="password123")

    assert response.status_code == 200
    assert "too common" in errors_of(response)
    assert not User.objects.exists()


def test_signup_with_a_taken_username_is_refused(client):
    make_user(username="prairie")

    response = signup(client, username="Prairie")

    assert response.status_code == 200
    assert "already" in errors_of(response)
    assert User.objects.count() == 1


def test_signup_with_a_bad_email_is_refused(client):
    response = signup(client, email="not-an-address")

    assert response.status_code == 200
    assert "valid email" in errors_of(response)
    assert not User.objects.exists()


def test_signup_is_all_or_nothing_when_the_profile_cannot_be_made(client, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("database hiccup")

    monkeypatch.setattr(profiles, "profile_get_or_create", broken)

    with pytest.raises(RuntimeError):
        signup(client)
    assert not User.objects.exists()


def test_signup_post_without_csrf_token_is_refused():
    client = Client(enforce_csrf_checks=True)

    response = signup(client)

    assert response.status_code == 403
    assert not User.objects.exists()


# --- Log in and out ---------------------------------------------------------------


def test_login_with_the_right_password_logs_in_and_says_so(client):
    user = make_user()

    response = login(client)

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)
    page = client.get(response["Location"]).text
    assert "you are logged in" in page


def test_failed_login_shows_a_clear_message_and_does_not_log_in(client):
    make_user()

    response = login(client, password="wrong-password")

    assert response.status_code == 200
    assert "That username and password do not match an account" in response.text
    assert "_auth_user_id" not in client.session


def test_login_is_rate_limited_after_repeated_failures(client):
    make_user()
    for _ in range(5):
        assert "do not match" in login(client, password="guess").text

    # even the right password is refused while the pause lasts
    response = login(client)

    assert response.status_code == 200
    assert "Too many failed log-in attempts" in response.text
    assert "_auth_user_id" not in client.session


def test_a_strangers_wrong_passwords_do_not_lock_the_owner_out():
    make_user()
    stranger = Client(REMOTE_ADDR="198.51.100.7")
    for _ in range(8):
        login(stranger, password="guess")

    owner = Client(REMOTE_ADDR="203.0.113.20")
    login(owner)

    assert "_auth_user_id" in owner.session
    # the stranger's own address is paused, even with the right password
    assert "Too many failed log-in attempts" in login(stranger).text
    assert "_auth_user_id" not in stranger.session


def test_wrong_passwords_from_many_addresses_never_pause_the_owner_on_a_new_browser():
    make_user()
    for n in range(100):
        stranger = Client(REMOTE_ADDR=f"198.51.{n // 250}.{n % 250 + 1}")
        assert "do not match" in login(stranger, password=f"guess-{n}").text

    owner = Client(REMOTE_ADDR="203.0.113.20")  # a browser it never logged in from
    login(owner)

    assert "_auth_user_id" in owner.session


def test_the_owners_own_log_ins_from_new_browsers_are_never_counted():
    make_user()
    for n in range(40):  # a new browser each time (a phone on the move): only failures count
        browser = Client(REMOTE_ADDR=f"203.0.113.{n + 1}")
        login(browser)
        assert "_auth_user_id" in browser.session


def test_an_address_guessing_many_usernames_is_paused_for_every_one(client):
    for n in range(10):
        make_user(f"player{n}")
        assert "do not match" in login(client, username=f"player{n}", password="guess").text
    make_user("another")

    # the address has had its 10 failures this minute, whatever the usernames
    assert "Too many failed log-in attempts" in login(client, username="another").text
    elsewhere = Client(REMOTE_ADDR="203.0.113.20")
    login(elsewhere, username="another")
    assert "_auth_user_id" in elsewhere.session


def test_after_the_pause_the_right_password_logs_in_from_a_new_browser(monkeypatch):
    from allauth.core.internal import ratelimit as allauth_ratelimit

    make_user()
    stranger = Client(REMOTE_ADDR="198.51.100.7")
    for _ in range(5):
        login(stranger, password="guess")
    assert "Too many failed log-in attempts" in login(stranger).text

    later = time.time() + 5 * 60 + 1  # the 5 minutes of the count per username and address
    monkeypatch.setattr(allauth_ratelimit.time, "time", lambda: later)
    browser = Client(REMOTE_ADDR="198.51.100.7")
    login(browser)

    assert "_auth_user_id" in browser.session


def test_admin_login_is_paused_after_repeated_failures_like_the_sites(client):
    User.objects.create_superuser(username="boss", email="", password=PASSWORD)
    for _ in range(5):
        response = client.post("/admin/login/", {"username": "boss", "password": "guess"})
        assert response.status_code == 200
        assert "_auth_user_id" not in client.session

    response = client.post("/admin/login/", {"username": "boss", "password": PASSWORD})

    assert "Too many failed log-in attempts" in response.text
    assert "_auth_user_id" not in client.session


def test_admin_login_counts_with_the_sites_log_in(client):
    User.objects.create_superuser(username="boss", email="", password=PASSWORD)
    for _ in range(5):
        login(client, username="boss", password="guess")

    response = client.post("/admin/login/", {"username": "boss", "password": PASSWORD})

    assert "Too many failed log-in attempts" in response.text
    assert "_auth_user_id" not in client.session


def test_admin_login_with_the_right_password_still_logs_in(client):
    User.objects.create_superuser(username="boss", email="", password=PASSWORD)
    client.post("/admin/login/", {"username": "boss", "password": "guess"})

    response = client.post("/admin/login/", {"username": "boss", "password": PASSWORD})

    assert response.status_code == 302
    assert "_auth_user_id" in client.session


def test_login_post_without_csrf_token_is_refused():
    make_user()
    client = Client(enforce_csrf_checks=True)

    assert login(client).status_code == 403
    assert "_auth_user_id" not in client.session


def test_logout_is_a_post_and_says_so(client):
    make_user()
    client.force_login(User.objects.get())

    # a GET (a link, a prefetch) only asks; it does not log out
    assert client.get("/accounts/logout/").status_code == 200
    assert "_auth_user_id" in client.session
    response = client.post("/accounts/logout/", follow=True)

    assert "_auth_user_id" not in client.session
    assert "You are logged out." in response.text


# --- Passwords --------------------------------------------------------------------


def test_password_change_needs_the_old_password_and_keeps_you_logged_in(client):
    user = make_user()
    client.force_login(user)
    url = "/accounts/password/change/"

    wrong = client.post(
        url, {"oldpassword": "nope", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    )
    assert wrong.status_code == 200 and errors_of(wrong)
    response = client.post(
        url, {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    )

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert client.session["_auth_user_id"] == str(user.pk)


def test_password_reset_by_email_sets_a_new_password(client):
    user = make_user(email="player@example.com")

    response = client.post("/accounts/password/reset/", {"email": "player@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    (link,) = re.findall(
        r"http://testserver(/accounts/password/reset/key/\S+/)", mail.outbox[0].body
    )
    # the key link stores the key in the session and redirects to the form
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200 and "Choose a new password" in form_page.text
    action = form_page.redirect_chain[-1][0]
    done = client.post(action, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_password_reset_page_uses_the_site_layout(client):
    body = client.get("/accounts/password/reset/").text

    assert 'class="site-header"' in body and "Reset your password" in body


# --- Profile ----------------------------------------------------------------------


def test_profile_asks_a_guest_to_log_in_and_brings_them_back(client):
    make_user()

    response = client.get("/accounts/profile/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/accounts/profile/"
    back = login(client, next="/accounts/profile/")

    assert back.status_code == 302
    assert back["Location"] == "/accounts/profile/"


def test_log_in_never_sends_the_player_to_another_site(client):
    make_user()

    response = login(client, next="https://evil.example/phish")

    assert response.status_code == 302
    assert response["Location"] == "/"


def test_profile_saves_the_display_name_with_a_flash_message(client):
    client.force_login(make_user())

    response = client.post("/accounts/profile/", {"display_name": "  Dealer Dan "}, follow=True)

    assert response.redirect_chain[-1][0] == "/accounts/profile/"
    assert Profile.objects.get().display_name == "Dealer Dan"
    assert "Your display name is saved." in response.text
    # the navigation shows the display name, linking to the profile
    assert re.search(r'href="/accounts/profile/"[^>]*>Dealer Dan</a>', response.text)


@pytest.mark.parametrize(
    ("name", "error"),
    [("", "required"), ("x" * 41, "at most 40"), ("tab\there", "letters, digits")],
)
def test_profile_refuses_a_bad_display_name_and_keeps_the_old_one(client, name, error):
    client.force_login(make_user())

    response = client.post("/accounts/profile/", {"display_name": name})

    assert response.status_code == 200
    assert error in errors_of(response)
    assert Profile.objects.get().display_name == "prairie"


def test_a_user_made_outside_signup_gets_a_profile_on_first_visit(client):
    user = User.objects.create_user(username="admin", password=PASSWORD)
    client.force_login(user)

    assert client.get("/accounts/profile/").status_code == 200
    assert Profile.objects.get(user=user).display_name == "admin"


def test_profile_refuses_other_methods(client):
    client.force_login(make_user())

    assert client.put("/accounts/profile/").status_code == 405


def test_allauth_pages_we_did_not_rewrite_still_use_the_site_layout(client):
    client.force_login(make_user(email="player@example.com"))

    body = client.get("/accounts/email/").text

    assert 'class="site-header"' in body and '<footer class="site-footer">' in body
    # allauth's own title text, inside ours (a browser collapses the white space)
    assert "<title> Email Addresses · Smear</title>" in re.sub(r"\s+", " ", body)
    assert "player@example.com" in body
