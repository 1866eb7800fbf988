"""Players' Glicko-2 ratings from finished matches, one rating per table size.

A finished match is one rating period for each signed-in player at it. Their opponents are
the seats of the other units: people at their ratings before the match, bots at a fixed
anchor (a bot is never rated by people's matches), guests not at all
(nobody knows how strong a guest is). Units are ranked by the match: the winner first,
then by the final score; against each opponent a player scores 1 for a unit ranked above
theirs, a half for the same rank, 0 below. Partners are not opponents.

A bot's anchor is its level's rating on the bots' ladder (``game.players.ladder``) at the
table's preset and size, with the ladder's deviation; a level the ladder has not rated
there counts at ``BOT_ANCHORS`` (the arena's older measure, on the same scale: greedy at
1500), and a level in neither counts as a guest.

A match is rated when its last move is stored (``heard``, a listener of ``game.live.events``),
once (a ``RatedMatch`` row per table, made in the same transaction as the new ratings).
``ratings_settle``, run with the scheduled ``prune_tables``, rates any finished match that
missed that moment (a process that ended between the commit and the rating), oldest first.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from game.bots import ABOUT_LEVELS
from game.engine import variants
from game.live import events, store
from game.models import PlayerRating, Profile, RatedMatch, RatingChange, Seat, Table
from game.players import glicko, ladder

# The bots' fixed ratings, measured by the arena (the commands and figures are in
# docs/playing.md and bench/RESULTS.md): greedy anchors the scale at 1500; random and
# expert sit where their share of wins against greedy puts them,
# d = 400 log10(p / (1 - p)), with p = (wins + 2) / (matches + 4) so that a clean sweep
# still gives a finite gap (greedy beat random in 195 of 200 fair 2v2 matches to 11:
# p 0.966, d 580; the expert beat greedy in 60 of 60: p 0.969, d 597, a gap the arena
# could only bound from below). A level not here (expert-v1) counts as a guest.
BOT_ANCHORS = {"random": 920.0, "greedy": 1500.0, "expert": 2097.0}
# an anchor is treated as well known: its deviation is small and never grows
ANCHOR_DEVIATION = 30.0
# a rating period lasts a day: a rating idle for days grows less certain, as the trainer's
RATING_PERIOD = timedelta(days=1)
# the leaderboards list opted-in players with at least this many rated matches at a size
LEADERBOARD_MIN_MATCHES = 5
LEADERBOARD_SIZE = 50
logger = logging.getLogger(__name__)


def anchor(level: str) -> glicko.Rating:
    """A level's fixed anchor, where the ladder has not rated it."""
    return glicko.Rating(BOT_ANCHORS[level], ANCHOR_DEVIATION, glicko.DEFAULT_VOLATILITY)


def anchors_for(*, preset: str, players: int) -> dict[str, glicko.Rating]:
    """Each bot level's anchor at a table of this preset and size: the ladder's rating
    where it has one, else the fixed one."""
    fixed = {level: anchor(level) for level in BOT_ANCHORS}
    return {**fixed, **ladder.ratings_at(preset=preset, players=players)}


def unit_ranks(winner: int, scores: tuple[int, ...]) -> list[int]:
    """Each unit's rank in the match, 0 the best: the winner, then by the final score."""
    keyed = [(0 if unit == winner else 1, -score) for unit, score in enumerate(scores)]
    return [sorted(set(keyed)).index(key) for key in keyed]


def score_against(my_rank: int, their_rank: int) -> float:
    if my_rank == their_rank:
        return 0.5
    return 1.0 if my_rank < their_rank else 0.0


@dataclass(frozen=True)
class Opponent:
    rating: glicko.Rating
    unit: int


def heard(event: events.TableChanged | events.TableOpened) -> None:
    """A listener of ``game.live.events``: a change after which nobody is to act may be a match's
    last move; that match is rated now. A rating that fails is left to ``ratings_settle``:
    the move it follows is stored and announced whatever happens here."""
    if not isinstance(event, events.TableChanged) or event.next is not events.Next.NOBODY:
        return
    finished = Table.objects.filter(
        pk=event.table_id, status=Table.Status.FINISHED, rated__isnull=True
    ).first()
    if finished is None:
        return
    try:
        match_rate(table=finished)
    except Exception:
        logger.exception("rating the match at table %s", event.table_id)


def ratings_settle(*, now: datetime | None = None) -> int:
    """Rate every finished match that is not rated yet, oldest first; how many were rated."""
    pending = (
        Table.objects.filter(status=Table.Status.FINISHED, rated__isnull=True)
        .annotate(finished=Max("actions__created"))
        .order_by("finished", "pk")
    )
    rated = 0
    for table in pending:
        rated += match_rate(table=table, now=now)
    return rated


def match_rate(*, table: Table, now: datetime | None = None) -> bool:
    """Rate one finished match; False when it was rated already (by another process too)."""
    now = now or timezone.now()
    match = store.match_for_table(table)
    if not match.is_terminal():
        return False
    seats = list(table.seats.all())
    ranks = unit_ranks(match.winner, match.scores)
    unit_of = match.setup.unit_of
    anchors = anchors_for(preset=match.setup.rules.preset, players=table.players)
    try:
        with transaction.atomic():
            RatedMatch.objects.create(table=table)
            people = [seat for seat in seats if seat.user_id is not None]
            current = _ratings(table.players, [seat.user_id for seat in people], now)
            opponents = {seat.number: _opponent(seat, unit_of, current, anchors) for seat in seats}
            for seat in people:
                mine = unit_of[seat.number]
                results = [
                    glicko.Result(o.rating, score_against(ranks[mine], ranks[o.unit]))
                    for number, o in opponents.items()
                    if o is not None and o.unit != mine
                ]
                _store(table, seat.user_id, current[seat.user_id], results, now)
    except IntegrityError:
        return False  # rated meanwhile
    return True


def _opponent(seat: Seat, unit_of, current: dict, anchors: dict) -> Opponent | None:
    unit = unit_of[seat.number]
    if seat.user_id is not None:
        return Opponent(current[seat.user_id].glicko, unit)
    if seat.bot_level in anchors:
        return Opponent(anchors[seat.bot_level], unit)
    return None  # a guest


def _ratings(players: int, user_ids: list[int], now: datetime) -> dict[int, PlayerRating]:
    """Each user's rating at this size, locked, made on first need, grown for idle days."""
    found = {
        r.user_id: r
        for r in PlayerRating.objects.select_for_update().filter(
            players=players, user_id__in=user_ids
        )
    }
    for user_id in user_ids:
        if user_id not in found:
            found[user_id] = PlayerRating(
                user_id=user_id,
                players=players,
                rating=glicko.DEFAULT_RATING,
                deviation=glicko.DEFAULT_DEVIATION,
                volatility=glicko.DEFAULT_VOLATILITY,
                rated_at=now,
            )
    for rating in found.values():
        idle = glicko.after_idle(_glicko(rating), (now - rating.rated_at) / RATING_PERIOD)
        rating.glicko = idle
    return found


def _glicko(rating: PlayerRating) -> glicko.Rating:
    return glicko.Rating(rating.rating, rating.deviation, rating.volatility)


def _store(table, user_id, rating: PlayerRating, results, now) -> None:
    before = rating.rating
    after = glicko.rate(rating.glicko, results)
    rating.rating, rating.deviation, rating.volatility = (
        after.rating,
        after.deviation,
        after.volatility,
    )
    rating.matches += 1
    rating.rated_at = now
    rating.save()
    RatingChange.objects.create(
        table=table,
        user_id=user_id,
        players=table.players,
        before=before,
        after=after.rating,
        deviation=after.deviation,
        rated_at=now,
    )


# --- Reading ----------------------------------------------------------------------------


def ratings_for(*, user_id: int) -> list[PlayerRating]:
    return list(PlayerRating.objects.filter(user_id=user_id))


def rating_history(*, user_id: int, players: int) -> list[float]:
    """The rating after each rated match at this size, oldest first."""
    changes = RatingChange.objects.filter(user_id=user_id, players=players)
    values = list(changes.values_list("after", flat=True))
    first = changes.values_list("before", flat=True).first()
    return ([first] if first is not None else []) + values


@dataclass(frozen=True)
class SeatRating:
    name: str
    rating: int | None  # None: a guest, or a player not rated at this size yet
    bot: bool


def table_ratings(*, table: Table) -> list[SeatRating]:
    """Each seat's rating at this table's size, seat by seat: what the table page shows."""
    seats = list(table.seats.all())
    user_ids = [s.user_id for s in seats if s.user_id is not None]
    known = dict(
        PlayerRating.objects.filter(players=table.players, user_id__in=user_ids).values_list(
            "user_id", "rating"
        )
    )
    anchors = anchors_for(preset=variants.from_record(table.rules).preset, players=table.players)
    lines = []
    for seat in seats:
        if seat.bot_level in anchors:
            value = anchors[seat.bot_level].rating
        else:
            value = known.get(seat.user_id)
        lines.append(SeatRating(seat.display_name, _shown(value), seat.bot_level is not None))
    return lines


def _shown(value: float | None) -> int | None:
    return None if value is None else round(value)


@dataclass(frozen=True)
class Leader:
    name: str
    rating: int
    deviation: int
    matches: int


def leaderboard(*, players: int, limit: int = LEADERBOARD_SIZE) -> list[Leader]:
    """Opted-in players rated at this size after enough matches, best first."""
    opted = Profile.objects.filter(on_leaderboard=True).values("user_id")
    rows = (
        PlayerRating.objects.filter(
            players=players, matches__gte=LEADERBOARD_MIN_MATCHES, user_id__in=opted
        )
        .select_related("user__profile")
        .order_by("-rating", "pk")[:limit]
    )
    return [
        Leader(r.user.profile.display_name, round(r.rating), round(r.deviation), r.matches)
        for r in rows
    ]


@dataclass(frozen=True)
class BotAnchor:
    level: str
    name: str
    rating: int
    half_width: int  # of its 95% interval


# a leaderboard shows the bots as the ladder rated them at one preset of its size:
# the first of these the ladder played at that size
ANCHOR_PRESETS = ("house", "classic", "seven_point", "six_handed")


def bot_anchors(*, players: int) -> tuple[str | None, list[BotAnchor]]:
    """The offered levels as a leaderboard at this size shows them, strongest first, and
    the preset the ladder rated them at (None: the fixed anchors, the ladder not run)."""
    for preset in ANCHOR_PRESETS:
        measured = ladder.ratings_at(preset=preset, players=players)
        if measured:
            return preset, _anchor_rows(measured)
    return None, fixed_anchors()


def fixed_anchors() -> list[BotAnchor]:
    """The offered levels that count at a fixed rating where the ladder has not rated them."""
    return _anchor_rows({level: anchor(level) for level in BOT_ANCHORS})


def _anchor_rows(anchors: dict[str, glicko.Rating]) -> list[BotAnchor]:
    rows = [
        BotAnchor(level, ABOUT_LEVELS[level][0], round(r.rating), round(r.half_width95))
        for level, r in anchors.items()
        if level in ABOUT_LEVELS
    ]
    return sorted(rows, key=lambda row: -row.rating)
