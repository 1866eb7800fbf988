"""The shared kernel: what every app would otherwise write again.

Here rather than in one app so that ``game``, ``learn``, ``scoresheet`` and ``donations``
depend on the project package they already share, never on each other for these.

Domain errors carry no HTTP status: a service raises them, and the views map them to a
response.
"""

import secrets

from django.core.exceptions import ValidationError


class DomainError(Exception):
    """A request the domain refuses; nothing was stored. The message is for the person."""


class Refused(DomainError):
    """Not allowed as asked: a bad move, a taken seat, a stale form."""


class NotFound(DomainError):
    """What was asked for does not exist (or is not the asker's to see)."""


class Conflict(DomainError):
    """The request was right when it was made, but something changed meanwhile."""


class TooMany(DomainError):
    """More than the asker's share of something costly, for now: asking later will do."""


# --- Share codes ---------------------------------------------------------------------------
# a table's code, a score sheet's invite code: read out across a kitchen table, so no
# look-alike characters (0/O, 1/I/L). A code is a capability (it shows a table, it makes
# a member of a sheet), so it is long: 31^10 is 8e14 codes, and at the pace of
# smearsite.kernel.code_guard (20 misses an address in ten minutes) a million addresses would
# need years to find one of a million live codes. Codes made when they were 6 long still
# work: lookups compare the whole stored code.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 10
CODE_MAX_LENGTH = 12  # what a code field stores


def new_share_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str:
    """A code as typed or read out (lower case, spaces, dashes) as it is stored."""
    return text.strip().upper().replace(" ", "").replace("-", "")


# --- Numbers from a request ---------------------------------------------------------------
# Python refuses to parse more than 4,300 digits, and nothing here counts that high: a
# number is checked for length before it is parsed, so a forged one is a clear 400

MAX_DIGITS = 6


class BadNumber(Refused):
    """A number in a request that is not a short whole number."""


def request_int(text: str | None, *, name: str, digits: int = MAX_DIGITS) -> int | None:
    """A whole number as a form, query or message sent it; None when blank. ``BadNumber``
    for anything else than at most ``digits`` ASCII digits (``isdigit`` alone would let
    through superscripts, which ``int`` refuses)."""
    text = (text or "").strip()
    if not text:
        return None
    if len(text) > digits or not (text.isascii() and text.isdigit()):
        raise BadNumber(f"The {name} must be a whole number of at most {digits} digits.")
    return int(text)


# --- Printable text ------------------------------------------------------------------------

NOT_PRINTABLE = "Use letters, digits, spaces and punctuation only."


def check_printable(value: str) -> None:
    """A one-line name or title: no control characters."""
    if not value.isprintable():
        raise ValidationError(NOT_PRINTABLE)


def check_printable_lines(value: str) -> None:
    """A message of several lines: line breaks, but no other control characters."""
    if not value.replace("\r\n", "\n").replace("\n", " ").isprintable():
        raise ValidationError(NOT_PRINTABLE)
