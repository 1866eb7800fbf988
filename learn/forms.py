"""The practice filters. On a page's address a value that is not on offer is dropped, not
an error page; a form posting one to be served is refused (learn.views.serve)."""

from __future__ import annotations

from urllib.parse import urlencode

from django import forms

from game.engine.notation import preset_name
from game.engine.variants import PRESETS
from learn import selectors
from learn.core.positions import PHASES

PHASE_LABELS = {
    "auction": "Auction (bid or pass)",
    "trump": "Naming trump",
    "discard": "Discarding",
    "lead": "Leading",
    "follow": "Following",
}


# every table size some game is played at (classic is played by two)
TABLE_SIZES = sorted({n for rules in PRESETS.values() for n in rules.players})


class FilterForm(forms.Form):
    # the game the learner plays: kept on their learner (learn.services.learner_preset_choose)
    game = forms.ChoiceField(
        required=False,
        label="Game",
        choices=[("", "Any game")] + [(name, preset_name(name)) for name in PRESETS],
    )
    phase = forms.ChoiceField(
        required=False,
        choices=[("", "Any")] + [(p, PHASE_LABELS.get(p, p)) for p in PHASES],
    )
    theme = forms.ChoiceField(required=False)
    players = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", "Any")] + [(n, str(n)) for n in TABLE_SIZES],
    )
    difficulty = forms.ChoiceField(
        required=False,
        choices=list(selectors.DIFFICULTY_LABELS.items()),
        help_text="Relative to your rating.",
    )
    mode = forms.ChoiceField(
        required=False,
        label="Rating",
        choices=[("rated", "Rated"), ("unrated", "Unrated")],
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["theme"].choices = [("", "Any")] + selectors.theme_choices()

    def filters(self) -> selectors.Filters:
        """The filters asked for; a field that did not validate counts as "any"."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        return selectors.Filters(
            preset=data.get("game") or None,
            phase=data.get("phase") or None,
            theme=data.get("theme") or None,
            players=data.get("players") or None,
            difficulty=data.get("difficulty") or "matched",
            rated=(data.get("mode") or "rated") == "rated",
        )

    def fields_asked(self) -> tuple[tuple[str, str], ...]:
        """The filters asked for, as the hidden fields of a form that serves a position:
        those left at their default are left out, and the game is passed on only when one
        was asked for ("any" too), so that without it the learner's kept game is served."""
        filters = self.filters()
        cleaned = getattr(self, "cleaned_data", {})
        asked = [("game", cleaned["game"])] if "game" in self.data and "game" in cleaned else []
        for name, value in (
            ("phase", filters.phase),
            ("theme", filters.theme),
            ("players", filters.players),
            ("difficulty", None if filters.difficulty == "matched" else filters.difficulty),
            ("mode", None if filters.rated else "unrated"),
        ):
            if value:
                asked.append((name, str(value)))
        return tuple(asked)

    def query(self) -> str:
        """The filters as a query string, for the practice page's address."""
        return urlencode(self.fields_asked())


def chosen_discard(data) -> str:
    """The card chooser's answer (``templates/game/card_chooser.html``): its mode and the
    cards tapped, as ``learn.core.discards`` reads them (``keep:AS,2S``); "" when the post
    carries no chooser. A hand holds at most 23 cards: a longer list is cut, and refused."""
    mode = data.get("mode")
    if mode is None:
        return ""
    tapped = [code[:4] for code in data.getlist("card")[:32]]
    return f"{mode[:8]}:{','.join(tapped)}"
