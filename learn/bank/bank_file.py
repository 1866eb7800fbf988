"""The bank file: JSON Lines, one position a line, appended and resumable.

A run of ``generate_positions`` appends each kept position and flushes it at once, so a
run stopped anywhere leaves at most a truncated last line, which the next run cuts off.
``load_positions`` reads a bank file into the database (``learn.services.positions_load``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from learn.core.positions import position_key

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# the starter bank the site ships: the house rules' positions, and those of the full-deck
# games (classic, six-handed, seven-point) in a file of their own
STARTER = FIXTURES / "starter_positions.jsonl"
FAMILY_STARTER = FIXTURES / "starter_family_positions.jsonl"


@dataclass
class Bank:
    """What a bank file holds: the keys of its positions, and how many of each preset."""

    path: Path
    keys: set[str]
    presets: Counter = field(default_factory=Counter)  # positions held of each preset

    @property
    def count(self) -> int:
        return len(self.keys)

    def count_of(self, preset: str) -> int:
        return self.presets[preset]

    def add(self, key: str, preset: str) -> None:
        self.keys.add(key)
        self.presets[preset] += 1


def open_bank(path: Path) -> Bank:
    """The keys a bank file holds. A truncated last line (a run stopped mid-write) is
    cut off; every complete line stays exactly as it was."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        path.touch()
        return Bank(path, set())
    data = path.read_bytes()
    complete = data.rfind(b"\n") + 1
    if complete < len(data):
        with path.open("r+b") as file:
            file.truncate(complete)
    bank = Bank(path, set())
    for line in data[:complete].splitlines():
        found = _line_key(line)
        if found:
            bank.add(*found)
    return bank


def _line_key(line: bytes) -> tuple[str, str] | None:
    """A line's key and its table's preset (the record's ``rules``; none: the house)."""
    try:
        item = json.loads(line)
        key = item.get("key") or position_key(item["record"], item["seat"])
        rules = item["record"].get("rules", "house")
        return key, rules if isinstance(rules, str) else rules.get("preset", "house")
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
