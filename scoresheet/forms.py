"""Forms: what a member types or taps, checked against the ledger before any service runs."""

from dataclasses import replace

from django import forms
from django.core.exceptions import ValidationError

from scoresheet import ledger
from scoresheet.models import NAME_MAX_LENGTH, TITLE_MAX_LENGTH
from scoresheet.selectors import SheetView
from scoresheet.services import HandInput
from smearsite.kernel import check_printable

MAX_PLAYERS_PER_SIDE = 8
MAX_TARGET = 999


class SheetForm(forms.Form):
    """A new sheet: its sides (and, optionally, who sits where) and its rules."""

    title = forms.CharField(
        max_length=TITLE_MAX_LENGTH,
        required=False,
        validators=[check_printable],
        help_text="Optional, e.g. “Boxing Day at the farm”.",
    )
    preset = forms.ChoiceField(
        label="Rules",
        choices=[(key, preset.label) for key, preset in ledger.PRESETS.items()],
        initial="classic",
        widget=forms.RadioSelect,
    )
    target = forms.IntegerField(
        min_value=1,
        max_value=MAX_TARGET,
        required=False,
        help_text=f"The line on the sheet. Empty: {ledger.Rules.target}.",
        widget=forms.NumberInput(
            attrs={"inputmode": "numeric", "placeholder": str(ledger.Rules.target)}
        ),
    )
    # custom rules only
    points_per_hand = forms.IntegerField(min_value=1, max_value=20, required=False)
    min_bid = forms.IntegerField(label="Lowest bid", min_value=1, max_value=20, required=False)
    max_bid = forms.IntegerField(label="Highest bid", min_value=1, max_value=20, required=False)
    missed_bid = forms.ChoiceField(
        label="A missed bid",
        choices=[
            ("debt", "enters 0 and is owed from the next points"),
            ("negative", "enters minus the bid"),
        ],
        initial="debt",
        required=False,
        widget=forms.RadioSelect,
    )
    bidder_only_out = forms.BooleanField(
        label="Only the bidder can go out (the others stop one short of the target)",
        required=False,
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for n in range(1, ledger.MAX_SIDES + 1):
            self.fields[f"side_{n}"] = forms.CharField(
                label=f"Side {n}",
                max_length=NAME_MAX_LENGTH,
                required=n <= ledger.MIN_SIDES,
                validators=[check_printable],
                widget=forms.TextInput(attrs={"autocomplete": "off"}),
            )
            self.fields[f"players_{n}"] = forms.CharField(
                label=f"Players on side {n}",
                max_length=NAME_MAX_LENGTH * MAX_PLAYERS_PER_SIDE,
                required=False,
                validators=[check_printable],
                widget=forms.TextInput(
                    attrs={"autocomplete": "off", "placeholder": "optional: e.g. Sam, Alex"}
                ),
            )

    def preset_options(self):
        return [(radio, ledger.PRESETS[radio.data["value"]].note) for radio in self["preset"]]

    def custom_fields(self):
        names = ("points_per_hand", "min_bid", "max_bid", "missed_bid", "bidder_only_out")
        return [self[name] for name in names]

    def side_fields(self):
        return [(self[f"side_{n}"], self[f"players_{n}"]) for n in range(1, ledger.MAX_SIDES + 1)]

    def clean(self):
        cleaned = super().clean()
        sides, players = [], []
        for n in range(1, ledger.MAX_SIDES + 1):
            name = (cleaned.get(f"side_{n}") or "").strip()
            listed = [p.strip() for p in (cleaned.get(f"players_{n}") or "").split(",")]
            listed = [p for p in listed if p]
            if not name:
                if listed:
                    self.add_error(f"side_{n}", "Name this side, or clear its players.")
                continue
            if len(listed) > MAX_PLAYERS_PER_SIDE:
                self.add_error(f"players_{n}", f"At most {MAX_PLAYERS_PER_SIDE} players a side.")
            if any(len(p) > NAME_MAX_LENGTH for p in listed):
                self.add_error(f"players_{n}", f"Keep each name to {NAME_MAX_LENGTH} characters.")
            sides.append(name)
            players.append(listed)
        if len({name.casefold() for name in sides}) != len(sides):
            raise ValidationError("Give each side a different name.")
        everyone = [p.casefold() for listed in players for p in listed]
        if everyone and not all(players):
            raise ValidationError(
                "Seating is optional, but if you list players, list them for every side."
            )
        if len(set(everyone)) != len(everyone):
            raise ValidationError("Give each player a different name.")
        cleaned["sides"] = sides
        cleaned["seats"] = seating(players)
        cleaned["rules"] = self._rules(cleaned)
        return cleaned

    def _rules(self, cleaned) -> ledger.Rules | None:
        key = cleaned.get("preset")
        if key is None:
            return None
        target = cleaned.get("target") or ledger.PRESETS[key].rules.target
        if key != "custom":
            return replace(ledger.PRESETS[key].rules, target=target)
        for name in ("points_per_hand", "min_bid", "max_bid"):
            if cleaned.get(name) is None:
                self.add_error(name, "Needed for custom rules.")
        if self.errors:
            return None
        try:
            return ledger.Rules(
                target=target,
                points_per_hand=cleaned["points_per_hand"],
                min_bid=cleaned["min_bid"],
                max_bid=cleaned["max_bid"],
                missed_bid=cleaned.get("missed_bid") or "debt",
                bidder_only_out=cleaned.get("bidder_only_out", False),
            )
        except ValueError as error:
            raise ValidationError(f"Those rules do not work: {error}.") from error


def seating(players: list[list[str]]) -> list[tuple[str, int]]:
    """Seat the sides' players alternately round the table: partners sit apart."""
    seats = []
    for turn in range(max((len(listed) for listed in players), default=0)):
        for side, listed in enumerate(players):
            if turn < len(listed):
                seats.append((listed[turn], side))
    return seats


class HandForm(forms.Form):
    """One hand: who bid and how much, then who took each point (or the points typed in)."""

    def __init__(self, *args, view: SheetView, version_field: str = "number", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.view = view
        self.version_field = version_field
        rules = view.rules
        self.fields[version_field] = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
        if version_field == "number":
            # made once per form by the page (or here): the same hand sent again is found by it
            self.fields["client_id"] = forms.UUIDField(widget=forms.HiddenInput, required=False)
        if view.seats:
            bidders = [(f"seat-{seat.position}", seat.name) for seat in view.seats]
        else:
            bidders = [(f"side-{side}", name) for side, name in enumerate(view.sides)]
        self.fields["bidder"] = forms.ChoiceField(
            label="Who bid", choices=bidders, widget=forms.RadioSelect
        )
        self.fields["bid"] = forms.TypedChoiceField(
            label="Bid",
            coerce=int,
            choices=[(bid, str(bid)) for bid in rules.bids],
            widget=forms.RadioSelect,
        )
        sides = [(str(side), name) for side, name in enumerate(view.sides)]
        for i, point in enumerate(view.point_names):
            self.fields[f"point_{i}"] = forms.ChoiceField(
                label=point,
                choices=[*sides, ("", "Nobody")],
                required=False,
                initial="",
                widget=forms.RadioSelect,
            )
        for side, name in enumerate(view.sides):
            self.fields[f"made_{side}"] = forms.IntegerField(
                label=name,
                min_value=0,
                max_value=rules.points_per_hand,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )

    # for the template: the fields in the groups the page shows
    def point_fields(self):
        return [self[f"point_{i}"] for i in range(len(self.view.point_names))]

    def made_fields(self):
        return [self[f"made_{side}"] for side in range(len(self.view.sides))]

    def typed_in_use(self) -> bool:
        """Were totals typed in (or refused)? Then the page shows them open."""
        return any(field.value() not in (None, "") or field.errors for field in self.made_fields())

    def clean(self):
        cleaned = super().clean()
        choice = cleaned.get("bidder")
        bid = cleaned.get("bid")
        if choice is None or bid is None:
            return cleaned
        kind, _, value = choice.partition("-")
        if kind == "seat":
            seat = next(s for s in self.view.seats if s.position == int(value))
            bidder, bidder_seat = seat.side, seat.position
        else:
            bidder, bidder_seat = int(value), None

        sides = len(self.view.sides)
        takers = tuple(
            None if cleaned.get(f"point_{i}") in (None, "") else int(cleaned[f"point_{i}"])
            for i in range(len(self.view.point_names))
        )
        typed = [cleaned.get(f"made_{side}") for side in range(sides)]
        if self.errors:
            return cleaned
        if any(taker is not None for taker in takers):
            made = ledger.made_from_takers(takers, sides=sides)
            if any(points is not None for points in typed):
                typed_made = tuple(points or 0 for points in typed)
                if typed_made != made:
                    raise ValidationError(
                        f"The points you tapped add up to {_spell(made)}, but the points "
                        f"typed in say {_spell(typed_made)}. Clear one of them."
                    )
            # points named after a preset's cards; a custom sheet's are just counted
            kept_takers = takers if len(takers) == self.view.rules.points_per_hand else None
        elif any(points is not None for points in typed):
            made = tuple(points or 0 for points in typed)
            kept_takers = None
        else:
            raise ValidationError(
                "Tap the side that took each point, or type the points each side made."
            )
        try:
            ledger.check_hand(
                ledger.Hand(bidder=bidder, bid=bid, made=made),
                index=0,
                sides=sides,
                rules=self.view.rules,
            )
        except ledger.ImpossibleHand as error:
            raise ValidationError(error.reason[:1].upper() + error.reason[1:] + ".") from error
        cleaned["hand"] = HandInput(
            bidder=bidder, bid=bid, made=made, takers=kept_takers, bidder_seat=bidder_seat
        )
        return cleaned


def _spell(made: tuple[int, ...]) -> str:
    return " · ".join(str(points) for points in made)


def hand_initial(hand, view: SheetView) -> dict:
    """The form's starting values for editing ``hand``."""
    initial = {"revision": hand.revision, "bid": hand.bid}
    if view.seats and hand.bidder_seat is not None:
        initial["bidder"] = f"seat-{hand.bidder_seat}"
    elif not view.seats:
        initial["bidder"] = f"side-{hand.bidder}"
    if hand.takers is not None:
        for i, taker in enumerate(hand.takers):
            initial[f"point_{i}"] = "" if taker is None else str(taker)
    else:
        for side, points in enumerate(hand.made):
            initial[f"made_{side}"] = points
    return initial


class JoinForm(forms.Form):
    code = forms.CharField(
        label="Invite code",
        max_length=20,  # ten characters, as typed with spaces or dashes
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )
