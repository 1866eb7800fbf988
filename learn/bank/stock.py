"""The stock of private positions, as a plan: which kinds of position the site keeps in
stock (a bucket: a game, a table size and a decision kind), how a stored position falls
into one, and which job fills the stock next. Pure: the worker (``learn.stock``) counts
what it holds and runs the job this module names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from game.engine.variants import PRESETS, Rules

from .generation import Job

HOUSE_KINDS = ("auction", "opening", "lead", "follow")


class Bucket(NamedTuple):
    preset: str
    players: int
    kind: str  # learn.core.analysis.decision_kind


def kinds_for(rules: Rules) -> tuple[str, ...]:
    """The decision kinds a table of these rules asks a player to make."""
    if rules.trump == "first_lead":  # the first lead sets trump: it is a decision of its own
        return HOUSE_KINDS
    exchange = ("discard",) if rules.exchange != "none" else ()
    return ("auction", "trump", *exchange, "lead", "follow")


def buckets() -> tuple[Bucket, ...]:
    """Every game, table size and decision kind the trainer serves."""
    return tuple(
        Bucket(name, players, kind)
        for name, rules in PRESETS.items()
        for players in rules.players
        for kind in kinds_for(rules)
    )


def bucket_of(preset: str, players: int, phase: str, tricks: int) -> Bucket:
    """The bucket of a stored position (its phase, and the tricks done before it): a lead
    before the first trick of a game whose first lead sets trump is an opening lead."""
    rules = PRESETS.get(preset)
    opening = rules is not None and rules.trump == "first_lead" and phase == "lead" and not tricks
    return Bucket(preset, players, "opening" if opening else phase)


def next_job(held: Mapping[Bucket, int], *, per_bucket: int, seed: str) -> Job | None:
    """The job that fills the stock next, or None when every bucket holds ``per_bucket``.

    The emptiest bucket first and, among those, the smallest table (the cheapest to
    analyse, so that every game has a first position within a minute or two); the job
    examines every kind still short at that game and size, so its kept positions land
    where they are wanted."""
    short = [bucket for bucket in buckets() if held.get(bucket, 0) < per_bucket]
    if not short:
        return None
    order = {name: rank for rank, name in enumerate(PRESETS)}
    first = min(short, key=lambda b: (held.get(b, 0), b.players, order[b.preset]))
    kinds = tuple(
        bucket.kind
        for bucket in short
        if (bucket.preset, bucket.players) == (first.preset, first.players)
    )
    return Job(seed, first.players, first.preset, kinds)
