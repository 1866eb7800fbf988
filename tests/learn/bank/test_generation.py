"""The generator keeps only clear decisions, and its bank file resumes cleanly."""

import json
import time
from pathlib import Path
from random import Random

import pytest
from django.core.management import CommandError, call_command

from game.bots.basic import GreedyBot
from game.engine.state import MatchSetup, MatchState
from learn.bank import generation
from learn.bank.bank_file import open_bank
from learn.bank.generation import JobResult, examine_rate
from learn.core.analysis import Budget, Keep, decision_kind
from learn.core.positions import AnalysedPosition
from tests.learn.fixtures.factories import sample_json

TINY = Budget(
    analysis_ms=1e9, max_deals=4, opening_factor=1, first_trick_factor=1, move_ms=1e9, move_deals=2
)
LENIENT = Keep(min_margin=0.3, z=1.0, min_deals=4)


def read_bank(path) -> list[AnalysedPosition]:
    return [AnalysedPosition.from_json(json.loads(line)) for line in path.read_text().splitlines()]


# --- What is dealt -----------------------------------------------------------------------


def test_table_layouts_include_cutthroat_and_every_even_partnership():
    layouts = MatchSetup.layouts
    assert [s.teams for s in layouts(3)] == [((0,), (1,), (2,))]
    assert ((0, 2), (1, 3)) in [s.teams for s in layouts(4)]
    six = {s.units for s in layouts(6)}
    assert six == {6, 3, 2}


def round_rates(players: int) -> tuple[dict, dict]:
    """Each (decision kind, tricks done) of one greedy round: its examine rate and budget."""
    state = MatchState(MatchSetup.cutthroat(players), 0).deal_round(Random(1))
    greedy, rates, budgets = GreedyBot(), {}, {}
    while state.current_player() is not None:
        view = state.view_for(state.current_player())
        point = (decision_kind(view), len(view.trick_winners))
        rates.setdefault(point, examine_rate(view))
        budgets.setdefault(point, Budget().analyst(view).budget_ms)
        state = state.apply(greedy.choose(view, view.legal_actions(), Random(2)))
    return rates, budgets


def test_large_tables_are_studied_at_the_auction_the_opening_and_from_the_third_trick():
    rates, budgets = round_rates(6)
    assert rates[("auction", 0)] > 0 and rates[("opening", 0)] > 0
    assert rates[("follow", 0)] == 0 and rates[("lead", 1)] == 0
    assert rates[("lead", 2)] > 0 and budgets[("lead", 2)] == Budget.analysis_ms


@pytest.mark.parametrize("players", range(3, 9))
def test_every_table_size_studies_auctions_opening_leads_later_leads_and_follows(players):
    rates, _ = round_rates(players)
    for kind in ("auction", "opening", "lead", "follow"):
        assert any(rate > 0 for (k, _), rate in rates.items() if k == kind), kind


def test_the_opening_lead_gets_more_time_the_more_hands_there_are():
    budgets = [round_rates(players)[1][("opening", 0)] for players in range(3, 9)]
    assert budgets == sorted(budgets) and budgets[0] < budgets[-1]


def test_a_small_run_keeps_only_clear_unforced_decisions(tmp_path):
    path = tmp_path / "bank.jsonl"
    progress = generation.generate(path, count=2, players=[3], seed=5, budget=TINY, keep=LENIENT)
    bank = read_bank(path)
    assert len(bank) == 2 and progress.added == 2
    assert progress.examined >= progress.kept >= 2
    for position in bank:
        assert len(position.legal_codes()) >= 2
        best, second = position.options[0], position.options[1]
        margin = best.value - second.value
        assert margin >= LENIENT.min_margin
        # every option priced on the same deals: the margin's error is theirs, paired
        assert best.margin_se == 0.0 and second.margin_se is not None
        assert margin > LENIENT.z * second.margin_error(best)
        assert position.deals >= LENIENT.min_deals
        assert LENIENT.accepts(position.options, position.deals)


def test_a_run_reports_what_each_table_size_and_kind_examined_kept_and_cost(tmp_path):
    path = tmp_path / "bank.jsonl"
    progress = generation.generate(path, count=3, players=[3], seed=5, budget=TINY, keep=LENIENT)

    assert sum(progress.examined_kinds.values()) == progress.examined
    assert sum(progress.kept_kinds.values()) == progress.kept
    assert set(progress.analysis_seconds) == set(progress.examined_kinds)
    assert all(kind.startswith("3p ") for kind in progress.examined_kinds)
    elapsed = time.perf_counter() - progress.started
    assert 0 < sum(progress.analysis_seconds.values()) <= elapsed
    lines = progress.by_kind()
    assert len(lines) == len(progress.examined_kinds)
    kind, examined = sorted(progress.examined_kinds.items())[0]
    assert lines[0].startswith(f"{kind}: kept {progress.kept_kinds.get(kind, 0)} of {examined}")


# --- The bank file ------------------------------------------------------------------------


@pytest.fixture
def canned(monkeypatch):
    """Jobs that hand back sample positions, repeating some, without any search."""
    items = sample_json()
    calls = []

    def fake_run_job(job, budget, keep):
        number = len(calls)
        calls.append(job)
        # each job returns two positions, the second a repeat of an earlier one
        fresh = items[number % len(items)]
        return JobResult((fresh, items[0]), examined=5)

    monkeypatch.setattr(generation, "run_job", fake_run_job)
    return calls


def test_resume_continues_without_duplicates_or_rewrites(tmp_path, canned):
    path = tmp_path / "bank.jsonl"
    generation.generate(path, count=4, players=[3, 4])
    before = path.read_bytes()
    generation.generate(path, count=7, players=[3, 4])
    after = path.read_bytes()
    assert after.startswith(before)
    keys = [json.loads(line)["key"] for line in after.decode().splitlines()]
    assert len(keys) == 7 == len(set(keys))


def test_a_truncated_last_line_is_dropped_and_the_run_goes_on(tmp_path, canned):
    path = tmp_path / "bank.jsonl"
    generation.generate(path, count=2, players=[3])
    complete = path.read_bytes()
    path.write_bytes(complete + b'{"key": "cut off mid-wr')
    assert open_bank(path).count == 2
    assert path.read_bytes() == complete
    generation.generate(path, count=3, players=[3])
    assert path.read_bytes().startswith(complete)
    assert len(read_bank(path)) == 3


def test_a_full_bank_is_left_alone(tmp_path, canned):
    path = tmp_path / "bank.jsonl"
    generation.generate(path, count=2, players=[3])
    before = path.read_bytes()
    progress = generation.generate(path, count=2, players=[3])
    assert progress.added == 0 and path.read_bytes() == before


def test_resumed_runs_deal_new_rounds(tmp_path, canned):
    path = tmp_path / "bank.jsonl"
    generation.generate(path, count=2, players=[3])
    first_seeds = {job.seed for job in canned}
    generation.generate(path, count=4, players=[3])
    later_seeds = {job.seed for job in canned} - first_seeds
    assert later_seeds and not later_seeds & first_seeds


# --- The command --------------------------------------------------------------------------


def test_the_command_fills_the_file_and_reports_its_figures(tmp_path, canned, capsys):
    path = tmp_path / "out.jsonl"
    call_command("generate_positions", count=3, players="3,4", out=str(path), budget_ms=10)
    assert len(read_bank(path)) == 3
    assert "kept" in capsys.readouterr().out


@pytest.mark.parametrize("players", ["2", "3,x", "9", ""])
def test_the_command_refuses_impossible_tables(tmp_path, players):
    with pytest.raises(CommandError):
        call_command("generate_positions", count=1, players=players, out=str(tmp_path / "x"))


# --- The starter bank ---------------------------------------------------------------------

STARTER = Path(__file__).resolve().parents[3] / "learn" / "fixtures"


def test_the_starter_bank_reads_back_whole_and_without_repeats():
    path = STARTER / "starter_positions.jsonl"
    if not path.exists():
        pytest.skip("no starter bank generated yet")
    bank = read_bank(path)
    assert len({p.key for p in bank}) == len(bank)
    assert {p.players for p in bank} == {3, 4, 5, 6, 7, 8}
    assert {p.phase for p in bank} == {"auction", "lead", "follow"}
    for players in range(3, 9):  # auctions and opening leads at every table size
        here = [p for p in bank if p.players == players]
        assert any(p.phase == "auction" for p in here), players
        assert any(p.phase == "lead" and p.tricks_done == 0 for p in here), players
    assert all(Keep().accepts(p.options, p.deals) for p in bank)


LATER_JOBS = 8  # the first job lasts until this many later ones are done
_FINISHED: Path | None = None  # where each later job leaves word that it is done


def _finish_time(job, budget, keep):
    finished = time.monotonic()
    if not job.seed.endswith("/0"):
        (_FINISHED / job.seed.replace("/", "-")).touch()
        return finished
    # the first job is the long one: it ends once the other worker has gone on with later
    # jobs, and fails the run if that never happens
    deadline = finished + 60
    while len(list(_FINISHED.iterdir())) < LATER_JOBS:
        if time.monotonic() > deadline:
            raise AssertionError(f"no {LATER_JOBS} later jobs done while the first ran")
        time.sleep(0.01)
    return time.monotonic()


def test_workers_go_on_with_later_jobs_while_the_first_is_long_and_results_stay_in_order(
    monkeypatch, tmp_path
):
    monkeypatch.setattr(generation, "run_job", _finish_time)  # the forked workers see it
    monkeypatch.setitem(globals(), "_FINISHED", tmp_path)  # and this too
    results = generation.job_results(generation.job_stream(0, [3], 0), Budget(), Keep(), 2)
    finished = [next(results) for _ in range(12)]
    results.close()
    behind_the_first = sum(t < finished[0] for t in finished[1:])
    assert behind_the_first >= 8  # not only the three jobs handed out beside it
