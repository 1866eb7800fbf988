"""manage.py load_positions: idempotent, keyed by position key, bad lines reported and skipped."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from learn.management.commands import load_positions
from learn.models import PracticePosition
from tests.learn.conftest import sample_data, sample_lines

pytestmark = pytest.mark.django_db


def load(path) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("load_positions", str(path), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_loading_twice_adds_each_position_once_and_keeps_its_ratings(tmp_path):
    path = tmp_path / "bank.jsonl"
    path.write_text("\n".join(sample_lines()) + "\n", encoding="utf-8")
    count = len(sample_lines())

    out, err = load(path)
    assert f"{count} positions added, 0 already in the bank, 0 lines skipped." in out
    assert not err
    first = PracticePosition.objects.first()
    PracticePosition.objects.filter(pk=first.pk).update(rating=1234.5, attempts=7)

    out, _ = load(path)
    assert f"0 positions added, {count} already in the bank" in out
    assert PracticePosition.objects.count() == count
    first.refresh_from_db()
    assert first.rating == 1234.5 and first.attempts == 7


def test_a_loaded_position_keeps_its_phase_players_themes_and_prior_rating(tmp_path):
    path = tmp_path / "bank.jsonl"
    path.write_text(sample_lines()[0], encoding="utf-8")
    data = sample_data()[0]

    load(path)

    stored = PracticePosition.objects.get()
    assert stored.key == data["key"]
    assert stored.phase == data["phase"] and stored.players == data["players"]
    assert stored.themes == data["themes"]
    assert stored.rating == data["prior_rating"]
    assert stored.core.to_json() == stored.data


def test_malformed_lines_are_reported_with_their_numbers_and_skipped(tmp_path):
    lines = sample_lines()[:3]
    broken = dict(sample_data()[0], seat=(sample_data()[0]["seat"] + 1) % 3)
    illegal = dict(sample_data()[1])
    illegal["options"] = illegal["options"][:1]
    path = tmp_path / "bank.jsonl"
    path.write_text(
        "\n".join(
            [
                lines[0],
                "{not json",
                "",
                json.dumps(broken),
                lines[1],
                json.dumps(illegal),
                '"a string"',
                lines[2],
            ]
        ),
        encoding="utf-8",
    )

    out, err = load(path)

    assert "3 positions added" in out and "4 lines skipped" in out
    for number in (2, 4, 6, 7):
        assert f"bank.jsonl:{number}: skipped:" in err
    assert ":1:" not in err and ":3:" not in err
    assert PracticePosition.objects.count() == 3


def test_a_missing_file_is_an_error_but_a_missing_starter_bank_only_a_warning(
    tmp_path, monkeypatch
):
    with pytest.raises(CommandError, match="is not a file"):
        load(tmp_path / "nope.jsonl")

    monkeypatch.setattr(load_positions, "STARTER", tmp_path / "starter.jsonl")
    out, err = StringIO(), StringIO()
    call_command("load_positions", str(tmp_path / "starter.jsonl"), stdout=out, stderr=err)
    assert "No starter bank" in err.getvalue()
    assert PracticePosition.objects.count() == 0


def test_the_starter_bank_and_a_file_said_published_are_never_rated(tmp_path, monkeypatch):
    path = tmp_path / "bank.jsonl"
    path.write_text("\n".join(sample_lines()) + "\n", encoding="utf-8")
    load(path)
    assert not PracticePosition.objects.filter(published=True).exists()  # a private bank is rated

    call_command("load_positions", str(path), "--published", stdout=StringIO())
    assert not PracticePosition.objects.filter(published=False).exists()  # marked, though loaded

    PracticePosition.objects.update(published=False)
    monkeypatch.setattr(load_positions, "STARTER", path)
    call_command("load_positions", str(path), stdout=StringIO())
    assert not PracticePosition.objects.filter(published=False).exists()
