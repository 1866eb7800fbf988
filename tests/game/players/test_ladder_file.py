"""The ladder's matches as a file: exported and loaded back they rate as stored; a file
with a bad line is refused whole; the published file loads on a fresh database."""

import json

import pytest
from django.core.management import CommandError, call_command

from game.models import LadderRating, LadderResult
from game.players import ladder, ladder_file

pytestmark = pytest.mark.django_db

QUICK = {"presets": ["house"], "levels": ["greedy", "random"], "target": 3}


def _ratings():
    rows = LadderRating.objects.all()
    return {r.level: (round(r.rating, 6), round(r.deviation, 6), r.matches) for r in rows}


def test_matches_exported_and_loaded_afresh_rate_as_before(tmp_path):
    ladder.ladder_run(rounds=2, **QUICK)
    before = _ratings()
    path = tmp_path / "ladder.jsonl"
    call_command("ladder_results", "export", str(path))
    LadderResult.objects.all().delete()
    LadderRating.objects.all().delete()

    call_command("ladder_results", "load", str(path))

    assert LadderResult.objects.count() == 4
    assert _ratings() == before


def test_loading_again_adds_nothing(tmp_path):
    ladder.ladder_run(rounds=1, **QUICK)
    lines = list(ladder_file.exported())

    loaded = ladder_file.load(lines)

    assert (loaded.added, loaded.known, loaded.replaced, loaded.presets) == (0, 2, 0, ("house",))


def test_a_match_stored_under_a_key_of_the_file_takes_the_files_result():
    """A retuned level's ladder is played again under the old keys: a deployment that
    loaded the last file must rate by the new one."""
    ladder.ladder_run(rounds=1, **QUICK)
    first, second = (json.loads(line) for line in ladder_file.exported())
    replayed = {**first, "winner": 1 - first["winner"] if first["winner"] is not None else 0}

    loaded = ladder_file.load([json.dumps(replayed), json.dumps(second)])

    assert (loaded.added, loaded.known, loaded.replaced) == (0, 1, 1)
    assert LadderResult.objects.get(key=first["key"]).winner == replayed["winner"]
    assert LadderResult.objects.count() == 2


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"winner": 2}, "winner"),
        ({"side0": "nobody"}, "each side"),
        ({"preset": "poker"}, "unknown preset"),
        ({"rounds": -1}, "rounds"),
        ({"rounds": "9" * 100_000}, "longer than"),
        ({"extra": 1}, "exactly the fields"),
    ],
)
def test_a_file_with_one_bad_line_is_refused_and_nothing_stored(tmp_path, change, said):
    ladder.ladder_run(rounds=1, **QUICK)
    good, *_ = ladder_file.exported()
    LadderResult.objects.all().delete()
    bad = {**json.loads(good), "key": "another"}
    bad.update(change)
    path = tmp_path / "bad.jsonl"
    path.write_text(good + "\n" + json.dumps(bad) + "\n")

    with pytest.raises(CommandError, match=said):
        call_command("ladder_results", "load", str(path))

    assert not LadderResult.objects.exists()


def test_the_published_file_loads_on_a_fresh_database():
    loaded = ladder_file.load(ladder_file.PUBLISHED.open(encoding="utf-8"))

    assert loaded.added > 0 and "house" in loaded.presets
    assert set(ladder.ratings_at(preset="house", players=4)) >= {"beginner", "expert"}
