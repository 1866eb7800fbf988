"""How django-allauth fits the site: our wording, players shown by display name, a
user's table settings brought back at log-in, and password guessing paused without
letting a stranger lock the owner out.

Failed log-ins are counted per address (10 a minute) and per username *from that
address* (5 in 5 minutes): a stranger's guesses pause the stranger, never the owner on
another address. Guesses spread over many addresses are caught by a count per username
alone (``login_failed_anywhere``, 30 an hour), which pauses only devices this username
has not logged in from: a successful log-in marks the browser with a signed cookie, and
the owner's known browsers log in through any such pause. ``/admin/login/`` goes through
the same counts (``AdminLoginForm``).
"""

import json

from allauth.account.adapter import DefaultAccountAdapter, get_adapter
from allauth.core import ratelimit
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.core.exceptions import ObjectDoesNotExist
from django.http import HttpRequest, HttpResponse

from game.models import Profile
from game.players import table_prefs
from smearsite.kernel.ratelimit import request_address

KNOWN_DEVICE_COOKIE = "smear_known"
KNOWN_DEVICE_SALT = "game.accounts.known-device"  # a signing salt: kept when the module moved
KNOWN_DEVICE_MAX_AGE_S = 365 * 24 * 3600
KNOWN_DEVICE_LOGINS = 8  # usernames one browser remembers, the latest kept


def login_of(credentials: dict) -> str:
    return str(credentials.get("username") or credentials.get("email") or "").strip().lower()


def known_logins(request: HttpRequest) -> list[str]:
    """The usernames that logged in from this browser (a signed cookie; forged: none)."""
    try:
        value = request.get_signed_cookie(
            KNOWN_DEVICE_COOKIE, salt=KNOWN_DEVICE_SALT, max_age=KNOWN_DEVICE_MAX_AGE_S
        )
        logins = json.loads(value)
    except (KeyError, signing.BadSignature, ValueError):
        return []
    return [str(login) for login in logins] if isinstance(logins, list) else []


def remember_device(request: HttpRequest, response: HttpResponse, login: str) -> None:
    logins = [known for known in known_logins(request) if known != login] + [login]
    response.set_signed_cookie(
        KNOWN_DEVICE_COOKIE,
        json.dumps(logins[-KNOWN_DEVICE_LOGINS:]),
        salt=KNOWN_DEVICE_SALT,
        max_age=KNOWN_DEVICE_MAX_AGE_S,
        httponly=True,
        secure=request.is_secure(),
        samesite="Lax",
    )


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "too_many_login_attempts": (
            "Too many failed log-in attempts. For your safety, logging in to this "
            "account is paused for a few minutes: please wait, then try again."
        ),
        "username_password_mismatch": (
            "That username and password do not match an account. Check both and try again."
        ),
    }

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials) -> str:
        # allauth counts failures per this key ("5/5m/key"): the username alone let anyone
        # lock its owner out; with the address, a stranger pauses only themselves.
        # (A private hook of allauth's adapter; tests/game/players/test_accounts.py holds it
        # to this.)
        username_key = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{username_key}:{request_address(request)}"

    def pre_authenticate(self, request: HttpRequest, **credentials) -> None:
        super().pre_authenticate(request, **credentials)
        login = login_of(credentials)
        if login and login not in known_logins(request):
            if not ratelimit.consume(request, action="login_failed_anywhere", key=login):
                raise self.validation_error("too_many_login_attempts")


def remember_device_at_login(sender, request, response=None, user=None, **kwargs) -> None:
    """On allauth's ``user_logged_in``: this browser is now one of the user's known ones."""
    if request is not None and response is not None and user is not None:
        remember_device(request, response, user.get_username().strip().lower())


class AdminLoginForm(AdminAuthenticationForm):
    """The admin's log-in, counted and paused with the site's (the same counts)."""

    def clean(self):
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password:
            self.user_cache = get_adapter(self.request).authenticate(
                self.request, username=username, password=password
            )
            if self.user_cache is None:
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


def user_display(user: AbstractBaseUser) -> str:
    """The name shown in messages and the navigation: the display name, else the username."""
    try:
        return user.profile.display_name or user.get_username()
    except ObjectDoesNotExist:
        return user.get_username()


def restore_table_prefs(sender, request, user, **kwargs) -> None:
    """On ``user_logged_in``: the settings kept on the user's profile, on any device."""
    if request is None or not hasattr(request, "session"):
        return
    kept = Profile.objects.filter(user=user).values_list("table_prefs", "table_rules").first()
    prefs, rules = kept or (None, None)
    table_prefs.restore(request.session, prefs)
    table_prefs.restore_rules(request.session, rules)
