"""The ladder stored: a run keeps each match, resumes without replaying one, and rates the
levels; the command checks its input and can queue the run instead."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django_tasks_db.models import DBTaskResult

from game.models import LadderRating, LadderResult
from game.players import ladder

pytestmark = pytest.mark.django_db

QUICK = {"presets": ["house"], "levels": ["greedy", "random"], "target": 3}


def test_a_run_stores_every_match_and_the_ratings_after_them():
    seen = []

    played = ladder.ladder_run(rounds=2, report=seen.append, **QUICK)

    assert played == 4 == LadderResult.objects.count()
    assert [p.done for p in seen] == [1, 2, 3, 4] and seen[-1].total == 4
    rows = {r.level: r for r in LadderRating.objects.all()}
    assert set(rows) == {"greedy", "random"}
    assert rows["greedy"].rating == 1500  # the scale's reference
    assert rows["greedy"].matches == rows["random"].matches == 4
    assert rows["greedy"].players == 4 and rows["greedy"].target == 3
    assert ladder.ratings_at(preset="house", players=4)["random"].deviation < 350


def test_a_run_again_plays_only_what_the_longer_schedule_lacks():
    ladder.ladder_run(rounds=1, **QUICK)
    first = set(LadderResult.objects.values_list("pk", "key"))

    assert ladder.ladder_run(rounds=1, **QUICK) == 0
    assert ladder.ladder_run(rounds=2, **QUICK) == 2
    assert first < set(LadderResult.objects.values_list("pk", "key"))
    assert LadderRating.objects.get(level="random").matches == 4


def test_a_retuned_level_is_forgotten_at_the_presets_named_and_played_again():
    ladder.ladder_run(rounds=1, presets=["house", "classic"], levels=["greedy", "random"],
                      target=3)  # fmt: skip

    args = ["--presets", "house", "--levels", "greedy,random", "--target", "3", "--rounds", "1"]
    call_command("ladder", *args, "--forget", "random")

    # the house matches forgotten and played again; the classic ones kept
    assert LadderResult.objects.filter(preset="house").count() == 2
    assert LadderResult.objects.filter(preset="classic").count() == 2
    assert LadderResult.objects.filter(preset="house").first().pk > (
        LadderResult.objects.filter(preset="classic").last().pk
    )


def test_the_command_ends_with_the_ratings_and_each_pairs_share_beside_its_prediction():
    out = StringIO()
    args = ["--presets", "house", "--levels", "greedy,random", "--target", "3", "--rounds", "2"]

    call_command("ladder", *args, stdout=out)

    rows, pairs = ladder.ladder_summary(preset="house", target=3)
    assert {row.level: row.matches for row in rows} == {"greedy": 4, "random": 4}
    (pair,) = pairs
    assert pair.matches == 4
    text = out.getvalue()
    assert "head to head" in text
    assert f"{pair.first} v {pair.second}: {pair.score:g} of 4" in text
    assert f"{rows[0].level:9} {rows[0].rating.rating:5.0f}" in text


def test_the_ratings_of_a_preset_not_laddered_are_empty():
    ladder.ladder_run(rounds=1, **QUICK)

    assert ladder.ratings_at(preset="classic", players=4) == {}
    assert ladder.ratings_at(preset="house", players=3) == {}
    assert [t.preset for t in ladder.ladder_tables()] == ["house"]


def test_the_command_queues_the_run_on_the_task_queue():
    call_command("ladder", "--presets", "house", "--rounds", "3", "--enqueue")

    queued = DBTaskResult.objects.get(task_path=ladder.ladder_play.module_path)
    assert queued.args_kwargs["args"][:3] == [["house"], list(ladder.ladder.LEVELS), 3]
    assert not LadderResult.objects.exists()


def test_the_queued_task_plays_one_match_and_queues_the_next_until_the_schedule_is_done():
    args = (["house"], ["greedy", "random"], 1, 3)
    step = ladder.ladder_play.module_path

    assert ladder.ladder_play.call(*args) == 1
    assert DBTaskResult.objects.filter(task_path=step).count() == 1  # the next one
    assert ladder.ladder_play.call(*args) == 1
    assert ladder.ladder_play.call(*args) == 0  # done: nothing more is queued
    assert LadderResult.objects.count() == 2
    assert DBTaskResult.objects.filter(task_path=step).count() == 2
    assert LadderRating.objects.filter(preset="house").count() == 2


def test_a_run_with_a_limit_plays_the_schedule_in_its_order_up_to_it():
    assert ladder.ladder_run(rounds=2, limit=3, **QUICK) == 3
    assert list(LadderResult.objects.values_list("round", flat=True)) == [1, 1, 2]


@pytest.mark.parametrize(
    "args",
    [
        ["--presets", "poker"],
        ["--levels", "expert"],
        ["--levels", "expert,wizard"],
        ["--rounds", "0"],
        ["--workers", "0"],
        ["--forget", "wizard"],
    ],
)
def test_the_command_refuses_bad_input_and_plays_nothing(args):
    with pytest.raises(CommandError):
        call_command("ladder", *args)

    assert not LadderResult.objects.exists()
