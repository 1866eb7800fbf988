"""How django-allauth fits the site: our wording, players shown by display name, and a
user's table settings brought back at log-in."""

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ObjectDoesNotExist

from game import table_prefs
from game.models import Profile


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
