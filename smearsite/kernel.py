"""The shared kernel: what every app would otherwise write again.

Here rather than in one app so that ``game``, ``learn``, ``scoresheet`` and ``donations``
depend on the project package they already share, never on each other for these.

Domain errors carry no HTTP status: a service raises them, and the views map them to a
response.
"""


class DomainError(Exception):
    """A request the domain refuses; nothing was stored. The message is for the person."""


class Refused(DomainError):
    """Not allowed as asked: a bad move, a taken seat, a stale form."""


class NotFound(DomainError):
    """What was asked for does not exist (or is not the asker's to see)."""


class Conflict(DomainError):
    """The request was right when it was made, but something changed meanwhile."""
