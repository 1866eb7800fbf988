import re

from django import forms
from django.core.exceptions import ValidationError

from game.engine import notation, rules, variants
from game.engine.state import MatchSetup
from smearsite.kernel import CODE_MAX_LENGTH, normal_code

# --- Play bots now --------------------------------------------------------------------

# weakest first; random is no opponent and is offered no more (game.bots.OFFERED_LEVELS)
BOT_LEVEL_CHOICES = [
    ("beginner", "Beginner"),
    ("casual", "Casual"),
    ("club", "Club"),
    ("expert", "Expert"),
    ("greedy", "Greedy (rule of thumb)"),
]
# the layout a table of each size plays unless another is chosen: partners where the seats
# split into two equal sides, everyone for themselves otherwise
USUAL_LAYOUTS = {4: "2v2", 6: "3v3", 8: "4v4"}
# name -> (players it fits, or None for any; how many equal units partners sit in)
TEAM_LAYOUTS = {
    "2v2": (4, 2),
    "cutthroat": (None, None),
    "3v3": (6, 2),
    "2v2v2": (6, 3),
    "4v4": (8, 2),
    "custom": (None, None),
}
LAYOUT_CHOICES = [
    ("usual", "Usual for the player count"),
    ("2v2", "2 against 2 (4 players)"),
    ("cutthroat", "Cutthroat: everyone for themselves"),
    ("3v3", "3 against 3 (6 players)"),
    ("2v2v2", "Three teams of 2 (6 players)"),
    ("4v4", "4 against 4 (8 players)"),
    ("custom", "Custom (pick each seat's side)"),
]
MAX_BOT_SEATS = 7


def parse_teams(text: str, players: int) -> list[list[int]]:
    """Teams written as seats, units split by colons: ``0,2:1,3``."""
    teams = []
    for part in text.replace(" ", "").split(":"):
        try:
            unit = [int(seat) for seat in part.split(",") if seat != ""]
        except ValueError:
            raise ValidationError("Write seat numbers, like 0,2:1,3.") from None
        teams.append(unit)
    seats = sorted(seat for unit in teams for seat in unit)
    if seats != list(range(players)) or any(not unit for unit in teams):
        raise ValidationError(
            f"Put every seat from 0 to {players - 1} in exactly one team, like 0,2:1,3."
        )
    return teams


def layout_teams(layout: str, players: int) -> list[list[int]]:
    if layout == "usual":
        layout = USUAL_LAYOUTS.get(players, "cutthroat")
    fits, units = TEAM_LAYOUTS[layout]
    if fits is not None and fits != players:
        raise ValidationError(f"That team layout is for {fits} players.")
    if units is None:
        return [[seat] for seat in range(players)]
    # partners sit alternately: with 4 players, seats 0 and 2 against 1 and 3
    return [list(range(unit, players, units)) for unit in range(units)]


def _players_said(n: int) -> str:
    """A table size, and the games it fits when the house rules do not play it."""
    if variants.HOUSE.allows_players(n):
        return str(n)
    games = [
        notation.preset_name(name) for name, r in variants.PRESETS.items() if r.allows_players(n)
    ]
    return f"{n} ({' or '.join(games)} only)"


PLAYER_CHOICES = [
    (n, _players_said(n))
    for n in sorted({n for rules_ in variants.PRESETS.values() for n in rules_.players})
]


class TeamLayoutForm(forms.Form):
    """Players and how they team up: the part every table form shares. ``cleaned_data``
    gains ``teams``, a partition of the seats."""

    players = forms.TypedChoiceField(choices=PLAYER_CHOICES, coerce=int, initial=4)
    layout = forms.ChoiceField(label="Teams", choices=LAYOUT_CHOICES, initial="usual")
    custom_teams = forms.CharField(
        label="Custom teams",
        required=False,
        max_length=40,
        help_text="Seats by number, you are 0; sides split by colons: 0,2:1,3.",
    )

    def clean(self):
        data = super().clean()
        players = data.get("players")
        layout = data.get("layout")
        if players is None or layout is None:
            return data
        try:
            if layout == "custom":
                data["teams"] = parse_teams(data.get("custom_teams", ""), players)
            else:
                data["teams"] = layout_teams(layout, players)
        except ValidationError as error:
            self.add_error("custom_teams" if layout == "custom" else "layout", error)
        return data


# --- The game a table plays: a preset of the Smear family and its options ---------------

PRESET_CHOICES = [(name, notation.preset_brief(table)) for name, table in variants.PRESETS.items()]
DEFAULT = ""  # an option left as the preset plays it
JOKER_CHOICES = [(DEFAULT, "As the game is played"), ("0", "None"), ("1", "One"), ("2", "Two")]
JICK_CHOICES = [(DEFAULT, "As the game is played"), ("yes", "Yes"), ("no", "No")]
FOLLOW_CHOICES = [(DEFAULT, "As the game is played")] + [
    (name, notation.FOLLOW_SAID[name].capitalize()) for name in ("trump_any_time", "schmier")
]
RULES_FIELDS = ("preset", "jokers", "jick", "follow", "target")


class RulesForm(forms.Form):
    """The game a table plays: a preset and its options. ``cleaned_data`` gains ``rules``,
    a ``variants.Rules`` checked against the players and teams chosen."""

    preset = forms.ChoiceField(
        label="Game",
        choices=PRESET_CHOICES,
        initial="house",
        required=False,  # the house rules unless another game is chosen
        error_messages={"invalid_choice": "There is no game called %(value)s: choose one."},
    )
    jokers = forms.ChoiceField(
        label="Jokers", choices=JOKER_CHOICES, required=False, help_text="Not for the house rules."
    )
    jick = forms.ChoiceField(
        label="The jick (the other jack of trump's colour is a trump)",
        choices=JICK_CHOICES,
        required=False,
        help_text="Not for the house rules.",
    )
    follow = forms.ChoiceField(
        label="Following suit",
        choices=FOLLOW_CHOICES,
        required=False,
        help_text="Not for the house rules.",
    )
    target = forms.IntegerField(
        label="Play to",
        min_value=variants.TARGETS[0],
        max_value=variants.TARGETS[1],
        initial=rules.DEFAULT_TARGET,
        required=False,  # the usual target unless another is given
        help_text=f"{variants.TARGETS[0]} to {variants.TARGETS[1]} points.",
    )

    def rules_fields(self):
        return [self[name] for name in RULES_FIELDS]

    def __init__(self, *args, remembered: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        for name, value in (remembered or {}).items():  # the last table's choices
            if name in RULES_FIELDS and value is not None:
                self.fields[name].initial = value

    def clean(self):
        data = super().clean()
        if self.has_error("preset") or self.has_error("target"):
            return data
        name = data["preset"] = data.get("preset") or "house"
        target = data.get("target")
        target = data["target"] = rules.DEFAULT_TARGET if target is None else target
        options = {}
        if data.get("jokers"):
            options["jokers"] = int(data["jokers"])
        if data.get("jick"):
            options["jick"] = data["jick"] == "yes"
        if data.get("follow"):
            options["follow"] = data["follow"]
        if name == "house" and options:
            self.add_error(
                next(iter(options)),
                "The house rules take no options: leave the jokers, the jick and following "
                "suit as the game is played, or choose another game.",
            )
            return data
        try:
            table_rules = variants.PRESETS[name].with_options(**options, target=target)
        except variants.RulesError as error:
            field = error.option if error.option in RULES_FIELDS else None
            self.add_error(field, f"{error}.")
            return data
        players, teams = data.get("players"), data.get("teams")
        if players is not None and not table_rules.allows_players(players):
            counts = ", ".join(map(str, table_rules.players))
            self.add_error(
                "players", f"{notation.preset_name(name)} is played by {counts} players."
            )
            return data
        if teams is not None:
            try:
                MatchSetup(players, tuple(map(tuple, teams)), target, rules=table_rules)
            except ValueError:
                self.add_error(
                    "layout",
                    f"{notation.preset_name(name)} with {players} players plays "
                    f"{table_rules.describe_layouts(players)}.",
                )
                return data
        data["rules"] = table_rules
        return data

    def remembered(self) -> dict:
        """The choices to remember for the next table (``table_prefs.keep_rules``)."""
        return {name: self.cleaned_data.get(name) for name in RULES_FIELDS}


class PlayBotsForm(RulesForm, TeamLayoutForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in range(1, MAX_BOT_SEATS + 1):
            self.fields[f"bot_{seat}"] = forms.ChoiceField(
                label=f"Seat {seat} bot",
                choices=BOT_LEVEL_CHOICES,
                initial="expert",
                required=False,
            )

    def bot_fields(self):
        return [self[f"bot_{seat}"] for seat in range(1, MAX_BOT_SEATS + 1)]

    def clean(self):
        data = super().clean()
        if "teams" in data and "players" in data:
            players = data["players"]
            data["bot_levels"] = [data.get(f"bot_{seat}") or "expert" for seat in range(1, players)]
        return data


# --- Tables with friends ------------------------------------------------------------------


class TableForm(RulesForm, TeamLayoutForm):
    """A table for friends: the host sits in seat 0, friends and bots take the rest."""

    public = forms.BooleanField(
        label="Public: list it on the open tables page",
        required=False,
        help_text="A private table is reached only by its link or short code.",
    )


# the share codes' characters (smearsite.kernel.CODE_ALPHABET), or a pasted share link
_CODE_IN_LINK = re.compile(r"/table/([A-Za-z0-9]+)/?")


class JoinByCodeForm(forms.Form):
    code = forms.CharField(
        label="Table code",
        max_length=200,
        help_text="The short code a friend sent you, or their link.",
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )

    def clean_code(self) -> str:
        text = self.cleaned_data["code"].strip()
        found = _CODE_IN_LINK.search(text)
        code = normal_code(found.group(1) if found else text)
        if not code.isalnum() or not 4 <= len(code) <= CODE_MAX_LENGTH:
            raise ValidationError("A table code is 10 letters and digits, like K7M2QXR4PW.")
        return code


def settings_of(table, seats) -> dict:
    """A finished table's settings as the new-table forms' fields name them: offered again
    (``initial``) for "a new table, other settings"."""
    played = variants.from_record(table.rules)
    preset = variants.PRESETS[played.preset]
    teams = [sorted(unit) for unit in table.teams]
    found = {
        "preset": played.preset,
        "target": table.target,
        "players": table.players,
        "layout": _layout_of(teams, table.players),
        "custom_teams": ":".join(",".join(map(str, unit)) for unit in teams),
    }
    if played.jokers != preset.jokers:
        found["jokers"] = str(played.jokers)
    if played.jick != preset.jick:
        found["jick"] = "yes" if played.jick else "no"
    if played.follow != preset.follow:
        found["follow"] = played.follow
    for seat in seats:
        if seat.number and seat.bot_level:
            found[f"bot_{seat.number}"] = seat.bot_level
    return found


def _layout_of(teams: list[list[int]], players: int) -> str:
    for name in TEAM_LAYOUTS:
        if name == "custom":
            continue
        try:
            if sorted(map(sorted, layout_teams(name, players))) == sorted(teams):
                return name
        except ValidationError:
            continue
    return "custom"
