"""Profiles: what a player shows the table. Display names are unique, ignoring case and
look-alike characters (``game.players.names``)."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from game.models import DISPLAY_NAME_MAX_LENGTH, Profile
from game.players.names import name_key
from smearsite.kernel import Refused

NAME_TAKEN = (
    "Another player is already called that, or something that looks just like it: "
    "choose another name."
)


class NameTaken(Refused):
    """A display name another player has (or one that looks the same)."""


def name_available(name: str, *, user: AbstractBaseUser | None = None) -> bool:
    others = Profile.objects.filter(name_key=name_key(name))
    if user is not None and user.pk is not None:
        others = others.exclude(user=user)
    return not others.exists()


def profile_get_or_create(*, user: AbstractBaseUser) -> Profile:
    """The user's profile; a user made outside sign-up (createsuperuser) gets one on first
    need, named after the username (with a number if that name is taken)."""
    found = Profile.objects.filter(user=user).first()
    if found is not None:
        return found
    base = user.get_username()[: DISPLAY_NAME_MAX_LENGTH - 4]
    for number in range(1, 100):
        name = base if number == 1 else f"{base} {number}"
        try:
            with transaction.atomic():
                return Profile.objects.create(user=user, display_name=name, name_key=name_key(name))
        except IntegrityError:
            found = Profile.objects.filter(user=user).first()
            if found is not None:  # made meanwhile by another request of theirs
                return found
    return Profile.objects.create(user=user, display_name=base)  # unkeyed: still shown


def profile_update(
    *, user: AbstractBaseUser, display_name: str, on_leaderboard: bool | None = None
) -> Profile:
    """Rename (and opt in or out of the leaderboards); ``NameTaken`` (nothing changes)
    when another player looks the same."""
    profile = profile_get_or_create(user=user)
    profile.display_name = display_name
    profile.name_key = name_key(display_name)
    if on_leaderboard is not None:
        profile.on_leaderboard = on_leaderboard
    try:
        with transaction.atomic():
            profile.save(update_fields=["display_name", "name_key", "on_leaderboard"])
    except IntegrityError:
        raise NameTaken(NAME_TAKEN) from None
    return profile


def profile_display_name(*, user_id: int) -> str:
    return profile_get_or_create(user=get_user_model().objects.get(pk=user_id)).display_name


def profile_table_prefs_save(*, user: AbstractBaseUser, prefs: tuple[str, ...]) -> None:
    """Keep a user's table settings with their profile, for their next log-in anywhere."""
    Profile.objects.filter(pk=profile_get_or_create(user=user).pk).update(table_prefs=list(prefs))


def profile_table_rules_save(*, user: AbstractBaseUser, choices: dict) -> None:
    """Keep the game a user chose for their last new table, for their next one anywhere."""
    Profile.objects.filter(pk=profile_get_or_create(user=user).pk).update(table_rules=choices)
