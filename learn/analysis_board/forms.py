"""The analysis board's forms: the table first (the game, its options, the players and
teams), then the position (the dealer, the score, the seat asking, the hands tapped in,
the pack and the round so far).

The position form writes what was entered as a board's notation and hands it to
``board_notation.read`` and ``board.replay``: the engine judges it, and a refusal comes
back on the field at fault in the board's own words. Nothing is stored.
"""

from __future__ import annotations

import re

from django import forms

from game.engine import board_notation
from game.engine.board import Board, BoardError, Replayed, replay
from game.engine.cards import CARD_CODES, cards_of
from game.engine.state import MatchSetup
from game.engine.variants import Rules
from game.forms import RulesForm, TeamLayoutForm

MAX_SEATS = 8
SEAT_CHOICES = [(seat, f"Seat {seat}") for seat in range(MAX_SEATS)]
CARD_CHOICES = [(code, code) for code in CARD_CODES]
# what separates the cards, scores and actions a person types: spaces, commas, dots
_SEPARATORS = re.compile(r"[\s,;.]+")


class TableSetupForm(RulesForm, TeamLayoutForm):
    """The table: the game and its options, the players and their teams."""

    rules_text = forms.CharField(
        label="Other options, as a board writes them",
        required=False,
        max_length=200,
        help_text="Optional, and it takes the place of the game chosen above: "
        "classic.follow-schmier.target-11, say.",
    )

    def clean(self):
        data = super().clean()
        text = (data.get("rules_text") or "").strip()
        if text:
            try:
                data["rules"] = board_notation.read(_with_rules(text)).rules
            except BoardError as error:
                self.add_error("rules_text", error.reason)
        return data


def _with_rules(text: str) -> str:
    """A board of nothing but ``text`` as its rules, to read the rules alone."""
    return f"{board_notation.VERSION}~{text}~0~0~0~0~x~x~"


class BoardForm(TableSetupForm):
    """The whole position. ``cleaned_data`` gains ``replayed``: the board played through
    the engine."""

    dealer = forms.TypedChoiceField(label="Dealer", choices=SEAT_CHOICES, coerce=int, initial=0)
    seat = forms.TypedChoiceField(label="Your seat", choices=SEAT_CHOICES, coerce=int, initial=0)
    scores = forms.CharField(
        label="Match score before this round",
        required=False,
        max_length=60,
        help_text="One number per side, in the order of the teams: 3 -2. Blank: 0 each.",
    )
    pack = forms.CharField(
        label="The pack (undealt cards, top first)",
        required=False,
        max_length=200,
        help_text="Optional: 2S 3S, say.",
    )
    actions = forms.CharField(
        label="The round so far",
        required=False,
        max_length=600,
        help_text="Optional, in turn from the dealer's left: b2 (bid 2), p (pass), tS (name "
        "spades trump), d9H3C (discard the 9 of hearts and 3 of clubs; d alone for none), "
        "then the cards played: AS 10S J1.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fill"] = forms.MultipleChoiceField(
            label="Your fill: the cards you drew from the pack",
            help_text="Once you have drawn (seven-point's fill, or the pack the dealer "
            "takes): without it or the pack, the board cannot know your hand.",
            choices=CARD_CHOICES,
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        for seat in range(MAX_SEATS):
            self.fields[f"hand_{seat}"] = forms.MultipleChoiceField(
                label=f"Seat {seat}'s hand",
                choices=CARD_CHOICES,
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )

    def clean(self):
        data = super().clean()
        if self.errors or "rules" not in data or "teams" not in data:
            return data
        try:
            text = self._notation(data)
            replayed = replay(board_notation.read(text))
        except BoardError as error:
            self.add_error(self._field_of(error, data), error.reason)
            return data
        data["replayed"] = replayed
        return data

    def _notation(self, data) -> str:
        players = data["players"]
        hands = []
        for seat in range(players):
            codes = data.get(f"hand_{seat}") or []
            hands.append("".join(codes) if codes else board_notation.UNKNOWN)
        for seat in range(players, MAX_SEATS):
            if data.get(f"hand_{seat}"):
                raise BoardError(
                    "hands", f"there is no seat {seat} at a table of {players}", seat=seat
                )
        units = len(data["teams"])
        scores = _parts(data.get("scores") or "") or ["0"] * units
        pack = "".join(_parts(data.get("pack") or "")) or board_notation.UNKNOWN
        fields = (
            board_notation.VERSION,
            board_notation.write_rules(data["rules"]),
            ".".join("".join(map(str, unit)) for unit in data["teams"]),
            str(data["dealer"]),
            ".".join(scores),
            str(data["seat"]),
            ".".join(hands),
            pack,
            ".".join(_parts(data.get("actions") or "")),
        )
        fill = "".join(data.get("fill") or [])
        return "~".join(fields + ((fill,) if fill else ()))

    @staticmethod
    def _field_of(error: BoardError, data) -> str | None:
        if error.field == "hands":  # beside the hand at fault, where one is
            return f"hand_{error.seat}" if error.seat is not None else None
        if error.field in ("dealer", "seat", "scores", "pack", "actions", "fill"):
            return error.field
        if error.field == "rules":
            return "rules_text"
        return None


def _parts(text: str) -> list[str]:
    return [part for part in _SEPARATORS.split(text.strip()) if part]


def draws_from_pack(rules: Rules) -> bool:
    """A seat may draw from the pack at this table (a fill, or the dealer taking it)."""
    return rules.exchange in ("discard_and_fill", "dealer_takes_pack")


def deck_codes(rules: Rules, teams) -> tuple[str, ...]:
    """The cards of the table's deck, for the hands' grids."""
    players = sum(len(unit) for unit in teams)
    setup = MatchSetup(players, tuple(map(tuple, teams)), rules.target, rules)
    return tuple(CARD_CODES[c] for c in cards_of(setup.deck))


def initial_of(board: Board) -> dict:
    """The position form's fields for a board, to change it."""
    record = board.rules.to_record()
    initial = {
        "preset": board.rules.preset,
        "target": board.rules.target,
        "players": board.players,
        "layout": "custom",
        "custom_teams": ":".join(",".join(map(str, unit)) for unit in board.teams),
        "rules_text": "" if isinstance(record, str) else board_notation.write_rules(board.rules),
        "dealer": board.dealer,
        "seat": board.seat,
        "scores": " ".join(map(str, board.scores)),
        "pack": "" if board.pack is None else " ".join(CARD_CODES[c] for c in board.pack),
        "actions": " ".join(board_notation.write_action(a) for _, a in board.actions),
        "fill": [] if board.fill is None else [CARD_CODES[c] for c in cards_of(board.fill)],
    }
    for seat, hand in enumerate(board.hands):
        initial[f"hand_{seat}"] = [] if hand is None else [CARD_CODES[c] for c in cards_of(hand)]
    return initial


def replayed_of(form: BoardForm) -> Replayed:
    return form.cleaned_data["replayed"]
