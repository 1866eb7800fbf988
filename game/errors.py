"""The game's refusals: business errors, with no HTTP status (the views map them)."""

from smearsite.kernel import Refused


class TableError(Refused):
    """A move or request the table refuses; nothing was stored. The message is for the player."""
