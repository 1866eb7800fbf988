from django.conf import settings
from django.db import models

from game.engine.variants import DEFAULT_TARGET
from smearsite.kernel import CODE_MAX_LENGTH

DISPLAY_NAME_MAX_LENGTH = 40


class Profile(models.Model):
    """What a player shows the table: one per user, created with the account.

    Later issues add stats, ratings and the supporter badge here.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(max_length=DISPLAY_NAME_MAX_LENGTH)
    # game.players.names.name_key(display_name): two players may not look alike at a table
    name_key = models.CharField(max_length=4 * DISPLAY_NAME_MAX_LENGTH, unique=True, null=True)
    # listed on the leaderboards (game.players.ratings), once enough matches are rated
    on_leaderboard = models.BooleanField(default=False)
    # how they like the table drawn (game.players.table_prefs), brought into the session at log-in;
    # None until they first save them
    table_prefs = models.JSONField(null=True, blank=True, default=None)
    # the game chosen for their last new table (game.players.table_prefs.RULES_KEY), offered again
    table_rules = models.JSONField(null=True, blank=True, default=None)

    def __str__(self) -> str:
        return self.display_name


# --- Live tables ----------------------------------------------------------------------
# A table's state is its deals plus its actions: the true match is rebuilt by replaying
# them through the engine (game.live.store.match_for_table). Nothing derived from a
# seat's cards is stored anywhere else.


def house_rules() -> str:
    """A table's rules unless it says otherwise (every table made before variants)."""
    return "house"


class Table(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        CLOSED = "closed", "Closed by the host"  # before it started

    code = models.CharField(max_length=CODE_MAX_LENGTH, unique=True)  # the share code
    players = models.PositiveSmallIntegerField()
    teams = models.JSONField()  # the scoring units: a partition of the seats
    target = models.PositiveSmallIntegerField(default=DEFAULT_TARGET)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.LOBBY)
    first_dealer = models.PositiveSmallIntegerField(default=0)
    # bumped with every stored action: the rebuilt match of a table is cached by it
    moves = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hosted_tables",
    )
    # where the same seats went on to play again, once someone asked for a rematch
    rematch = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )
    # listed on the open tables page; a private table is reached by its code alone
    public = models.BooleanField(default=False)
    # the table's rules as a game record names them (``Rules.to_record()``): a preset's
    # name, or the preset and the options that differ; every table before variants is "house"
    rules = models.JSONField(default=house_rules)
    # the host may turn the table's chat off (game.services.chat); it is on by default
    chat_on = models.BooleanField(default=True)
    # when a bots' timetable should next look at the table (a bot's move due, a person's
    # countdown to check), whichever server process is alive: one that is overdue is
    # taken by another process (game.live.look_due); None while nobody is to act
    look_at = models.DateTimeField(null=True, blank=True, db_index=True)

    def __str__(self) -> str:
        return f"Table {self.code}"

    @property
    def dealt(self) -> bool:
        """Cards are on the table: it is playing or finished, not a lobby (open or closed)."""
        return self.status in (self.Status.PLAYING, self.Status.FINISHED)


class Seat(models.Model):
    """Who sits in a seat: a user, a guest (by session key) or a bot of some level."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    session_key = models.CharField(max_length=40, null=True, blank=True)
    bot_level = models.CharField(max_length=16, null=True, blank=True)
    display_name = models.CharField(max_length=DISPLAY_NAME_MAX_LENGTH)
    # set when a bot stood in for a person gone on their turn; cleared when they return
    away_since = models.DateTimeField(null=True, blank=True)
    # the table's version (Table.moves) at which this person's page last showed them their
    # turn, and when: their away countdown runs from then (game.live.presence)
    shown_version = models.PositiveIntegerField(null=True, blank=True)
    shown_at = models.DateTimeField(null=True, blank=True)
    # when this person's page was last heard from over its socket
    heard_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.table.code} seat {self.number}: {self.display_name}"


class ChatLine(models.Model):
    """One line of a table's chat (``game.services.chat``): never part of the game record,
    and deleted with the table. The players talk in their room; the spectators in a room
    of their own, which the players never see (no hints from the rail)."""

    class Room(models.TextChoices):
        PLAYERS = "players", "Players"
        SPECTATORS = "spectators", "Spectators"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_lines")
    room = models.CharField(max_length=10, choices=Room.choices)
    # who said it, as the table shows them; ``author`` tells people apart for muting
    # ("seat-2", or "watcher-" and a digest of the spectator), never who they are
    author = models.CharField(max_length=24)
    name = models.CharField(max_length=DISPLAY_NAME_MAX_LENGTH)
    text = models.CharField(max_length=200)
    said_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        indexes = [models.Index(fields=["table", "room", "id"], name="chat_line_room")]

    def __str__(self) -> str:
        return f"{self.table_id} {self.room}: {self.name}: {self.text[:20]}"


class Round(models.Model):
    """The chance event of one round: the dealer, each seat's cards and the hidden rest, as
    card codes; the hidden rest in pack order, top first (a fill deals from its front)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField()
    hands = models.JSONField()
    hidden = models.JSONField()

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="round_unique_number"),
        ]


class ActionLog(models.Model):
    """One bid, pass, card, trump or discard, in order within its round, spelled as the game
    record spells it (``bid:3``, ``pass``, ``10H``, ``trump:S``, ``discard:9H,3C``); the
    unique index makes a repeated submission of the same move apply once."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    round = models.PositiveSmallIntegerField()
    index = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    # the longest is a discard: a dealer who took the pack may throw some twenty cards
    action = models.CharField(max_length=128)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "index"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "round", "index"], name="action_unique_position"
            ),
        ]


# --- Ratings (game.players.ratings) -------------------------------------------------------------
# A finished match is one Glicko-2 rating period for every signed-in player at it, against
# the other units' players; a bot is a fixed anchor and is never rated.


class PlayerRating(models.Model):
    """A player's rating at one table size."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    players = models.PositiveSmallIntegerField()
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    matches = models.PositiveIntegerField(default=0)
    rated_at = models.DateTimeField()

    class Meta:
        ordering = ["players"]
        constraints = [
            models.UniqueConstraint(fields=["user", "players"], name="rating_unique_size"),
        ]


class RatedMatch(models.Model):
    """A finished table whose result is in the ratings: each is rated once."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="rated")
    rated_at = models.DateTimeField(auto_now_add=True)


class RatingChange(models.Model):
    """What one rated match did to one player's rating (the history and its chart)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    players = models.PositiveSmallIntegerField()
    before = models.FloatField()
    after = models.FloatField()
    deviation = models.FloatField()  # after the match
    rated_at = models.DateTimeField()

    class Meta:
        ordering = ["rated_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="rating_change_unique"),
        ]


class LadderResult(models.Model):
    """One match of the bots' ladder (``game.offline.ladder``), stored as it ends: a ladder
    resumes from these and never plays a stored match again."""

    key = models.CharField(max_length=120, unique=True)  # its place in the schedule
    preset = models.CharField(max_length=20)
    target = models.PositiveSmallIntegerField()
    round = models.PositiveIntegerField()  # the schedule's round: one rating period
    side0 = models.CharField(max_length=20)  # the level of each side
    side1 = models.CharField(max_length=20)
    winner = models.PositiveSmallIntegerField(null=True)  # the side; None: called off
    rounds = models.PositiveSmallIntegerField()  # the rounds (hands) the match lasted
    played_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "pk"]
        indexes = [models.Index(fields=["preset", "target"], name="ladder_result_run")]


class LadderRating(models.Model):
    """A level's rating on the ladder at one preset, as of its last stored match: the bots
    page shows it, and rated matches against that level count against it."""

    preset = models.CharField(max_length=20)
    players = models.PositiveSmallIntegerField()  # the table size the ladder plays it at
    target = models.PositiveSmallIntegerField()
    level = models.CharField(max_length=20)
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    matches = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    rated_at = models.DateTimeField()

    class Meta:
        ordering = ["preset", "-rating"]
        constraints = [
            models.UniqueConstraint(fields=["preset", "level"], name="ladder_rating_unique"),
        ]
