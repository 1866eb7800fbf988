"""The ladder's measured matches as a file that ships with the code.

A ladder takes hours of play, so the matches behind the published ratings are kept in
``game/fixtures/ladder_results.jsonl`` (one match a line) and loaded by ``make run``: a
new deployment shows the levels' ratings at once, and a ladder run there resumes from
them instead of starting again. Loading adds the matches not stored yet and, where a stored
match under the same key differs, takes the file's (a retuned level's ladder is played
again under the old keys, so a deployment that loaded the last file would otherwise keep
the old results), then rates each preset from all its stored matches; a file with any
bad line is refused whole.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction

from game.bots import LEVELS
from game.engine import variants
from game.models import LadderResult
from game.players.ladder import ratings_store

PUBLISHED = Path(__file__).resolve().parent.parent / "fixtures" / "ladder_results.jsonl"
FIELDS = ("key", "preset", "target", "round", "side0", "side1", "winner", "rounds")
# a ladder is thousands of matches, not millions: a larger file is not ours
MAX_LINES = 100_000
MAX_LINE_CHARS = 1_000


class LadderFileError(ValueError):
    """A line of a ladder file that cannot be a stored match; says which and why."""


@dataclass(frozen=True)
class Loaded:
    added: int
    known: int  # lines whose match was stored already, as the file has it
    replaced: int  # lines whose key was stored with another result
    presets: tuple[str, ...]


def exported() -> Iterator[str]:
    """Every stored match, one JSON line each, in the ladder's order."""
    for row in LadderResult.objects.order_by("preset", "target", "round", "key"):
        yield json.dumps(dict(zip(FIELDS, _fields(row), strict=True)), separators=(",", ":"))


def load(lines: Iterable[str]) -> Loaded:
    """Store the matches of ``lines``, new or stored otherwise, and rate their presets anew;
    raises ``LadderFileError`` (storing nothing) at the first line that is not a match."""
    rows = [_parsed(number, line) for number, line in _numbered(lines)]
    keys = {row.key for row in rows}
    if len(keys) < len(rows):
        raise LadderFileError("the file names a match twice")
    with transaction.atomic():
        stored = {row.key: _fields(row) for row in LadderResult.objects.filter(key__in=keys)}
        new = [row for row in rows if row.key not in stored]
        changed = [row for row in rows if row.key in stored and stored[row.key] != _fields(row)]
        LadderResult.objects.filter(key__in=[row.key for row in changed]).delete()
        LadderResult.objects.bulk_create(new + changed)
        rated = sorted({(row.preset, row.target) for row in rows})
        for preset, target in rated:
            ratings_store(preset, target)
    known = len(rows) - len(new) - len(changed)
    return Loaded(len(new), known, len(changed), tuple(preset for preset, _ in rated))


def _fields(row: LadderResult) -> tuple:
    return tuple(getattr(row, name) for name in FIELDS)


def _numbered(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(lines, start=1):
        if number > MAX_LINES:
            raise LadderFileError(f"more than {MAX_LINES} lines: not a ladder file")
        if line.strip():
            yield number, line


def _parsed(number: int, line: str) -> LadderResult:
    def refused(why: str) -> LadderFileError:
        return LadderFileError(f"line {number}: {why}")

    if len(line) > MAX_LINE_CHARS:
        raise refused(f"longer than {MAX_LINE_CHARS} characters")
    try:
        match = json.loads(line)
    except ValueError as error:
        raise refused(f"not JSON ({error})") from None
    if not isinstance(match, dict) or set(match) != set(FIELDS):
        raise refused(f"a match has exactly the fields {', '.join(FIELDS)}")
    if match["preset"] not in variants.PRESETS:
        raise refused(f"unknown preset {match['preset']!r}")
    if match["side0"] not in LEVELS or match["side1"] not in LEVELS:
        raise refused("each side is one of the bots: " + ", ".join(LEVELS))
    small = {"target": 1, "round": 1, "rounds": 0}
    for name, least in small.items():
        value = match[name]
        if type(value) is not int or not least <= value <= 30_000:
            raise refused(f"{name} is a whole number from {least} to 30000")
    if match["winner"] not in (0, 1, None):
        raise refused("winner is 0, 1 or null (called off)")
    if not isinstance(match["key"], str) or not 0 < len(match["key"]) <= 120:
        raise refused("key is a text of 1 to 120 characters")
    return LadderResult(**match)
