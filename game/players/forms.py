"""The players' forms: sign-up (allauth's, with the profile saved with the user) and the
profile's display name and leaderboard opt-in."""

from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest

from game.models import DISPLAY_NAME_MAX_LENGTH
from game.players import profiles
from smearsite.kernel import check_printable


class SignupForm(AllauthSignupForm):
    """allauth's sign-up form, saving the user, their email address and profile as one.
    The username is the first display name, so it must not look like another player's."""

    def clean_username(self):
        username = super().clean_username()
        if not profiles.name_available(username):
            raise ValidationError(profiles.NAME_TAKEN)
        return username

    def save(self, request: HttpRequest):
        # all or nothing: a failure after the user row must not leave an account behind
        with transaction.atomic():
            user = super().save(request)
            profiles.profile_get_or_create(user=user)
        return user


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        max_length=DISPLAY_NAME_MAX_LENGTH,
        validators=[check_printable],
        help_text="The name other players see at the table.",
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )
    on_leaderboard = forms.BooleanField(
        required=False,
        label="Show me on the leaderboards",
        help_text="Your name and rating at each table size where you have enough rated matches.",
    )

    def __init__(self, *args, user=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"]
        if not profiles.name_available(name, user=self.user):
            raise ValidationError(profiles.NAME_TAKEN)
        return name
