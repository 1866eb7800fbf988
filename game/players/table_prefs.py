"""How a person likes the table drawn: kept in their session, a guest's or a user's; a
user's are also kept on their profile and come back at every log-in, on any device."""

from __future__ import annotations

SESSION_KEY = "table_prefs"

# name -> what the settings form says; each is a class on <body> when chosen
CHOICES = {
    "deck-four": "Four-colour deck (diamonds blue, clubs green)",
    "cards-large": "Larger cards in my hand",
    "autoplay-single": "Play my card for me when only one is legal",
    "sound-on-turn": "A sound when it is my turn",
    # on a touch screen the first tap lifts a card and the second plays it, unless this
    "one-tap": "Play a card with one tap on a touch screen (no second tap to confirm)",
    # the site follows the device's light or dark setting unless one of these says
    "theme-dark": "Dark pages, whatever the device's setting",
    "theme-light": "Light pages, whatever the device's setting",
}


def chosen(session) -> tuple[str, ...]:
    """The choices kept in ``session``; anything unknown in it is ignored."""
    kept = session.get(SESSION_KEY, ())
    return tuple(name for name in CHOICES if name in kept)


def keep(session, names) -> tuple[str, ...]:
    """Keep the known ones of ``names`` as the session's choices (the rest are dropped)."""
    picked = tuple(name for name in CHOICES if name in set(names))
    session[SESSION_KEY] = list(picked)
    return picked


def restore(session, kept) -> tuple[str, ...]:
    """Bring choices kept elsewhere (a profile's) into ``session``; with none kept there
    (None), the session keeps its own."""
    if not isinstance(kept, list):
        return chosen(session)
    return keep(session, kept)


# the game chosen for the last table made (game.forms.RulesForm): offered again next time
RULES_KEY = "table_rules"


def chosen_rules(session) -> dict:
    """The last table's game and options, as the form's fields name them (or nothing)."""
    kept = session.get(RULES_KEY)
    return kept if isinstance(kept, dict) else {}


def keep_rules(session, choices: dict) -> dict:
    kept = {name: value for name, value in choices.items() if value is not None}
    session[RULES_KEY] = kept
    return kept


def restore_rules(session, kept) -> None:
    """Bring the game kept on a profile into ``session`` (nothing kept: the session's own)."""
    if isinstance(kept, dict):
        keep_rules(session, kept)


def remember_rules(request, choices: dict) -> None:
    """Remember the game chosen for a new table: in the session, and on a user's profile."""
    from game.players import profiles

    kept = keep_rules(request.session, choices)
    if request.user.is_authenticated:
        profiles.profile_table_rules_save(user=request.user, choices=kept)
