"""Deal real rounds, play them with the expert, and keep the decisions worth practising.

A job plays one match to a round worth studying: a few quick greedy rounds first (so
the score is not always 0-0), then one round played by the expert. At some of that
round's decisions the seat's view alone is analysed with a larger budget
(``learn.core.analysis``); a decision is kept when it is not forced and the best option
beats the second clearly, by a fixed margin and beyond the sampling error (``Keep``).
Kept positions are appended to the bank file (``learn.bank.bank_file``) and flushed line
by line, so that a run can stop anywhere and resume.
"""

from __future__ import annotations

import json
import multiprocessing
import signal
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field, replace
from pathlib import Path
from random import Random

from game.bots.basic import GreedyBot
from game.bots.expert import ExpertBot
from game.engine.rules import Phase
from game.engine.state import MatchSetup, MatchState
from game.engine.variants import PRESETS
from game.engine.view import SeatView
from learn.core.analysis import Budget, Keep, decision_kind, described, position_at, price

from .bank_file import open_bank

# The chance that a decision of each kind is analysed, by table size. The auction and
# the opening lead are the dearest to analyse and most often end in a tie between
# equivalent options (the king or the ace of the same suit), so they are tried often
# where they can be analysed at all; the cheap later tricks are sampled, or the bank
# would be all endgames.
EXAMINE = {
    3: {"auction": 1.0, "opening": 1.0, "lead": 0.4, "follow": 0.25},
    4: {"auction": 0.6, "opening": 0.5, "lead": 0.4, "follow": 0.25},
    5: {"auction": 0.3, "opening": 0.3, "lead": 0.5, "follow": 0.3},
    6: {"auction": 0.2, "opening": 0.25, "lead": 0.5, "follow": 0.3},
    7: {"auction": 0.2, "opening": 0.2, "lead": 0.5, "follow": 0.3},
    8: {"auction": 0.2, "opening": 0.2, "lead": 0.5, "follow": 0.3},
}
# From five players on, the rest of the first two tricks gets too few sampled deals in
# any affordable budget (none at all in 4 s at six players): those tables are studied in
# the auction, at the opening lead (with a budget of its own, OPENING_BY_PLAYERS) and
# from the third trick on.
LARGE_TABLE = 5
LARGE_TABLE_FIRST_TRICK = 2
LAST_TRICKS = 4  # from the fifth trick on, at most two cards are left: fewer of those
LAST_TRICKS_SHARE = 0.5


# At the full-deck tables every choice is priced by playing it out (game.bots.rollouts,
# game.bots.full_deck), at much the same cost whatever the kind: the suit named and the
# discard, new to these tables and few in a round, are tried most; the auction (a
# decision at every seat) least, or it would fill the bank.
FAMILY_EXAMINE = {"auction": 0.2, "trump": 0.6, "discard": 1.0, "lead": 0.5, "follow": 0.35}


def examine_rate(view: SeatView) -> float:
    kind = decision_kind(view)
    if not view.rules.is_house:
        return FAMILY_EXAMINE[kind]
    tricks_done = len(view.trick_winners)
    rate = EXAMINE[view.players][kind]
    in_first_tricks = kind in ("lead", "follow") and tricks_done < LARGE_TABLE_FIRST_TRICK
    if view.players >= LARGE_TABLE and in_first_tricks:
        return 0.0
    return rate * (LAST_TRICKS_SHARE if tricks_done >= LAST_TRICKS else 1.0)


WARM_UP_ROUNDS = (0, 0, 1, 2, 3, 4)  # greedy rounds before the studied one

# the thinking time and the filter a run uses unless it is given others
DEFAULT_BUDGET, DEFAULT_KEEP = Budget(), Keep()


# --- One job: a match up to one studied round ----------------------------------------


@dataclass(frozen=True)
class Job:
    seed: str
    players: int
    preset: str = "house"  # the table's game (game.engine.variants.PRESETS)
    kinds: tuple[str, ...] = ()  # the decision kinds examined (decision_kind); none: every one


@dataclass(frozen=True)
class JobResult:
    positions: tuple[dict, ...]  # AnalysedPosition.to_json() of each kept decision
    examined: int  # decisions analysed
    # by table size and decision kind ("5p opening"): decisions analysed, kept, and the
    # seconds their analyses took (the quick look, the analysis and the line)
    examined_kinds: dict = field(default_factory=dict)
    kept_kinds: dict = field(default_factory=dict)
    analysis_seconds: dict = field(default_factory=dict)
    seconds: float = 0.0


def run_job(job: Job, budget: Budget = DEFAULT_BUDGET, keep: Keep = DEFAULT_KEEP) -> JobResult:
    started = time.perf_counter()
    rng = Random(job.seed)
    table = PRESETS[job.preset]
    setup = rng.choice(MatchSetup.layouts(job.players, table))
    if not table.is_house:  # every call is priced by playing it out (game.bots.rollouts)
        keep = replace(keep, priced_calls=False)
    match = warm_up(MatchState(setup, rng.randrange(setup.players)), rng)
    match = match.deal_round(rng)
    mover, moves, picks = budget.mover(), Random(f"{job.seed}/moves"), Random(f"{job.seed}/pick")
    kept = []
    examined_kinds, kept_kinds, analysis_seconds = Counter(), Counter(), Counter()
    number = 0
    while match.current_player() is not None:
        seat = match.current_player()
        view = match.view_for(seat)
        legal = view.legal_actions()
        action, contested = _move(mover, view, legal, moves)
        wanted = not job.kinds or decision_kind(view) in job.kinds
        if contested and picks.random() < examine_rate(view) and wanted:
            analysis_started = time.perf_counter()
            kind = f"{job.players}p {decision_kind(view)}"
            examined_kinds[kind] += 1
            analyst = budget.analyst(view)
            screen = Random(f"{job.seed}/{number}/screen")
            if worth_analysing(view, analyst, budget.screener(analyst), keep, screen):
                rng = Random(f"{job.seed}/{number}")
                analysis, options = price(view, analyst, rng, keep)
                if keep.accepts(options, analysis.deals):  # the line only for a kept one
                    assessment = described(view, analysis, options, analyst, rng)
                    kept.append(position_at(match, seat, assessment).to_json())
                    kept_kinds[kind] += 1
            analysis_seconds[kind] += time.perf_counter() - analysis_started
        match = match.apply(action, seat)
        number += 1
    return JobResult(
        tuple(kept),
        examined_kinds.total(),
        dict(examined_kinds),
        dict(kept_kinds),
        dict(analysis_seconds),
        time.perf_counter() - started,
    )


def worth_analysing(
    view: SeatView, analyst: ExpertBot, screener: ExpertBot | None, keep: Keep, rng: Random
) -> bool:
    """Whether the quick look (if any) gives ``analyst``'s long analysis a fair chance
    of being kept: a clear enough margin, and enough deals expected in its budget."""
    if screener is None:
        return True
    started = time.perf_counter()
    # values alone: the points a detailed search also settles are never shown from a look
    analysis, options = price(view, screener, rng, detailed=False)
    seconds = max(time.perf_counter() - started, 1e-6)
    rate = analysis.deals / seconds
    expected = min(analyst.max_deals, int(rate * analyst.budget_ms / 1000))
    return keep.promising(options, analysis.deals, expected)


def warm_up(match: MatchState, rng: Random) -> MatchState:
    """A few quick greedy rounds, so that the studied round has a match score."""
    greedy = GreedyBot()
    for _ in range(rng.choice(WARM_UP_ROUNDS)):
        played = match.deal_round(rng)
        while played.current_player() is not None:
            seat = played.current_player()
            played = played.apply(greedy.choose(played.view_for(seat), played.legal_actions(), rng))
        if played.is_terminal():
            break  # a match that is over has no round left to study
        match = played
    return match


def _move(mover: ExpertBot, view: SeatView, legal: list[int], rng: Random) -> tuple[int, bool]:
    """The expert's move, and whether its quick look saw a difference between options
    (a decision where every option comes out level is not worth a long analysis)."""
    # a discard is one action even when one card may go: legal lists the cards, not discards
    if len(legal) == 1 and view.phase is not Phase.EXCHANGE:
        return legal[0], False
    analysis = mover.analyse(view, legal, rng, detailed=False)
    if not analysis.deals or analysis.estimated:  # no deal solved: the long analysis judges
        return analysis.best if analysis.deals else GreedyBot().choose(view, legal, rng), True
    values = [stats.value for stats in analysis.actions]
    return analysis.best, len(values) > 1 and values[0] > values[1]


def job_stream(
    seed: int, players: Sequence[int], start: int, preset: str = "house", kinds=()
) -> Iterator[Job]:
    """Jobs with seeds of their own; ``start`` (the bank's size) keeps a resumed run
    from replaying the deals of the run before it. A preset other than the house rules
    has its name in the seeds too, so that each preset plays deals of its own."""
    number = 0
    prefix = f"{seed}" if preset == "house" else f"{preset}/{seed}"
    while True:
        yield Job(f"{prefix}/{start}/{number}", players[number % len(players)], preset, kinds)
        number += 1


@dataclass
class Progress:
    added: int = 0
    examined: int = 0
    kept: int = 0  # kept by the filter, duplicates included
    started: float = field(default_factory=time.perf_counter)
    examined_kinds: Counter = field(default_factory=Counter)
    kept_kinds: Counter = field(default_factory=Counter)
    analysis_seconds: Counter = field(default_factory=Counter)

    def count(self, result: JobResult) -> None:
        self.examined += result.examined
        self.kept += len(result.positions)
        self.examined_kinds.update(result.examined_kinds)
        self.kept_kinds.update(result.kept_kinds)
        self.analysis_seconds.update(result.analysis_seconds)

    def by_kind(self) -> list[str]:
        """A line for each table size and decision kind: what its analyses cost and
        kept, the figures the examine rates and budgets are tuned by."""
        return [
            f"{kind}: kept {self.kept_kinds.get(kind, 0)} of {examined} examined "
            f"in {self.analysis_seconds.get(kind, 0.0):.0f} s"
            for kind, examined in sorted(self.examined_kinds.items())
        ]


def generate(
    path: Path,
    *,
    count: int,
    players: Sequence[int],
    workers: int = 1,
    seed: int = 0,
    preset: str = "house",
    kinds: tuple[str, ...] = (),
    budget: Budget = DEFAULT_BUDGET,
    keep: Keep = DEFAULT_KEEP,
    on_result: Callable[[Progress, int], None] | None = None,
) -> Progress:
    """Add positions to the bank at ``path`` until it holds ``count`` (of ``preset``'s
    tables, where the bank holds several presets)."""
    bank = open_bank(path)
    progress = Progress()
    held = bank.count_of(preset)
    if held >= count:
        return progress
    jobs = job_stream(seed, players, held, preset, tuple(kinds))
    results = job_results(jobs, budget, keep, workers)
    with bank.path.open("a", encoding="utf-8") as out, closing(results):
        for result in results:
            progress.count(result)
            for item in result.positions:
                if held >= count:
                    break
                if item["key"] in bank.keys:
                    continue
                out.write(json.dumps(item, separators=(",", ":")) + "\n")
                out.flush()
                bank.add(item["key"], preset)
                held += 1
                progress.added += 1
            if on_result:
                on_result(progress, held)
            if held >= count:
                break
    return progress


# Jobs handed to the pool per worker beyond the one whose result is awaited: results are
# taken in order, and a six-player job can take a minute while a three-player one takes a
# second, so with two a worker sat idle behind a long job until it was done.
JOBS_AHEAD = 8


def job_results(jobs: Iterator[Job], budget: Budget, keep: Keep, workers: int):
    """The jobs' results in order, run by ``workers`` processes (here, with one)."""
    if workers <= 1:
        for job in jobs:
            yield run_job(job, budget, keep)
        return
    # a pool's terminate() stops the workers at once when the run ends or is interrupted
    with multiprocessing.get_context("fork").Pool(workers, initializer=_worker_signals) as pool:
        pending = deque(
            pool.apply_async(run_job, (next(jobs), budget, keep))
            for _ in range(workers * JOBS_AHEAD)
        )
        while True:
            result = pending.popleft().get()
            pending.append(pool.apply_async(run_job, (next(jobs), budget, keep)))
            yield result


def _worker_signals() -> None:
    # Ctrl-C reaches the whole process group: the parent alone handles it, and stops
    # the workers with SIGTERM, which must not run a handler inherited from the parent
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
