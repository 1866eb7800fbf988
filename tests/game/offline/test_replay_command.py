"""python manage.py replay FILE: one JSON line per record, exit status 1 on a bad record."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.game.engine.test_record import scripted_record

ROOT = Path(__file__).resolve().parents[3]


def run_replay(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def test_replay_prints_one_result_per_json_line_in_order(tmp_path, capsys):
    unfinished = scripted_record()
    unfinished["rounds"][0]["actions"] = unfinished["rounds"][0]["actions"][:4]
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(scripted_record()) + "\n" + json.dumps(unfinished) + "\n")

    call_command("replay", str(path))

    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["rounds"][0]["match_after"] == [4, 2, 0]
    assert second["rounds"][0]["trump"] == "S" and second["rounds"][0]["points"] is None


def test_replay_reads_a_single_pretty_printed_record(tmp_path, capsys):
    path = tmp_path / "one.json"
    path.write_text(json.dumps(scripted_record(), indent=2))

    call_command("replay", str(path))

    (line,) = capsys.readouterr().out.splitlines()
    assert json.loads(line)["rounds"][0]["raw"] == [4, 2, 0]


def test_replay_prints_every_line_then_exits_1_when_a_record_breaks_the_rules(tmp_path):
    bad = scripted_record()
    bad["rounds"][0]["actions"][5]["play"] = "10C"
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (bad, scripted_record(), "oops")) + "\n")

    finished = run_replay(path)

    assert finished.returncode == 1
    lines = [json.loads(line) for line in finished.stdout.splitlines()]
    assert len(lines) == 3
    assert {k: lines[0][k] for k in ("round", "action")} == {"round": 0, "action": 5}
    assert lines[1]["rounds"][0]["made"] is True
    assert lines[2] == {"error": "a record is a JSON object", "round": None, "action": None}


def test_replay_exits_0_when_every_record_is_good(tmp_path):
    path = tmp_path / "good.jsonl"
    path.write_text(json.dumps(scripted_record()) + "\n")
    assert run_replay(path).returncode == 0


def test_replay_of_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        call_command("replay", str(tmp_path / "absent.jsonl"))
