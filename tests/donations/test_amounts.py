"""Whole units chosen by the donor, minor units for Stripe, and how amounts read."""

import pytest

from donations import amounts


@pytest.mark.parametrize(
    ("units", "currency", "minor"),
    [(25, "cad", 2500), (25, "CAD", 2500), (500, "jpy", 500), (3, "kwd", 3000)],
)
def test_whole_units_become_the_currencys_minor_units(units, currency, minor):
    assert amounts.to_minor(units, currency) == minor


@pytest.mark.parametrize(
    ("minor", "currency", "text"),
    [
        (2500, "cad", "$25 CAD"),
        (1250, "cad", "$12.50 CAD"),
        (1005, "eur", "€10.05 EUR"),
        (500, "jpy", "500 JPY"),
        (3005, "kwd", "3.005 KWD"),
        (100000, "cad", "$1,000 CAD"),
    ],
)
def test_amounts_read_with_symbol_and_code(minor, currency, text):
    assert amounts.display(minor, currency) == text


def test_preset_buttons_leave_the_code_out():
    assert amounts.display(2500, "cad", code=False) == "$25"


def test_presets_lie_within_the_limits():
    assert all(amounts.MINIMUM <= units <= amounts.MAXIMUM for units in amounts.PRESETS)
    assert amounts.DEFAULT_PRESET in amounts.PRESETS
