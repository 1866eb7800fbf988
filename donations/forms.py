import re
import uuid

from django import forms
from django.core.exceptions import ValidationError

from donations import amounts
from donations.models import MESSAGE_MAX_LENGTH, NAME_MAX_LENGTH
from smearsite.kernel import check_printable, check_printable_lines

_ATTEMPT = re.compile(r"^[0-9a-f]{32}$")


def new_attempt() -> str:
    return uuid.uuid4().hex


class DonateForm(forms.Form):
    """What the donor chooses. Nothing is created unless all of it is valid."""

    amount = forms.TypedChoiceField(
        coerce=int, empty_value=None, required=False, widget=forms.RadioSelect, label="Amount"
    )
    custom_amount = forms.IntegerField(
        required=False,
        label="Or your own amount",
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1}),
    )
    name = forms.CharField(
        required=False,
        max_length=NAME_MAX_LENGTH,
        validators=[check_printable],
        label="Name (optional)",
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )
    message = forms.CharField(
        required=False,
        max_length=MESSAGE_MAX_LENGTH,
        validators=[check_printable_lines],
        label="Message (optional)",
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    list_publicly = forms.BooleanField(
        required=False, label="Show my name and message on the supporters list"
    )
    # minted when the form is drawn; the same form sent twice is one checkout
    attempt = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, currency: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.currency = currency
        low = amounts.display(amounts.to_minor(amounts.MINIMUM, currency), currency)
        high = amounts.display(amounts.to_minor(amounts.MAXIMUM, currency), currency)
        amount = self.fields["amount"]
        # the currency code is in the fieldset's legend
        amount.choices = [
            (units, amounts.display(amounts.to_minor(units, currency), currency, code=False))
            for units in amounts.PRESETS
        ]
        amount.initial = amounts.DEFAULT_PRESET
        custom = self.fields["custom_amount"]
        custom.widget.attrs.update(min=amounts.MINIMUM, max=amounts.MAXIMUM)
        custom.help_text = (
            f"A whole amount from {low} to {high}. If you type one, it replaces the choice above."
        )
        custom.error_messages.update(
            invalid="Enter a whole amount, like 20.",
            min_value=f"The smallest donation is {low}.",
            max_value=f"The largest donation here is {high}.",
        )
        self.fields["list_publicly"].label_suffix = ""
        self.fields["attempt"].initial = new_attempt()

    def clean_custom_amount(self) -> int | None:
        value = self.cleaned_data.get("custom_amount")
        if value is None:
            return None
        field = self.fields["custom_amount"]
        if value < amounts.MINIMUM:
            raise ValidationError(field.error_messages["min_value"], code="min_value")
        if value > amounts.MAXIMUM:
            raise ValidationError(field.error_messages["max_value"], code="max_value")
        return value

    def clean_attempt(self) -> str:
        value = self.cleaned_data.get("attempt", "")
        return value if _ATTEMPT.match(value) else new_attempt()

    def clean(self):
        cleaned = super().clean()
        no_amount = cleaned.get("amount") is None and cleaned.get("custom_amount") is None
        if no_amount and not self.has_error("amount") and not self.has_error("custom_amount"):
            self.add_error("amount", "Choose an amount, or type your own.")
        if cleaned.get("list_publicly") and not cleaned.get("name"):
            self.add_error(
                "name", "Give the name to show on the supporters list, or untick the box."
            )
        return cleaned

    @property
    def units(self) -> int:
        """The chosen amount in whole units, once the form is valid."""
        custom = self.cleaned_data.get("custom_amount")
        return custom if custom is not None else self.cleaned_data["amount"]
