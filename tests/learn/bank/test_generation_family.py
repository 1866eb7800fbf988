"""Bank generation at the full-deck tables: the job plays the preset's game, and what it
keeps loads with the preset's rules and every kind of decision is examined."""

from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from learn.bank.bank_file import open_bank
from learn.bank.generation import Job, generate, job_stream, run_job
from learn.core.analysis import Budget, Keep
from learn.core.positions import AnalysedPosition
from tests.learn.family import FAMILY

# deals, not time, bound the analyses, so that a busy machine keeps the same verdicts
QUICK = Budget(analysis_ms=2000, max_deals=12, move_ms=500, move_deals=4)
LENIENT = Keep(min_margin=0.0, z=0.0, min_deals=2)


@pytest.mark.parametrize("preset", FAMILY)
def test_a_job_plays_the_presets_game_and_examines_every_kind(preset):
    players = 6 if preset == "six_handed" else 4
    kinds = Counter()
    kept = []
    for number in range(8):  # a round may be redealt, or a discard left no choice
        result = run_job(Job(f"family/{number}", players, preset), QUICK, LENIENT)
        kinds.update(kind.split()[1] for kind in result.examined_kinds)
        kept += [AnalysedPosition.from_json(item) for item in result.positions]
        if {"auction", "trump", "discard"} <= set(kinds):
            break
    assert {"auction", "trump", "discard"} <= set(kinds)
    assert kept and all(p.preset == preset for p in kept)


def test_the_house_jobs_keep_their_seeds_and_each_preset_has_its_own():
    house = next(job_stream(1, [4], 0))
    classic = next(job_stream(1, [4], 0, "classic"))
    assert house == Job("1/0/0", 4, "house")
    assert classic.preset == "classic" and classic.seed != house.seed


def test_a_bank_counts_each_preset_apart(tmp_path: Path):
    path = tmp_path / "bank.jsonl"
    generate(path, count=2, players=[4], preset="classic", budget=QUICK, keep=LENIENT)
    generate(path, count=1, players=[4], preset="seven_point", budget=QUICK, keep=LENIENT)
    bank = open_bank(path)
    assert bank.count_of("classic") == 2 and bank.count_of("seven_point") == 1
    assert bank.count == 3


def test_a_job_asked_for_one_kind_examines_that_kind_alone():
    kinds = Counter()
    for number in range(3):
        result = run_job(Job(f"kinds/{number}", 4, "classic", ("trump",)), QUICK, LENIENT)
        kinds.update(kind.split()[1] for kind in result.examined_kinds)
    assert set(kinds) == {"trump"}


def test_the_command_refuses_a_kind_it_does_not_know(tmp_path):
    with pytest.raises(CommandError, match="--kinds"):
        call_command("generate_positions", preset="classic", kinds="trump,bluff", count=1,
                     out=str(tmp_path / "x"))  # fmt: skip
