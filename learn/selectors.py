"""Selectors: read trainer data, never write it.

Which position to serve, the learner and attempts asked for, and the progress page's
figures. What a page is handed is built in ``learn.presenters``, from a position's
SeatView alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from random import Random

from django.db.models import Count, F, Max, Q, QuerySet
from django.db.models.functions import Abs
from django.utils import timezone

from game.players.identity import SeatOwner
from learn import tutorial
from learn.core import explain
from learn.core import positions as core_positions
from learn.core import themes as core_themes
from learn.models import Attempt, Learner, MissedPosition, PracticePosition
from learn.presenters import (
    PROVISIONAL_DEVIATION,
    MissedShown,
    Progress,
    ThemeStats,
    attempt_shown,
    chart_points,
    position_shown,
)

# relative difficulty: the rating a served position aims at, around the learner's own
DIFFICULTIES = {"easier": -300.0, "matched": 0.0, "harder": 300.0}
DIFFICULTY_LABELS = {"easier": "Easier", "matched": "Matched", "harder": "Harder"}
# how many of the nearest-rated positions one is drawn from, so a reload is not predictable
NEAREST = 8
# a missed position that was served and skipped comes back no sooner than this
SKIP_WAIT = timedelta(hours=1)
# an attempt answered later than this is stale: the page was left open for too long
ATTEMPT_TTL = timedelta(hours=12)


@dataclass(frozen=True)
class Filters:
    """What the learner asked for. ``themes_any``, ``target``, ``max_tricks`` and ``barred``
    serve the tutorial."""

    phase: str | None = None
    theme: str | None = None
    players: int | None = None
    difficulty: str = "matched"
    rated: bool = True
    themes_any: tuple[str, ...] = ()
    target: float | None = None
    max_tricks: int | None = None  # at most this many tricks finished before the decision
    barred: bool = False  # some card in hand may not be played
    preset: str | None = None  # the table's game (a preset's name); None: any

    def q(self, prefix: str = "") -> Q:
        query = Q()
        if self.phase:
            query &= Q(**{f"{prefix}phase": self.phase})
        if self.players:
            query &= Q(**{f"{prefix}players": self.players})
        if self.preset:
            query &= Q(**{f"{prefix}preset": self.preset})
        if self.theme:
            query &= Q(**{f"{prefix}theme_tags__contains": f",{self.theme},"})
        if self.max_tricks is not None:
            query &= Q(**{f"{prefix}tricks__lte": self.max_tricks})
        if self.barred:
            query &= Q(**{f"{prefix}barred__gt": 0})
        if self.themes_any:
            anyof = Q()
            for slug in self.themes_any:
                anyof |= Q(**{f"{prefix}theme_tags__contains": f",{slug},"})
            query &= anyof
        return query

    def target_for(self, learner: Learner) -> float:
        if self.target is not None:
            return self.target
        return learner.rating + DIFFICULTIES.get(self.difficulty, 0.0)


# --- Learners and attempts ---------------------------------------------------------------


def learner_for(*, owner: SeatOwner) -> Learner | None:
    """The asker's learner, if they have practised (read only: no guest is claimed here)."""
    if owner.user_id is not None:
        mine = Learner.objects.filter(user_id=owner.user_id).first()
        if mine is not None:
            return mine
    if owner.session_key:
        return Learner.objects.filter(guest_token=owner.session_key, user__isnull=True).first()
    return None


def attempt_for(*, token: str, learner: Learner | None) -> Attempt | None:
    """The learner's own attempt with this token, or None (someone else's is not found)."""
    if learner is None:
        return None
    return Attempt.objects.select_related("position").filter(token=token, learner=learner).first()


def lesson_filters(lesson: tutorial.Lesson) -> Filters:
    """The positions a tutorial lesson practises on: unrated, easy, of the lesson's game
    and of the kind it teaches (its phase, point in the round, barred cards, a theme)."""
    return Filters(
        preset=lesson.preset,
        phase=lesson.phase,
        themes_any=lesson.themes,
        max_tricks=lesson.max_tricks,
        barred=lesson.barred,
        rated=False,
        target=tutorial.TUTORIAL_TARGET,
    )


def position_for(*, key: str, learner: Learner | None) -> PracticePosition | None:
    """The bank's position with this key; someone's own (from their review) is theirs alone."""
    yours = Q(owner__isnull=True)
    if learner is not None:
        yours |= Q(owner=learner)
    return PracticePosition.objects.filter(yours, key=key).first()


def open_attempt(
    *,
    learner: Learner,
    mode: str,
    lesson: str,
    since: datetime | None = None,
    filters: Filters | None = None,
    position: PracticePosition | None = None,
) -> Attempt | None:
    """The learner's newest attempt, served since ``since`` (by default: not stale yet) and
    not answered, that fits the filters or is at the position."""
    since = since or timezone.now() - ATTEMPT_TTL
    attempts = Attempt.objects.select_related("position").filter(
        learner=learner, mode=mode, lesson=lesson, answered_at__isnull=True, served_at__gte=since
    )
    if position is not None:
        attempts = attempts.filter(position=position)
    if filters is not None:
        attempts = attempts.filter(filters.q("position__"))
        if not filters.rated:
            attempts = attempts.filter(rated=False)
    return attempts.order_by("-served_at", "-pk").first()


def open_practice_attempt(
    *, learner: Learner, filters: Filters | None = None, position: PracticePosition | None = None
) -> Attempt | None:
    """The learner's open practice attempt that fits the filters or is at the position."""
    return open_attempt(
        learner=learner, mode=Attempt.Mode.PRACTICE, lesson="", filters=filters, position=position
    )


def open_lesson_attempt(*, learner: Learner, lesson: str, filters: Filters) -> Attempt | None:
    """The learner's open attempt at practising the lesson ``lesson`` (its slug)."""
    return open_attempt(learner=learner, mode=Attempt.Mode.TUTORIAL, lesson=lesson, filters=filters)


def position_to_serve(
    *, learner: Learner, filters: Filters, now: datetime, rng: Random, missed: bool = True
) -> PracticePosition | None:
    """A missed position that is due, else an unseen one rated near the target, else the
    one seen longest ago: all within the filters."""
    if missed:
        due = _missed_due(learner, filters, now).order_by("due_at", "pk").first()
        if due is not None:
            return due.position
    matching = _bank(filters)
    target = filters.target_for(learner)
    seen = Attempt.objects.filter(learner=learner).values("position_id")
    # rated practice serves positions whose analysis is private first: a published one
    # (the starter bank's) is served, unrated, once no private one is left
    for pool in ([matching.filter(published=False)] if filters.rated else []) + [matching]:
        unseen = list(
            pool.exclude(pk__in=seen)
            .annotate(distance=Abs(F("rating") - target))
            .order_by("distance", "pk")[:NEAREST]
        )
        if unseen:
            return rng.choice(unseen)
    again = list(
        matching.annotate(
            last=Max("attempt_set__served_at", filter=Q(attempt_set__learner=learner))
        ).order_by(F("last").asc(nulls_first=True), "pk")[:NEAREST]
    )
    return rng.choice(again) if again else None


def can_serve(
    *, learner: Learner | None, filters: Filters, now: datetime, missed: bool = True
) -> bool:
    """Whether ``position_to_serve`` would find a position, asked without serving one."""
    if _bank(filters).exists():
        return True
    return missed and learner is not None and _missed_due(learner, filters, now).exists()


def rated_in_stock(*, learner: Learner | None, filters: Filters) -> bool:
    """Whether a position of these filters could be served rated: private (its analysis
    published nowhere) and never served to the learner."""
    pool = _bank(filters).filter(published=False)
    if learner is not None:
        pool = pool.exclude(pk__in=Attempt.objects.filter(learner=learner).values("position_id"))
    return pool.exists()


def _bank(filters: Filters) -> QuerySet[PracticePosition]:
    # a decision from someone's own round comes back only through their missed positions
    return PracticePosition.objects.filter(filters.q(), owner__isnull=True)


def _missed_due(learner: Learner, filters: Filters, now: datetime) -> QuerySet[MissedPosition]:
    # a missed position skipped a moment ago waits: "next" must move on
    skipped = Attempt.objects.filter(
        learner=learner, answered_at__isnull=True, served_at__gte=now - SKIP_WAIT
    ).values("position_id")
    return (
        MissedPosition.objects.select_related("position")
        .filter(learner=learner, solved_at__isnull=True, due_at__lte=now)
        .filter(filters.q("position__"))
        .exclude(position_id__in=skipped)
    )


def is_right(core: core_positions.AnalysedPosition, code: str) -> bool:
    """The expert's choice is right, and so is any option as good as far as the figures
    tell: level with it, or too close to call (``grades.Verdict.as_good``, the one scale
    every sentence and grade reads). The bank keeps only positions whose best option leads
    the second clearly (analysis.Keep)."""
    if code not in {option.code for option in core.options}:
        return False
    return code == core.best.code or explain.is_equivalent(core, code)


def lessons_practised(*, learner: Learner | None) -> dict[str, int]:
    """How many practice positions of each tutorial lesson the learner has answered."""
    if learner is None:
        return {}
    rows = (
        Attempt.objects.filter(
            learner=learner, mode=Attempt.Mode.TUTORIAL, answered_at__isnull=False
        )
        .values("lesson")
        .annotate(n=Count("pk"))
    )
    return {row["lesson"]: row["n"] for row in rows}


def bank_size() -> int:
    return PracticePosition.objects.filter(owner__isnull=True).count()


# --- Progress ------------------------------------------------------------------------------


def progress_for(*, learner: Learner | None, now: datetime) -> Progress | None:
    if learner is None:
        return None
    answered: QuerySet[Attempt] = Attempt.objects.filter(
        learner=learner, answered_at__isnull=False
    ).select_related("position")
    history = list(
        answered.filter(rated=True)
        .order_by("answered_at", "pk")
        .values_list("rating_after", flat=True)
    )
    tried: dict[str, int] = {}
    right: dict[str, int] = {}
    total = correct = 0
    for tags, was_right in answered.values_list("position__theme_tags", "correct"):
        total += 1
        correct += bool(was_right)
        for slug in (s for s in tags.split(",") if s):
            tried[slug] = tried.get(slug, 0) + 1
            right[slug] = right.get(slug, 0) + bool(was_right)
    themes = tuple(
        ThemeStats(slug, core_themes.THEMES.get(slug, slug), tried[slug], right.get(slug, 0))
        for slug in sorted(tried, key=lambda s: (right.get(s, 0) / tried[s], s))
    )
    open_misses = MissedPosition.objects.filter(learner=learner, solved_at__isnull=True)
    return Progress(
        rating=learner.rating,
        deviation=learner.deviation,
        provisional=learner.deviation > PROVISIONAL_DEVIATION,
        answered=total,
        right=correct,
        history=tuple(history),
        chart_points=chart_points([float(v) for v in history]),
        themes=themes,
        due=tuple(
            MissedShown(misses=missed.misses, position=position_shown(missed.position))
            for missed in open_misses.filter(due_at__lte=now).select_related("position")[:20]
        ),
        waiting=open_misses.filter(due_at__gt=now).count(),
        recent=tuple(
            attempt_shown(a)
            for a in answered.select_related("position").order_by("-answered_at", "-pk")[:15]
        ),
    )


def theme_choices() -> list[tuple[str, str]]:
    return list(core_themes.THEMES.items())
