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


def keep_rules(session, choices: dict) -> None:
    session[RULES_KEY] = {name: value for name, value in choices.items() if value is not None}
