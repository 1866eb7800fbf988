from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest

from game import services
from game.models import DISPLAY_NAME_MAX_LENGTH


class SignupForm(AllauthSignupForm):
    """allauth's sign-up form, saving the user, their email address and profile as one."""

    def save(self, request: HttpRequest):
        # all or nothing: a failure after the user row must not leave an account behind
        with transaction.atomic():
            user = super().save(request)
            services.profile_get_or_create(user=user)
        return user


def _printable(value: str) -> None:
    if not value.isprintable():
        raise ValidationError("Use letters, digits, spaces and punctuation only.")


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        max_length=DISPLAY_NAME_MAX_LENGTH,
        validators=[_printable],
        help_text="The name other players see at the table.",
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )
