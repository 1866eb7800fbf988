"""What the trainer stores: positions of the bank, learners, attempts and missed positions.

A position's analysis is data computed once by ``learn.core.positions`` and stored as its
JSON; the database adds only what changes as people practise: ratings, attempts and
the missed positions due to come back. ``data`` holds the true deal of every seat, so
pages never render it: they render ``position.core.view()``, the seat's view alone.

Two kinds of row are named for what they hold: a ``PracticePosition`` is a position the
trainer serves (its analysis is a ``learn.core.positions.AnalysedPosition``), a
``MissedPosition`` one a learner missed and is due to see again; the review of a
player's own round is a ``RoundReview``.
"""

from __future__ import annotations

import secrets
from functools import cached_property

from django.conf import settings
from django.db import models

from game.players import glicko
from learn.core import positions as core_positions
from learn.core.positions import PHASES

ATTEMPT_TOKEN_BYTES = 12
GUEST_TOKEN_MAX_LENGTH = 64


def new_attempt_token() -> str:
    return secrets.token_urlsafe(ATTEMPT_TOKEN_BYTES)


class PracticePosition(models.Model):
    """A position the trainer serves: one of the bank's, or a learner's own from the review
    of their round. Keyed by its stable key; its analysis never changes."""

    key = models.CharField(max_length=32, unique=True)
    data = models.JSONField()  # AnalysedPosition.to_json(): the record prefix, seat and analysis
    phase = models.CharField(max_length=10, choices=[(p, p) for p in PHASES])
    players = models.PositiveSmallIntegerField()
    # the game of the position's table (game.engine.variants.PRESETS), from its record
    preset = models.CharField(max_length=20, default="house")
    # the theme slugs between commas (",joker,low,"): a portable "has this theme" filter
    theme_tags = models.CharField(max_length=300, blank=True, default="")
    # where in the round the decision falls, for lessons that need a kind of position
    tricks = models.PositiveSmallIntegerField(default=0)  # finished before the decision
    barred = models.PositiveSmallIntegerField(default=0)  # cards held that may not be played
    # the position's own Glicko-2 rating: it "wins" when a learner misses it
    rating = models.FloatField(default=glicko.DEFAULT_RATING)
    deviation = models.FloatField(default=glicko.DEFAULT_DEVIATION)
    volatility = models.FloatField(default=glicko.DEFAULT_VOLATILITY)
    rated_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)  # rated and unrated answers
    solved = models.PositiveIntegerField(default=0)  # of which right
    created_at = models.DateTimeField(auto_now_add=True)
    # a decision from a learner's own round ("Practise this"): served to them alone, through
    # their missed positions, never to anyone else
    # its analysis is public (shipped in the repository's starter bank, readable by
    # anyone before answering): practised, never rated
    published = models.BooleanField(default=False)
    owner = models.ForeignKey(
        "Learner", null=True, blank=True, on_delete=models.CASCADE, related_name="own_positions"
    )

    class Meta:
        ordering = ["pk"]
        indexes = [
            models.Index(fields=["phase", "players", "rating"]),
            models.Index(fields=["preset", "rating"], name="learn_position_preset_rating"),
        ]

    def __str__(self) -> str:
        return f"{self.phase} position {self.key}"

    @cached_property
    def core(self) -> core_positions.AnalysedPosition:
        """The position as ``learn.core.positions`` reads it: its view, options and themes."""
        return core_positions.AnalysedPosition.from_json(self.data)

    @property
    def themes(self) -> list[str]:
        return [slug for slug in self.theme_tags.split(",") if slug]

    @property
    def glicko(self) -> glicko.Rating:
        return glicko.Rating(self.rating, self.deviation, self.volatility)

    @staticmethod
    def tags_for(themes) -> str:
        return "," + ",".join(themes) + "," if themes else ""


class Learner(models.Model):
    """Someone practising: a user, or a guest known by the token their session keeps."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="learner",
    )
    guest_token = models.CharField(
        max_length=GUEST_TOKEN_MAX_LENGTH, null=True, blank=True, unique=True
    )
    rating = models.FloatField(default=glicko.DEFAULT_RATING)
    deviation = models.FloatField(default=glicko.DEFAULT_DEVIATION)
    volatility = models.FloatField(default=glicko.DEFAULT_VOLATILITY)
    rated_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # the game they practise (a preset's name; blank: any), kept from one visit to the next
    preset = models.CharField(max_length=20, blank=True, default="")

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | models.Q(guest_token__isnull=False),
                name="learner_is_someone",
            )
        ]

    def __str__(self) -> str:
        return f"learner {self.pk} ({'user ' + str(self.user_id) if self.user_id else 'guest'})"

    @property
    def glicko(self) -> glicko.Rating:
        return glicko.Rating(self.rating, self.deviation, self.volatility)


class Attempt(models.Model):
    """A position served to a learner, then (once) answered."""

    class Mode(models.TextChoices):
        PRACTICE = "practice", "practice"
        TUTORIAL = "tutorial", "tutorial"

    class Unrated(models.TextChoices):
        """Why an attempt does not count toward a rating, in the words the page says."""

        TUTORIAL = "tutorial", "lesson positions are never rated"
        UNRATED_MODE = "unrated_mode", "you chose unrated practice"
        BY_ADDRESS = (
            "by_address",
            ("you opened this position by its address, where its answer may have been read"),
        )
        OWN_REVIEW = (
            "own_review",
            ("it comes from the review of your own round, which showed you its best answer"),
        )
        PUBLISHED = (
            "published",
            (
                "it is a starter position, whose answer anyone can read in the site's source; "
                "rated positions of this kind are still being prepared"
            ),
        )
        SEEN = "seen", "you have met this position before"
        ANSWERED = "answered", "you answered this position already, in another tab or page"
        THIN = (
            "thin",
            (
                "your discard was not one the expert had priced, and too few deals could be "
                "priced in time to rate it"
            ),
        )

    token = models.CharField(max_length=32, unique=True, default=new_attempt_token)
    learner = models.ForeignKey(Learner, on_delete=models.CASCADE, related_name="attempts")
    position = models.ForeignKey(
        PracticePosition, on_delete=models.CASCADE, related_name="attempt_set"
    )
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.PRACTICE)
    lesson = models.CharField(max_length=40, blank=True, default="")
    # decided when served: a forged form field cannot turn an unrated attempt into a rated one
    rated = models.BooleanField(default=True)
    unrated_reason = models.CharField(
        max_length=16, blank=True, default="", choices=Unrated.choices
    )
    served_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    # an action code: a discard names every card it throws (17 at the six-handed dealer's)
    answer = models.CharField(max_length=80, blank=True, default="")
    # a discard the analysis had not priced, as it was priced when answered
    # (learn.core.discards.Afresh): the reveal shows the figures the grade was made on
    priced = models.JSONField(null=True, blank=True, default=None)
    correct = models.BooleanField(null=True)
    # the learner's rating around this answer (equal when unrated) and the position's
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)
    deviation_after = models.FloatField(null=True, blank=True)
    position_rating_before = models.FloatField(null=True, blank=True)
    position_rating_after = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["-served_at", "-pk"]
        indexes = [models.Index(fields=["learner", "answered_at"])]

    def __str__(self) -> str:
        return f"attempt {self.pk} at {self.position_id} by {self.learner_id}"

    @property
    def is_answered(self) -> bool:
        return self.answered_at is not None

    @property
    def in_lesson(self) -> bool:
        """Served to practise a tutorial lesson (``lesson`` names it)."""
        return self.mode == self.Mode.TUTORIAL and bool(self.lesson)

    @property
    def rating_change(self) -> float | None:
        if self.rating_before is None or self.rating_after is None:
            return None
        return self.rating_after - self.rating_before


class MissedPosition(models.Model):
    """A position the learner missed: it comes back once due, until they solve it."""

    learner = models.ForeignKey(Learner, on_delete=models.CASCADE, related_name="missed")
    position = models.ForeignKey(PracticePosition, on_delete=models.CASCADE, related_name="missed")
    misses = models.PositiveIntegerField(default=1)
    due_at = models.DateTimeField()
    missed_at = models.DateTimeField()
    solved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["due_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["learner", "position"], name="review_unique")
        ]

    def __str__(self) -> str:
        return f"review of {self.position_id} for {self.learner_id}"


class RoundReview(models.Model):
    """The expert's review of one seat's decisions in one finished round of a live table.

    Worked in the background (``learn.round_review.tasks``): a worker holds the review by a
    lease that it renews after each decision, and stores each decision's analysis as it
    goes, so that a worker killed mid-review leaves the rest to the next one, and none is
    done twice.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting for a worker"
        RUNNING = "running", "Being analysed"
        DONE = "done", "Done"

    table = models.ForeignKey("game.Table", on_delete=models.CASCADE, related_name="reviews")
    round = models.PositiveSmallIntegerField()  # 0-based, as ActionLog counts
    seat = models.PositiveSmallIntegerField()
    # who asked ("user:7", "guest:<token>"): a person may have only a few reviews waiting
    requested_by = models.CharField(max_length=80, blank=True, default="")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveSmallIntegerField(null=True, blank=True)  # decisions to analyse
    # learn.round_review.decisions.Decision.to_json() of each decision, in order
    decisions = models.JSONField(default=list)
    worker = models.CharField(max_length=32, blank=True, default="")
    lease_until = models.DateTimeField(null=True, blank=True)
    enqueued_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "round", "seat"], name="round_review_unique_seat"
            )
        ]

    def __str__(self) -> str:
        return f"review of table {self.table_id} round {self.round} seat {self.seat}"

    @property
    def done(self) -> int:
        return len(self.decisions)


class WorkerBeat(models.Model):
    """A review worker's heartbeat (``learn.round_review.worker``): the review page says
    when no worker has been heard from lately."""

    name = models.CharField(max_length=64, unique=True)  # host and process id
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"worker {self.name} seen {self.seen_at:%H:%M:%S}"


class BoardAnswer(models.Model):
    """An answer of the analysis board (``learn.analysis_board``), worked out once on the
    task queue and kept: the expert's for one seat's view, or the exact table for one
    whole board. ``key`` is the answer's whole question (``answers.view_key`` or
    ``answers.exact_key``: the position as the seat sees it, or every hand, with the
    expert's or the solver's version), so an answer is found only by asking the same
    question again, and a hand typed in never reaches a board that did not give it."""

    class Kind(models.TextChoices):
        EXPERT = "expert", "The expert's answer"
        EXACT = "exact", "The exact table"

    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting for a worker"
        RUNNING = "running", "Being worked out"
        DONE = "done", "Done"
        FAILED = "failed", "Could not be worked out"

    key = models.CharField(max_length=64, unique=True)
    kind = models.CharField(max_length=6, choices=Kind.choices)
    # the board asked first, in game.engine.board_notation
    notation = models.CharField(max_length=1200)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    answer = models.JSONField(null=True, blank=True)  # answers.expert_answer / exact_answer
    error = models.CharField(max_length=300, blank=True, default="")
    # who asked (a hash of the address): a visitor may have only a few answers waiting
    requested_by = models.CharField(max_length=64, blank=True, default="")
    # the table's player count, for how long answers at that size take
    # (``selectors.recent_seconds``); 0 on answers stored before it was kept
    players = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.kind} answer {self.key[:12]} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)
