"""What a score sheet stores: the sheet and its rules, its sides, members and hands.

A sheet belongs to people, each a user or a guest: a guest is known by the token kept in
its browser's session (``game.players.identity``), and what a guest made or joined becomes
the user's when that browser signs up or logs in (``services.sheets_claim``).

Entries, debts, totals and standings are never stored: ``scoresheet.ledger`` folds
them from the hands each time, so editing a hand replays everything after it. Every
change to a sheet is kept in ``Change`` with what it replaced, so it can be undone.
"""

import secrets

from django.conf import settings
from django.db import models

from scoresheet import ledger
from smearsite.kernel import CODE_MAX_LENGTH, new_share_code

NAME_MAX_LENGTH = 40
TITLE_MAX_LENGTH = 80
GUEST_TOKEN_MAX_LENGTH = 40


def new_invite_code() -> str:
    return new_share_code()


def new_watch_token() -> str:
    return secrets.token_urlsafe(18)


class Sheet(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "in play"
        ENDED = "ended", "banked"
        STRUCK = "struck", "struck"

    title = models.CharField(max_length=TITLE_MAX_LENGTH, blank=True)
    # a user, or else the guest (by the token of its session) who made the sheet
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="created_sheets",
    )
    creator_guest = models.CharField(
        max_length=GUEST_TOKEN_MAX_LENGTH, null=True, blank=True, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    preset = models.CharField(max_length=20, default="classic")
    target = models.PositiveSmallIntegerField()
    points_per_hand = models.PositiveSmallIntegerField()
    min_bid = models.PositiveSmallIntegerField()
    max_bid = models.PositiveSmallIntegerField()
    missed_bid = models.CharField(
        max_length=10, choices=[(mode, mode) for mode in ledger.MISSED_BID_MODES]
    )
    bidder_only_out = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # how many hands were ever entered: a new hand takes the next number, and numbers
    # are never reused, so a deleted hand can always come back in its place
    hands_entered = models.PositiveIntegerField(default=0)
    invite_code = models.CharField(max_length=CODE_MAX_LENGTH, unique=True)
    watch_token = models.CharField(max_length=32, unique=True)
    # one rematch per match, even when two members tap Rematch at once
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )

    class Meta:
        ordering = ["-updated_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(creator__isnull=False) | models.Q(creator_guest__isnull=False),
                name="sheet_has_a_creator",
            )
        ]

    def __str__(self) -> str:
        return self.title or f"Sheet {self.pk}"

    @property
    def rules(self) -> ledger.Rules:
        return ledger.Rules(
            target=self.target,
            points_per_hand=self.points_per_hand,
            min_bid=self.min_bid,
            max_bid=self.max_bid,
            missed_bid=self.missed_bid,
            bidder_only_out=self.bidder_only_out,
        )

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class Side(models.Model):
    """A scoring side: a team or a single player. ``position`` counts from 0, as in the ledger."""

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="sides")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=NAME_MAX_LENGTH)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "position"], name="side_position_unique")
        ]

    def __str__(self) -> str:
        return self.name


class Seat(models.Model):
    """A player in seating order (optional): moves the dealer marker, names the bidder."""

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    side = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "position"], name="seat_position_unique")
        ]

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    """A person who may enter hands on the sheet and end the match: a user, or a guest by
    its session's token (the user's once that browser signs in)."""

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="sheet_memberships",
    )
    guest_token = models.CharField(
        max_length=GUEST_TOKEN_MAX_LENGTH, null=True, blank=True, db_index=True
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "user"], name="member_unique"),
            models.UniqueConstraint(fields=["sheet", "guest_token"], name="guest_member_unique"),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | models.Q(guest_token__isnull=False),
                name="member_is_someone",
            ),
        ]


class Hand(models.Model):
    """One hand as the table entered it. Its place on the sheet is the order of ``number``."""

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    bidder = models.PositiveSmallIntegerField()  # the bidding side's position
    bidder_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    bid = models.PositiveSmallIntegerField()
    made = models.JSONField()  # points made, one int per side
    # the side that took each named point, or None; null when the totals were typed
    takers = models.JSONField(null=True, blank=True)
    # bumped by every change: an edit made from an older copy is refused
    revision = models.PositiveIntegerField(default=1)
    # made by the phone that entered the hand: a hand sent twice (a retry, a phone back
    # online) is found by it and never stored twice
    client_id = models.UUIDField(null=True, blank=True, unique=True)
    # the number the phone showed when the hand was kept on it without a network; another
    # number here means another phone entered a hand in its place first (a possible double)
    entered_as = models.PositiveIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            # two members entering the same hand at once cannot both create it
            models.UniqueConstraint(fields=["sheet", "number"], name="hand_number_unique")
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of sheet {self.sheet_id}"

    @property
    def clashed(self) -> bool:
        """Kept on a phone offline as a number that another hand took first."""
        return self.entered_as is not None and self.entered_as != self.number

    def to_ledger(self) -> ledger.Hand:
        return ledger.Hand(bidder=self.bidder, bid=self.bid, made=tuple(self.made))

    def snapshot(self) -> dict:
        """What the history keeps of this hand, enough to put it back as it was."""
        return {
            "number": self.number,
            "bidder": self.bidder,
            "bidder_seat": self.bidder_seat,
            "bid": self.bid,
            "made": list(self.made),
            "takers": None if self.takers is None else list(self.takers),
        }


class Change(models.Model):
    """One change to a sheet, with the state it replaced: nothing entered is ever lost."""

    class Kind(models.TextChoices):
        ADD = "add", "entered"
        EDIT = "edit", "edited"
        DELETE = "delete", "deleted"
        END = "end", "ended the match"
        STRIKE = "strike", "struck the match"
        UNDO = "undo", "undid"

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # the hand changed; null for a change of the sheet's status (end, strike)
    hand_number = models.PositiveIntegerField(null=True, blank=True)
    # a hand's snapshot, or {"status": ...}; null where there was none (before an add)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    # one undo per change, even when two members tap Undo at once
    undoes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="undone_by"
    )

    class Meta:
        ordering = ["-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} on sheet {self.sheet_id}"
