"""Services: the only code that writes trainer data. Keyword-only, named <thing>_<verb>.

Serving a position (only ever on a POST: a look at a page writes nothing) records an
Attempt; answering it rates the learner and the position in one transaction with both
rows locked. An answer the trainer refuses (not a legal option, answered already, served
to someone else, too old, or for another position) raises a ``TrainerError`` with a
message for the learner and changes nothing.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from game.engine import discard_taps, rules
from game.engine.variants import PRESETS
from game.players import glicko
from game.players.identity import SeatOwner
from learn import selectors, tutorial
from learn.core import discards
from learn.core import positions as core_positions
from learn.models import Attempt, Learner, MissedPosition, PracticePosition
from learn.selectors import ATTEMPT_TTL, Filters
from smearsite.kernel import Conflict, DomainError, NotFound, Refused, TooMany, ratelimit

# positions served a minute: a learner's quickest pace many times over, not a script's flood
SERVES_PER_MINUTE = 60
SERVES_PER_ADDRESS = 240

# a discard the analysis did not price costs about half a second of a core to price when
# answered (learn.core.discards): a learner's share a minute, and a process's at once
PRICINGS_PER_MINUTE = 10
PRICINGS_AT_ONCE = 2
_pricing = threading.BoundedSemaphore(PRICINGS_AT_ONCE)

# one rating period: a rating's deviation grows by one period's volatility per idle day
RATING_PERIOD = timedelta(days=1)
# a missed position comes back after these delays, then daily, until it is solved
MISSED_DELAYS = (timedelta(minutes=10), timedelta(hours=1), timedelta(days=1))
# a key the bank lacks, or a position of someone else's own (from their review)
UNKNOWN_KEY = "There is no position with that key in the bank."


class TrainerError(DomainError):
    """An answer or request the trainer refuses; nothing was changed. Which kind of
    refusal it is says how a view answers (smearsite.kernel.http.status_for), not a status here."""


class UnknownPosition(TrainerError, NotFound):
    pass


class NotYourAttempt(TrainerError, NotFound):
    pass


class StaleAttempt(TrainerError, Conflict):
    pass


class IllegalAnswer(TrainerError, Refused):
    pass


class PricingBusy(TrainerError, TooMany):
    pass


# --- Learners --------------------------------------------------------------------------


def learner_get_or_create(*, owner: SeatOwner) -> Learner:
    """The learner for a user or a guest token, made on first use.

    A guest who signs in keeps their progress: the session's guest token survives log-in,
    so the guest's learner is handed to the user (or folded into the user's learner when
    they practised signed in before)."""
    if owner.user_id is None and not owner.session_key:
        raise ValueError("a learner is a user or a guest token")
    with transaction.atomic():
        guest = None
        if owner.session_key:
            guest = (
                Learner.objects.select_for_update()
                .filter(guest_token=owner.session_key, user__isnull=True)
                .first()
            )
        if owner.user_id is None:
            if guest is not None:
                return guest
            return _create(guest_token=owner.session_key)
        mine = Learner.objects.select_for_update().filter(user_id=owner.user_id).first()
        if guest is None:
            return mine or _create(user_id=owner.user_id)
        if mine is None:
            guest.user_id = owner.user_id
            guest.guest_token = None
            guest.save(update_fields=["user", "guest_token"])
            return guest
        _merge(guest, into=mine)
        return mine


def _create(**fields) -> Learner:
    try:
        with transaction.atomic():
            return Learner.objects.create(**fields)
    except IntegrityError:
        # a second request of the same person made it first
        return Learner.objects.get(**fields)


def _merge(guest: Learner, *, into: Learner) -> None:
    """The guest's attempts and missed positions become the user's; the user's rating stays."""
    Attempt.objects.filter(learner=guest).update(learner=into)
    for missed in MissedPosition.objects.filter(learner=guest):
        existing = MissedPosition.objects.filter(
            learner=into, position_id=missed.position_id
        ).first()
        if existing is None:
            missed.learner = into
            missed.save(update_fields=["learner"])
        elif existing.solved_at is not None and missed.solved_at is None:
            existing.solved_at = None
            existing.misses += missed.misses
            existing.due_at = missed.due_at
            existing.save(update_fields=["solved_at", "misses", "due_at"])
    guest.delete()


# --- Serving ---------------------------------------------------------------------------


def attempt_serve(
    *,
    learner: Learner,
    filters: Filters,
    key: str | None = None,
    mode: str = Attempt.Mode.PRACTICE,
    lesson: str = "",
    fresh: bool = False,
    now: datetime | None = None,
) -> Attempt | None:
    """A position for the learner as an Attempt, or None when no position matches.

    ``key`` asks for one position (``UnknownPosition`` if the bank lacks it). Otherwise an
    unanswered attempt that still fits is served again (a reload shows the same position,
    unless ``fresh``), then a missed position that is due, then an unseen position rated
    near the difficulty asked for."""
    now = now or timezone.now()
    if key is not None:
        position = selectors.position_for(key=key, learner=learner)
        if position is None:
            raise UnknownPosition(UNKNOWN_KEY)
        open_attempt = selectors.open_attempt(
            learner=learner, mode=mode, lesson=lesson, position=position, since=now - ATTEMPT_TTL
        )
        if open_attempt is not None:
            return open_attempt
        return _attempt_create(learner, position, filters, mode, lesson, chosen=True)
    if not fresh:
        open_attempt = selectors.open_attempt(
            learner=learner, mode=mode, lesson=lesson, filters=filters, since=now - ATTEMPT_TTL
        )
        if open_attempt is not None:
            return open_attempt
    position = selectors.position_to_serve(
        learner=learner,
        filters=filters,
        now=now,
        rng=random,
        missed=mode == Attempt.Mode.PRACTICE,
    )
    if position is None:
        return None
    return _attempt_create(learner, position, filters, mode, lesson)


def lesson_serve(*, learner: Learner, lesson: tutorial.Lesson) -> Attempt | None:
    """A practice position for a tutorial lesson (``selectors.lesson_filters``). None when
    the bank has no position of that kind: a lesson never practises on a position it does
    not teach, so there is no fallback to a position of the phase alone."""
    return attempt_serve(
        learner=learner,
        filters=selectors.lesson_filters(lesson),
        mode=Attempt.Mode.TUTORIAL,
        lesson=lesson.slug,
    )


def serving_allowed(*, owner: SeatOwner, address: str) -> bool:
    """Count one position served to ``owner`` from ``address``: False once the person or
    the address asked for more than their limit this minute, so nobody floods the attempts."""
    by_address = ratelimit.allow(
        "learn-serve", f"address:{address}", limit=SERVES_PER_ADDRESS, per_s=60
    )
    if owner.user_id is None and not owner.session_key:
        return by_address  # a first visit has only its address to be counted by
    by_person = ratelimit.allow("learn-serve", owner.person_key, limit=SERVES_PER_MINUTE, per_s=60)
    return by_person and by_address


def learner_preset_choose(*, learner: Learner, preset: str) -> str:
    """Keep the game the learner practises (a preset's name, or "" for any) on their
    learner, a user's or a guest's, so it is chosen again at their next visit. A name
    that is no preset changes nothing; the game kept is returned."""
    if preset in PRESETS or preset == "":
        if learner.preset != preset:
            learner.preset = preset
            learner.save(update_fields=["preset"])
    return learner.preset


def _attempt_create(
    learner: Learner,
    position: PracticePosition,
    filters: Filters,
    mode: str,
    lesson: str,
    *,
    chosen: bool = False,
) -> Attempt:
    reason = _unrated_reason(learner, position, filters, mode, chosen=chosen)
    return Attempt.objects.create(
        learner=learner,
        position=position,
        mode=mode,
        lesson=lesson,
        rated=not reason,
        unrated_reason=reason,
    )


def _unrated_reason(
    learner: Learner, position: PracticePosition, filters: Filters, mode: str, *, chosen: bool
) -> str:
    """Why the attempt will not count toward a rating, or "" when it will.

    It counts only when the learner cannot have read the answer: a position the server
    chose (one asked for by its key may have been looked up), whose analysis is private
    (the starter bank's is in the repository, and a decision from the learner's own review
    was shown with its best answer), on first sight (once shown, in any mode, its answer
    may be known, so every later look, by whatever URL, is practice only)."""
    Unrated = Attempt.Unrated
    if mode == Attempt.Mode.TUTORIAL:
        return Unrated.TUTORIAL
    if not filters.rated:
        return Unrated.UNRATED_MODE
    if chosen:
        return Unrated.BY_ADDRESS
    if position.owner_id is not None:
        return Unrated.OWN_REVIEW
    if position.published:
        return Unrated.PUBLISHED
    if Attempt.objects.filter(learner=learner, position=position).exists():
        return Unrated.SEEN
    return ""


# --- Answering -------------------------------------------------------------------------


def canonical_code(text: str) -> str | None:
    """The game record's spelling of an action (``bid:3``, ``pass``, ``10H``), or None."""
    try:
        return rules.action_code(rules.parse_action_code(text))
    except (ValueError, AttributeError):
        return None


def attempt_answer(
    *,
    learner: Learner,
    token: str,
    choice: str,
    position_key: str | None = None,
    now: datetime | None = None,
) -> Attempt:
    """Answer a served position once: grade it, rate learner and position, note a miss."""
    now = now or timezone.now()
    with transaction.atomic():
        attempt = (
            Attempt.objects.select_for_update().select_related("position").filter(token=token)
        ).first()
        if attempt is None:
            raise UnknownPosition(
                "That position was never served here (or is gone): open a new position."
            )
        if attempt.learner_id != learner.pk:
            raise NotYourAttempt("That position was served to someone else: open your own.")
        if position_key is not None and position_key != attempt.position.key:
            if not PracticePosition.objects.filter(key=position_key).exists():
                raise UnknownPosition("That answer names a position the bank does not have.")
            raise StaleAttempt("That answer was meant for another position: reload the page.")
        if attempt.is_answered:
            raise StaleAttempt(
                "You answered this position already; a second answer changes nothing."
            )
        if now - attempt.served_at > ATTEMPT_TTL:
            raise StaleAttempt("This position was served too long ago: open a new one.")
        core = attempt.position.core
        if core.phase == "discard":  # any discard the rule allows, priced or not
            try:
                code = discards.discard_code(core.view(), choice)
            except discard_taps.DiscardRefused as error:
                raise IllegalAnswer(str(error)) from None
        else:
            code = canonical_code(choice)
            if code is None or code not in core.legal_codes():
                raise IllegalAnswer(f"{choice[:12]!r} is not one of the legal options here.")
        # a discard the analysis did not price is priced now, against the expert's
        unpriced = _priced_afresh(learner, core, code)
        correct = unpriced.correct if unpriced else selectors.is_right(core, code)

        me = Learner.objects.select_for_update().get(pk=learner.pk)
        position = PracticePosition.objects.select_for_update().get(pk=attempt.position_id)
        attempt.answer = code
        attempt.correct = correct
        attempt.answered_at = now
        attempt.rating_before = me.rating
        attempt.position_rating_before = position.rating
        if attempt.rated and _answer_known(attempt):
            attempt.rated = False
            attempt.unrated_reason = Attempt.Unrated.ANSWERED
        if attempt.rated and unpriced and not unpriced.rated:
            attempt.rated = False
            attempt.unrated_reason = Attempt.Unrated.THIN
        if unpriced:
            attempt.priced = asdict(unpriced)
        if attempt.rated:
            mine, theirs = glicko.rate_game(
                _idle(me.glicko, me.rated_at, now),
                _idle(position.glicko, position.rated_at, now),
                1.0 if correct else 0.0,
            )
            me.rating, me.deviation, me.volatility = mine.rating, mine.deviation, mine.volatility
            me.rated_at = now
            me.save(update_fields=["rating", "deviation", "volatility", "rated_at"])
            position.rating = theirs.rating
            position.deviation = theirs.deviation
            position.volatility = theirs.volatility
            position.rated_at = now
        position.attempts = F("attempts") + 1
        position.solved = F("solved") + (1 if correct else 0)
        position.save(
            update_fields=["rating", "deviation", "volatility", "rated_at", "attempts", "solved"]
        )
        attempt.rating_after = me.rating
        attempt.deviation_after = me.deviation
        attempt.position_rating_after = position.rating
        attempt.save(
            update_fields=[
                "answer",
                "correct",
                "answered_at",
                "rating_before",
                "rating_after",
                "deviation_after",
                "position_rating_before",
                "position_rating_after",
                "rated",
                "unrated_reason",
                "priced",
            ]
        )
        if attempt.mode == Attempt.Mode.PRACTICE:
            _missed_note(me, position, correct, now)
    return attempt


def _priced_afresh(
    learner: Learner, core: core_positions.AnalysedPosition, code: str
) -> discards.Afresh | None:
    """A discard the analysis did not price, priced now (``learn.core.discards``): about
    half a second of a core each, so a learner has ``PRICINGS_PER_MINUTE`` of them and a
    process prices ``PRICINGS_AT_ONCE`` at a time; past either the answer is refused for
    now (``PricingBusy``), and nothing changes."""
    if core.phase != "discard" or discards.is_priced(core, code):
        return None
    if not ratelimit.allow(
        "learn-price", f"learner:{learner.pk}", limit=PRICINGS_PER_MINUTE, per_s=60
    ):
        raise PricingBusy(
            f"Discards the expert had not priced are priced as you answer, at most "
            f"{PRICINGS_PER_MINUTE} a minute: wait a moment, then answer again."
        )
    if not _pricing.acquire(blocking=False):
        raise PricingBusy(
            "The site is pricing other players' discards right now: answer again in a moment."
        )
    try:
        return discards.afresh(core, code)
    finally:
        _pricing.release()


def _answer_known(attempt: Attempt) -> bool:
    """Another attempt of the learner's at this position was answered (and its answer
    shown): two open attempts must not let the practice one reveal the rated one's."""
    return (
        Attempt.objects.filter(
            learner_id=attempt.learner_id,
            position_id=attempt.position_id,
            answered_at__isnull=False,
        )
        .exclude(pk=attempt.pk)
        .exists()
    )


def _idle(rating: glicko.Rating, since: datetime | None, now: datetime) -> glicko.Rating:
    if since is None:
        return rating
    return glicko.after_idle(rating, (now - since) / RATING_PERIOD)


def _missed_note(
    learner: Learner, position: PracticePosition, correct: bool, now: datetime
) -> None:
    missed = MissedPosition.objects.filter(learner=learner, position=position).first()
    if correct:
        if missed is not None and missed.solved_at is None:
            missed.solved_at = now
            missed.save(update_fields=["solved_at"])
        return
    if missed is None:
        MissedPosition.objects.create(
            learner=learner,
            position=position,
            misses=1,
            missed_at=now,
            due_at=now + MISSED_DELAYS[0],
        )
        return
    missed.misses += 1
    missed.missed_at = now
    missed.solved_at = None
    missed.due_at = now + MISSED_DELAYS[min(missed.misses, len(MISSED_DELAYS)) - 1]
    missed.save(update_fields=["misses", "missed_at", "solved_at", "due_at"])


# --- Loading the bank ------------------------------------------------------------------


POSITION_FIELDS = (
    "data",
    "phase",
    "players",
    "preset",
    "theme_tags",
    "tricks",
    "barred",
    "rating",
    "published",
)


@dataclass
class LoadReport:
    created: int = 0
    existing: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)  # (line number, why)


def positions_load(
    *, lines: Iterable[str], batch: int = 200, published: bool = False
) -> LoadReport:
    """Load positions from JSON lines, keyed by position key: a position already in the
    bank is left as it is (its ratings stay), and a bad line is reported and skipped.
    ``published``: the file's analyses are public (the starter bank), so its positions,
    new or already in the bank, are practised and never rated.

    Every line is checked (a line is read back through the rules); new positions are
    written in batches of ``batch``, each batch in one transaction."""
    report = LoadReport()
    cores: list[core_positions.AnalysedPosition] = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            cores.append(core_positions.AnalysedPosition.from_json(json.loads(text)))
        except (ValueError, TypeError, KeyError) as error:
            # PositionError is a ValueError, as is a JSON syntax error
            report.errors.append((number, str(error) or type(error).__name__))
    _positions_store(cores, report, batch=batch, published=published)
    return report


def positions_add(*, items: Iterable[dict]) -> LoadReport:
    """Add freshly analysed positions (``AnalysedPosition.to_json()`` of each, as a
    generation job returns them) to the bank, private: written nowhere else, so rated."""
    report = LoadReport()
    cores = []
    for number, item in enumerate(items, start=1):
        try:
            cores.append(core_positions.AnalysedPosition.from_json(item))
        except (ValueError, TypeError, KeyError) as error:
            report.errors.append((number, str(error) or type(error).__name__))
    _positions_store(cores, report, batch=200, published=False)
    return report


def _positions_store(
    cores: list[core_positions.AnalysedPosition],
    report: LoadReport,
    *,
    batch: int,
    published: bool,
) -> None:
    keys = [core.key for core in cores]
    known = set()
    for start in range(0, len(keys), batch):
        chunk = keys[start : start + batch]
        known.update(PracticePosition.objects.filter(key__in=chunk).values_list("key", flat=True))
    pending: list[PracticePosition] = []
    already_public: list[str] = []

    def flush() -> None:
        with transaction.atomic():
            for position in pending:
                _, created = PracticePosition.objects.get_or_create(
                    key=position.key,
                    defaults={field: getattr(position, field) for field in POSITION_FIELDS},
                )
                report.created += created
                report.existing += not created
        pending.clear()

    for core in cores:
        if core.key in known:
            report.existing += 1
            if published:
                already_public.append(core.key)
            continue
        known.add(core.key)
        pending.append(
            PracticePosition(
                key=core.key,
                data=core.to_json(),
                phase=core.phase,
                players=core.players,
                preset=core.preset,
                theme_tags=PracticePosition.tags_for(core.themes),
                tricks=core.tricks_done,
                barred=core.barred,
                rating=core.prior_rating,
                published=published,
            )
        )
        if len(pending) >= batch:
            flush()
    flush()
    # a bank loaded before its analyses were known to be public is marked now
    for start in range(0, len(already_public), batch):
        PracticePosition.objects.filter(key__in=already_public[start : start + batch]).update(
            published=True
        )
