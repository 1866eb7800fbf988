"""Donation amounts: pure functions, no Django, no Stripe.

People choose whole currency units (10 dollars); Stripe wants the smallest unit of the
currency (1000 cents). Most currencies have 100 minor units, a few have none and a few
have 1000.
"""

from __future__ import annotations

PRESETS: tuple[int, ...] = (5, 10, 25, 50)
DEFAULT_PRESET = 10
# whole units; Stripe's own minimum charge is below 1 unit in every currency we would use
MINIMUM = 2
MAXIMUM = 1000

# https://docs.stripe.com/currencies: currencies without a minor unit, and with 1000 of them
ZERO_DECIMAL = frozenset("bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf".split())
THREE_DECIMAL = frozenset("bhd jod kwd omr tnd".split())

_SYMBOLS = {"cad": "$", "usd": "$", "aud": "$", "nzd": "$", "eur": "€", "gbp": "£"}


def minor_per_unit(currency: str) -> int:
    currency = currency.lower()
    if currency in ZERO_DECIMAL:
        return 1
    if currency in THREE_DECIMAL:
        return 1000
    return 100


def to_minor(units: int, currency: str) -> int:
    """Whole units (what the donor chose) to Stripe's minor units."""
    return units * minor_per_unit(currency)


def display(minor: int, currency: str, *, code: bool = True) -> str:
    """'$25 CAD', '$12.50 CAD', '$1,000 CAD', '500 JPY'; '$25' without the code."""
    per_unit = minor_per_unit(currency)
    units, rest = divmod(minor, per_unit)
    number = f"{units:,}"
    if rest:
        number += f".{rest:0{len(str(per_unit)) - 1}d}"
    text = f"{_SYMBOLS.get(currency.lower(), '')}{number}"
    return f"{text} {currency.upper()}" if code else text
