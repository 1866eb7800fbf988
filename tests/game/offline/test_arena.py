"""The arena: schedules, whole matches between bots, the summary and the command."""

import json

import pytest
from django.core.management import CommandError, call_command

from game.engine import record
from game.engine.state import MatchSetup
from game.offline import arena


def test_a_fair_schedule_plays_each_deal_once_with_every_lineup():
    games = arena.schedule(["expert", "greedy"], units=2, matches=4, fair=True, seed=3)
    assert [g.lineup for g in games] == [("expert", "greedy"), ("greedy", "expert")] * 2
    assert games[0].seed == games[1].seed != games[2].seed == games[3].seed


def test_three_bots_at_a_cutthroat_table_sit_in_every_order_over_the_same_deals():
    games = arena.schedule(["a", "b", "c"], units=3, matches=12, fair=True, seed=1)
    lineups = [g.lineup for g in games[:6]]
    assert len(set(lineups)) == 6 and games[6:] and [g.lineup for g in games[6:]] == lineups
    assert len({g.seed for g in games[:6]}) == 1 != len({g.seed for g in games})
    # each bot sits right after each other one as often as before it
    after = [(lineup[i], lineup[(i + 1) % 3]) for lineup in lineups for i in range(3)]
    assert after.count(("a", "b")) == after.count(("b", "a"))


def test_an_unfair_schedule_still_rotates_seats_but_deals_afresh():
    games = arena.schedule(["random", "greedy"], units=4, matches=2, fair=False, seed=0)
    assert games[0].lineup == ("random", "greedy", "random", "greedy")
    assert games[1].lineup == ("greedy", "random", "greedy", "random")
    assert games[0].seed != games[1].seed


def test_a_match_is_played_to_the_end_and_its_record_replays_to_the_same_result():
    setup = MatchSetup.partnerships(4, 2, target=11)
    outcome = arena.play(setup, arena.Game(5, ("greedy", "random")), keep_record=True)
    assert outcome.winner in (0, 1)
    replayed = record.replay(outcome.record)
    assert replayed["winner"] == outcome.winner
    assert len(replayed["rounds"]) == outcome.rounds
    assert sum(outcome.bids) == outcome.rounds
    assert all(latency >= 0 for latency in outcome.latencies["greedy"])


def test_the_same_deals_come_back_when_the_lineup_is_swapped():
    setup = MatchSetup.partnerships(4, 2, target=11)
    first = arena.play(setup, arena.Game(8, ("greedy", "random")), keep_record=True)
    second = arena.play(setup, arena.Game(8, ("random", "greedy")), keep_record=True)
    deals = [json.loads(o.record)["rounds"][0]["hands"] for o in (first, second)]
    assert deals[0] == deals[1]


def test_wilson_interval_brackets_the_rate():
    low, high = arena.wilson_interval(75, 100)
    assert 0.65 < low < 0.75 < high < 0.83
    assert arena.wilson_interval(0, 0) == (0.0, 1.0)


def test_the_arena_command_prints_one_json_summary_per_bot(tmp_path, capsys):
    records = tmp_path / "matches.jsonl"
    call_command(
        "arena", "--bots", "greedy,random", "--players", "3", "--matches", "4", "--fair",
        "--target", "7", "--seed", "1", "--json", "--records", str(records),
    )  # fmt: skip
    summary = json.loads(capsys.readouterr().out)
    assert set(summary) == {"greedy", "random"}
    for stats in summary.values():
        assert stats["matches"] == 4  # cutthroat: both bots sit in every match
        low, high = stats["win_rate_95"]
        assert low <= stats["win_rate"] <= high
        assert set(stats) >= {
            "wins",
            "points_per_round",
            "bid_success",
            "latency_ms_p50",
            "latency_ms_p95",
        }
    assert summary["greedy"]["wins"] + summary["random"]["wins"] <= 4
    lines = records.read_text().splitlines()
    assert len(lines) == 4 and all("error" not in record.replay(line) for line in lines)


def test_a_lineup_may_name_the_expert_at_its_own_budget():
    assert arena.bot_of("expert@25", {"budget_ms": 250}).budget_ms == 25.0
    assert arena.bot_of("expert", {"budget_ms": 250}).budget_ms == 250
    assert arena.bot_of("greedy", {}).name == "greedy"


def test_the_arena_command_refuses_a_budget_for_a_bot_that_does_not_search():
    with pytest.raises(CommandError, match="greedy@5"):
        call_command("arena", "--bots", "expert,greedy@5", "--matches", "1")
