"""The bots' ladder, stored: its results as each match ends, the levels' ratings after
them, and those ratings read back as the anchors of the players' ratings.

The schedule, the matches and the rating fold are ``game.offline.ladder`` (pure); here
they are played locally (``--workers`` processes) or on the task queue (``ladder_play``,
worked by ``manage.py review_worker`` one match a task, each queueing the next, at a
priority below the reviews and the trainer's stock), and kept: a run resumes where the
stored results stop, never replaying a match.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, connections, transaction
from django.db.models import Q
from django.utils import timezone
from django_tasks import task

from game.bots import ABOUT_LEVELS
from game.engine import variants
from game.engine.notation import PRESET_NAMES
from game.models import LadderRating, LadderResult
from game.offline import ladder
from game.players import glicko

# the task queue works reviews (0) and the trainer's stock (-50) first
PRIORITY = -80
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Progress:
    """What a run reports after each stored match."""

    preset: str
    done: int  # matches of this run's schedule stored, this one included
    total: int
    result: ladder.Result
    standings: list[ladder.Standing]


def ladder_run(
    *,
    presets: Sequence[str],
    levels: Sequence[str] = ladder.LEVELS,
    rounds: int,
    target: int | None = None,
    workers: int = 1,
    limit: int | None = None,
    report: Callable[[Progress], None] = lambda progress: None,
) -> int:
    """Play what the schedule (``rounds`` rounds per preset) still lacks, in its order,
    at most ``limit`` matches, storing each match as it ends and the ratings after it;
    how many matches were played."""
    played = 0
    for preset in presets:
        if limit is not None and played >= limit:
            break
        goal = target or variants.preset(preset).target
        games = ladder.schedule(levels, preset, goal, rounds)
        stored = set(
            LadderResult.objects.filter(key__in=[g.key for g in games]).values_list(
                "key", flat=True
            )
        )
        todo = [g for g in games if g.key not in stored]
        if limit is not None:
            todo = todo[: limit - played]
        done = len(stored)
        for result in _played(todo, workers):
            if not _store(preset, goal, result):
                continue  # another run stored it meanwhile
            played += 1
            done += 1
            report(Progress(preset, done, len(games), result, ratings_store(preset, goal)))
    return played


def _played(games: list[ladder.LadderGame], workers: int) -> Iterator[ladder.Result]:
    if workers <= 1 or len(games) <= 1:
        yield from map(ladder.play, games)
        return
    connections.close_all()  # the forked workers never touch the database
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for future in as_completed([pool.submit(ladder.play, game) for game in games]):
            yield future.result()


def _store(preset: str, target: int, result: ladder.Result) -> bool:
    try:
        with transaction.atomic():
            LadderResult.objects.create(
                key=result.key,
                preset=preset,
                target=target,
                round=result.round,
                side0=result.lineup[0],
                side1=result.lineup[1],
                winner=result.winner,
                rounds=result.rounds,
            )
    except IntegrityError:
        return False
    return True


def results_for(preset: str, target: int) -> list[ladder.Result]:
    rows = LadderResult.objects.filter(preset=preset, target=target)
    return [ladder.Result(r.key, r.round, (r.side0, r.side1), r.winner, r.rounds) for r in rows]


def ratings_store(preset: str, target: int) -> list[ladder.Standing]:
    """Rate the levels from every stored match of this preset's ladder to ``target``, and
    keep those ratings as the preset's (the ones of any other target are replaced)."""
    results = results_for(preset, target)
    levels = sorted({level for result in results for level in result.lineup})
    rows = ladder.standings(levels, results)
    now = timezone.now()
    players = ladder.players_for(preset)
    with transaction.atomic():
        LadderRating.objects.filter(preset=preset).delete()
        LadderRating.objects.bulk_create(
            LadderRating(
                preset=preset,
                players=players,
                target=target,
                level=row.level,
                rating=row.rating.rating,
                deviation=row.rating.deviation,
                volatility=row.rating.volatility,
                matches=row.matches,
                wins=row.wins,
                rated_at=now,
            )
            for row in rows
        )
    return rows


def results_forget(*, presets: Sequence[str], levels: Sequence[str]) -> int:
    """Forget the stored matches of these levels at these presets, and their ratings (after
    a level is retuned, its old matches measure another player); how many were forgotten.
    The next run plays them again and rates everyone anew."""
    involved = Q(side0__in=levels) | Q(side1__in=levels)
    with transaction.atomic():
        forgotten, _ = LadderResult.objects.filter(involved, preset__in=presets).delete()
        LadderRating.objects.filter(preset__in=presets, level__in=levels).delete()
    return forgotten


@task(priority=PRIORITY)
def ladder_play(presets: list[str], levels: list[str], rounds: int, target: int | None) -> int:
    """One match of the ladder that the schedule still lacks, then the next one queued, as
    the trainer's stock refills: the worker takes any review waiting between two matches,
    and a worker stopped mid-ladder loses one match at most. How many it played (0 once
    the schedule is complete)."""
    played = ladder_run(
        presets=presets, levels=levels, rounds=rounds, target=target, limit=1, report=_logged
    )
    if played:
        ladder_play.enqueue(presets, levels, rounds, target)
    return played


def _logged(progress: Progress) -> None:
    result = progress.result
    logger.info(
        "ladder %s %d/%d: %s, winner %s",
        progress.preset,
        progress.done,
        progress.total,
        " v ".join(result.lineup),
        "none" if result.winner is None else result.lineup[result.winner],
    )


# --- Reading ----------------------------------------------------------------------------


def ladder_summary(
    *, preset: str, target: int | None = None
) -> tuple[list[ladder.Standing], list[ladder.Pair]]:
    """The preset's ladder to ``target`` (the preset's own unless given) as rated from every
    stored match, and each pair's share beside the one the ratings predict."""
    results = results_for(preset, target or variants.preset(preset).target)
    levels = sorted({level for result in results for level in result.lineup})
    rows = ladder.standings(levels, results)
    return rows, ladder.head_to_head(rows, results)


def ratings_at(*, preset: str, players: int) -> dict[str, glicko.Rating]:
    """Each level's ladder rating at this preset and table size; empty when the ladder has
    not rated it."""
    rows = LadderRating.objects.filter(preset=preset, players=players)
    return {r.level: glicko.Rating(r.rating, r.deviation, r.volatility) for r in rows}


@dataclass(frozen=True)
class LadderLine:
    level: str
    name: str
    rating: int
    low: int  # its 95% interval
    high: int
    wins: int
    matches: int


@dataclass(frozen=True)
class LadderTable:
    preset: str
    game: str  # the preset in words
    players: int
    target: int
    lines: list[LadderLine]  # strongest first
    rated_at: datetime


def ladder_tables(presets: Iterable[str] = ladder.PRESETS) -> list[LadderTable]:
    """Every laddered preset's ratings, as the bots page shows them; a preset not laddered
    yet is left out."""
    by_preset: dict[str, list[LadderRating]] = {}
    for row in LadderRating.objects.filter(preset__in=list(presets)).order_by("-rating"):
        by_preset.setdefault(row.preset, []).append(row)
    tables = []
    for preset in presets:
        rows = by_preset.get(preset)
        if not rows:
            continue
        lines = []
        for row in rows:
            low, high = glicko.Rating(row.rating, row.deviation).interval95
            name = ABOUT_LEVELS.get(row.level, (row.level.capitalize(),))[0]
            lines.append(
                LadderLine(
                    row.level,
                    name,
                    round(row.rating),
                    round(low),
                    round(high),
                    row.wins,
                    row.matches,
                )
            )
        first = rows[0]
        tables.append(
            LadderTable(
                preset,
                PRESET_NAMES[preset],
                first.players,
                first.target,
                lines,
                max(row.rated_at for row in rows),
            )
        )
    return tables
