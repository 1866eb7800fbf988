"""Profiles: what a player shows the table."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from game.models import DISPLAY_NAME_MAX_LENGTH, Profile


def profile_get_or_create(*, user: AbstractBaseUser) -> Profile:
    """The user's profile; a user made outside sign-up (createsuperuser) gets one on first need."""
    profile, _ = Profile.objects.get_or_create(
        user=user, defaults={"display_name": user.get_username()[:DISPLAY_NAME_MAX_LENGTH]}
    )
    return profile


def profile_update(
    *, user: AbstractBaseUser, display_name: str, on_leaderboard: bool | None = None
) -> Profile:
    profile = profile_get_or_create(user=user)
    profile.display_name = display_name
    if on_leaderboard is not None:
        profile.on_leaderboard = on_leaderboard
    profile.save(update_fields=["display_name", "on_leaderboard"])
    return profile


def profile_display_name(*, user_id: int) -> str:
    return profile_get_or_create(user=get_user_model().objects.get(pk=user_id)).display_name
