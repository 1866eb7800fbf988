"""The generator keeps only clear decisions, and its bank file resumes cleanly."""

import json
import time
from dataclasses import dataclass, replace
from pathlib import Path
from random import Random
from types import SimpleNamespace

import pytest
from django.core.management import CommandError, call_command

from game.bots.basic import GreedyBot
from game.bots.expert import ActionStats, ExpertBot
from game.engine.rules import PASS, bid_action
from game.engine.state import MatchSetup, MatchState
from learn import generation
from learn.generation import (
    Budget,
    JobResult,
    Keep,
    decision_kind,
    examine_rate,
    open_bank,
)
from learn.positions import Position
from tests.learn.fixtures.factories import options, outcome, sample_json

# no clock: a fixed number of sampled deals, so runs repeat exactly and stay quick
TINY = Budget(
    analysis_ms=1e9, max_deals=4, opening_factor=1, first_trick_factor=1, move_ms=1e9, move_deals=2
)
LENIENT = Keep(min_margin=0.3, z=1.0, min_deals=4)


def read_bank(path) -> list[Position]:
    return [Position.from_json(json.loads(line)) for line in path.read_text().splitlines()]


# --- The filter ----------------------------------------------------------------------


def test_a_clear_best_is_kept():
    assert Keep().accepts(options(("AS", 2.0), ("KS", 1.0), se=0.1), deals=20)


def test_a_forced_or_level_decision_is_not_kept():
    assert not Keep().accepts(options(("AS", 2.0), se=0.1), deals=20)
    assert not Keep().accepts(options(("AS", 2.0), ("KS", 2.0), se=0.1), deals=20)


def test_a_margin_under_the_threshold_is_not_kept():
    assert not Keep(min_margin=0.3).accepts(options(("AS", 2.0), ("KS", 1.8), se=0.01), 20)


def test_a_margin_inside_the_sampling_error_is_not_kept():
    # 1.0 apart, but each value is uncertain by 0.5: 1.0 < 2 * hypot(0.5, 0.5)
    assert not Keep(z=2.0).accepts(options(("AS", 2.0), ("KS", 1.0), se=0.5), deals=20)


def test_a_margin_beyond_its_paired_error_is_kept_though_the_two_errors_overlap():
    # both priced on the same deals: the best leads by about 1.0 in every one of them
    best, second = options(("AS", 2.0), ("KS", 1.0), se=0.5)
    paired = (replace(best, margin_se=0.0), replace(second, margin_se=0.2))
    assert Keep(z=2.0).accepts(paired, deals=20)
    assert not Keep(z=2.0).accepts((best, replace(second, margin_se=0.6)), deals=20)


def test_too_few_sampled_deals_are_not_kept():
    assert not Keep(min_deals=8).accepts(options(("AS", 2.0), ("KS", 0.0), se=0.0), deals=3)


def searched_calls(*pairs: tuple[str, float], made: float | None) -> tuple:
    """Calls as the search of the rest of the auction prices them; ``made`` is each bid's
    chance once it wins the auction."""
    found = options(*pairs, se=0.05)
    return tuple(
        replace(o, auction=replace(outcome(o.code), made=None if o.code == "pass" else made))
        for o in found
    )


def test_passing_when_every_bid_is_hopeless_is_no_lesson():
    assert not Keep().accepts(searched_calls(("pass", 0.5), ("bid:4", -5.0), made=0.1), 20)
    assert Keep().accepts(searched_calls(("pass", 0.5), ("bid:4", -5.0), made=0.6), 20)


def test_a_searched_pass_that_is_best_by_a_margin_is_kept():
    # the bids would be made, but the seats after them take the auction or its points
    calls = searched_calls(("pass", -0.2), ("bid:2", -1.1), ("bid:3", -2.5), made=0.7)
    assert Keep().accepts(calls, deals=60)
    # a bid that never wins the auction has no chance of being made: no evidence either way
    never_leads = searched_calls(("pass", -0.2), ("bid:2", -1.1), made=None)
    assert Keep().accepts(never_leads, deals=60)


def test_a_call_priced_without_the_rest_of_the_auction_is_not_kept():
    # the old analysis: a pass worth a constant 0.5 and no outcome behind any call
    old = options(("pass", 0.5), ("bid:4", -5.0), se=0.0, made=0.6)
    assert not Keep().accepts(old, deals=20)
    assert Keep(priced_calls=False).accepts(old, deals=20)
    assert Keep().accepts(options(("AS", 2.0), ("KS", 1.0), se=0.1), deals=20)  # cards: no calls


# --- Ending an analysis once its verdict is settled --------------------------------------


def test_an_analysis_kept_far_beyond_its_error_is_settled_once_it_has_enough_deals():
    clear = options(("AS", 2.0), ("KS", 1.0), se=0.1)  # 1.0 apart, error 0.14: 7 errors
    assert Keep(settle_z=4.0, settle_kept_deals=36).settled(clear, deals=36, expected=120)
    assert not Keep(settle_z=4.0, settle_kept_deals=36).settled(clear, deals=24, expected=120)
    # 1.0 apart with an error of 0.35: kept today, but not yet beyond doubt
    assert not Keep(settle_z=4.0).settled(options(("AS", 2.0), ("KS", 1.0), se=0.25), 36, 120)


def test_an_analysis_short_of_the_margin_even_given_the_doubt_is_settled():
    # 0.1 apart, error 0.07: at best 0.24 < 0.3
    short = options(("AS", 2.0), ("KS", 1.9), se=0.05)
    assert Keep(settle_dropped_deals=16).settled(short, deals=16, expected=120)
    assert not Keep(settle_dropped_deals=16).settled(short, deals=12, expected=120)


def test_an_analysis_whose_budget_cannot_shrink_the_error_enough_is_settled():
    # 1.0 apart with an error of 1.41: the 24 deals the budget reaches shrink it to 1.15;
    # a margin drifting up by one deviation (0.82) still falls short of 2 x 1.15
    wide = options(("AS", 2.0), ("KS", 1.0), se=1.0)
    assert Keep().settled(wide, deals=16, expected=24)
    # with many more deals to come, it is worth going on
    assert not Keep().settled(wide, deals=16, expected=1600)


def test_a_forced_or_hopeless_decision_is_settled_and_a_close_one_goes_on():
    assert Keep().settled(options(("AS", 2.0), se=0.1), deals=16, expected=120)
    hopeless = searched_calls(("pass", 0.5), ("bid:4", -5.0), made=0.1)
    assert Keep().settled(hopeless, deals=16, expected=120)
    close = options(("AS", 2.0), ("KS", 1.6), se=0.2)  # 0.4 apart, error 0.28: wait and see
    assert not Keep().settled(close, deals=24, expected=120)


def test_a_settled_analysis_stops_before_its_deal_limit_and_an_open_one_does_not(monkeypatch):
    state = MatchState(MatchSetup.partnerships(4, 2), 0).deal_round(Random(5))
    while state.current_player() is not None and state.round.bidder is None:
        state = state.apply(GreedyBot().choose(state.view_for(state.current_player()),
                                               state.legal_actions(), Random(0)))  # fmt: skip
    view = state.view_for(state.current_player())
    analyst = ExpertBot(budget_ms=1e9, max_deals=40)
    seen = []

    def settled_at_once(options, deals, expected):
        seen.append((deals, expected))
        return True

    monkeypatch.setattr(Keep, "settled", lambda self, *args: settled_at_once(*args))
    analysis, _ = generation.price(view, analyst, Random(1), Keep())
    assert analysis.deals == seen[0][0] < 40 and seen == [(analysis.deals, 40)]
    monkeypatch.setattr(Keep, "settled", lambda self, *args: False)
    assert generation.price(view, analyst, Random(1), Keep())[0].deals == 40


# --- The quick look before a dear analysis ---------------------------------------------


def test_a_quick_look_with_a_clear_margin_is_worth_the_long_analysis():
    assert Keep().promising(options(("AS", 2.0), ("KS", 1.0), se=0.3), deals=12, expected=120)


def test_a_quick_look_that_cannot_reach_the_margin_even_given_the_doubt_is_dropped():
    # 0.1 apart, each value uncertain by 0.05: at best 0.1 + 2 * 0.07 < 0.3
    assert not Keep().promising(options(("AS", 2.0), ("KS", 1.9), se=0.05), 12, 120)
    assert Keep().promising(options(("AS", 2.0), ("KS", 1.9), se=0.2), 12, 120)


def test_a_quick_look_that_finds_two_options_level_or_too_few_deals_is_dropped():
    level = options(("QC", -3.98), ("KC", -3.98), ("7D", -4.2), se=0.34)
    assert not Keep().promising(level, deals=23, expected=120)
    clear = options(("AS", 2.0), ("KS", 0.0), se=0.1)
    assert not Keep().promising(clear, deals=1, expected=120)
    assert not Keep(min_deals=8).promising(clear, deals=12, expected=7)
    assert not Keep().promising(searched_calls(("pass", 0.5), ("bid:4", -5.0), made=0.1), 12, 120)


def test_only_a_dear_analysis_gets_a_quick_look_first():
    budget = Budget()
    assert budget.screener(ExpertBot(budget_ms=40, max_deals=120)) is None
    assert budget.screener(ExpertBot(budget_ms=1e9, max_deals=4)) is None  # no room for a look
    look = budget.screener(ExpertBot(budget_ms=20_000, max_deals=120))
    assert look.budget_ms == 2000 and look.max_deals == budget.screen_deals


# --- Options from the analysis -------------------------------------------------------------


@dataclass(frozen=True)
class SearchedStats:
    """ActionStats as the expert's search of the rest of the auction reports them."""

    action: int
    value: float
    value_se: float
    points: tuple[float, float] | None
    made: float | None
    auction: SimpleNamespace | None = None
    margin_se: float | None = None


def test_an_auction_option_keeps_its_outcome_and_a_searched_pass_its_points():
    searched = SimpleNamespace(
        lead=0.2, outbid=0.0, winning_bid=2.4567, made=0.51234, others_made=0.7, others_points=2.9
    )
    option = generation._option(
        SearchedStats(PASS, 0.4, 0.1, (1.0, 2.0), None, searched, margin_se=0.04567), "auction"
    )
    assert option.code == "pass" and option.points == (1.0, 2.0)
    assert option.margin_se == 0.046
    assert option.auction.lead == 0.2 and option.auction.winning_bid == 2.46
    assert option.auction.made == 0.512 and option.auction.others_points == 2.9


def test_an_older_analysis_gives_no_outcome_and_a_pass_no_points():
    old = ActionStats(PASS, 0.5, 0.0, (0, 0), None)
    assert generation._option(old, "auction").points is None
    assert generation._option(old, "auction").auction is None
    bid = generation._option(ActionStats(bid_action(2), 0.3, 0.1, (2.5, 2.5), 0.8), "auction")
    assert bid.points == (2.5, 2.5) and bid.auction is None


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

STARTER = Path(__file__).resolve().parents[2] / "learn" / "fixtures"


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


def test_a_quick_look_prices_the_opening_lead_as_the_full_analysis_does_without_points():
    state = MatchState(MatchSetup.partnerships(4, 2), 0).deal_round(Random(5))
    while state.round.in_auction():
        state = state.apply(GreedyBot().choose(state.view_for(state.current_player()),
                                               state.legal_actions(), Random(0)))  # fmt: skip
    view = state.view_for(state.current_player())
    analyst = ExpertBot(budget_ms=1e9, max_deals=8)
    _, detailed = generation.price(view, analyst, Random(1))
    _, look = generation.price(view, analyst, Random(1), detailed=False)
    assert [(o.code, o.value) for o in look] == [(o.code, o.value) for o in detailed]
    assert len({o.value for o in look}) > 1  # the leads differ: the comparison says something
    assert all(o.points is None for o in look) and all(o.points is not None for o in detailed)


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
