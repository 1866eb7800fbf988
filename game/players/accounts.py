"""How django-allauth fits the site: our wording, players shown by display name, a
user's table settings brought back at log-in, and password guessing paused without
letting anyone lock the owner out.

Only failed log-ins are counted (``LOGIN_FAILURES`` in ACCOUNT_RATE_LIMITS), per address
(10 a minute) and per username *from that address* (5 in 5 minutes): a stranger's
guesses pause the stranger, from however many addresses they come, and never the owner
on another one; a right password is never counted, and works again from the paused
address once the pause is over. allauth's own count (``login_failed``) is off: it is
keyed by the username alone, so guesses from anywhere paused the owner everywhere.
Through allauth's public hooks only: ``pre_authenticate`` asks whether the counts leave
room (a dry run), ``authentication_failed`` counts. ``/admin/login/`` goes through the
same counts (``AdminLoginForm``).
"""

from allauth.account.adapter import DefaultAccountAdapter, get_adapter
from allauth.core import ratelimit
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ObjectDoesNotExist
from django.http import HttpRequest

from game.models import Profile
from game.players import table_prefs
from smearsite.kernel.ratelimit import request_address

# the rate-limit action of failed log-ins (ACCOUNT_RATE_LIMITS): "<per address>,<per key>",
# the key being the username and the address
LOGIN_FAILURES = "login_failure"


def login_of(credentials: dict) -> str:
    return str(credentials.get("username") or credentials.get("email") or "").strip().lower()


def failure_key(request: HttpRequest, credentials: dict) -> str:
    """What the failures of one username from one address are counted by."""
    return f"{login_of(credentials)}|{request_address(request)}"


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

    def pre_authenticate(self, request: HttpRequest, **credentials) -> None:
        super().pre_authenticate(request, **credentials)
        # a dry run: the try itself is not counted, only a failure (authentication_failed)
        key = failure_key(request, credentials)
        if not ratelimit.consume(request, action=LOGIN_FAILURES, key=key, dry_run=True):
            raise self.validation_error("too_many_login_attempts")

    def authentication_failed(self, request: HttpRequest, **credentials) -> None:
        super().authentication_failed(request, **credentials)
        ratelimit.consume(request, action=LOGIN_FAILURES, key=failure_key(request, credentials))


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
