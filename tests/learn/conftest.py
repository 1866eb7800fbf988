"""Trainer fixtures: a bank loaded from the sample positions the core ships for tests."""

import json
from pathlib import Path

import pytest

from game.players.identity import SeatOwner
from learn import selectors, services
from learn.models import PracticePosition

SAMPLE = Path(__file__).resolve().parent / "fixtures" / "sample_positions.jsonl"


def sample_lines() -> list[str]:
    return [line for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]


def sample_data() -> list[dict]:
    return [json.loads(line) for line in sample_lines()]


@pytest.fixture
def bank(db) -> list[PracticePosition]:
    report = services.positions_load(lines=sample_lines())
    assert not report.errors, report.errors
    return list(PracticePosition.objects.order_by("pk"))


@pytest.fixture
def starter_bank(db) -> list[PracticePosition]:
    """The starter bank the site ships: positions for every tutorial lesson."""
    from tests.learn.fixtures.factories import STARTER_BANK

    report = services.positions_load(lines=STARTER_BANK.read_text().splitlines())
    assert not report.errors, report.errors
    return list(PracticePosition.objects.order_by("pk"))


@pytest.fixture
def guest(db):
    return services.learner_get_or_create(owner=SeatOwner(session_key="guest-token-1"))


@pytest.fixture
def other_guest(db):
    return services.learner_get_or_create(owner=SeatOwner(session_key="guest-token-2"))


def wrong_code(position: PracticePosition) -> str:
    """A legal option that is worse than the expert's beyond the sampling error."""
    core = position.core
    return next(o.code for o in reversed(core.options) if not selectors.is_right(core, o.code))


def right_code(position: PracticePosition) -> str:
    return position.core.best.code
