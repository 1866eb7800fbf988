"""Exact double-dummy search: the engine's one entry point to it.

The functions here use the native core (``solver_native``, C++ built by pip from
``native/``) when it imports, and the pure-Python search (``solver_py``, the reference and
the fallback) otherwise; both stay importable on their own. Values mean the same either
way (see ``solver_py`` for the search and the utility table): the differential tests
prove them equal.

Besides one position at a time, ``solve_sampled`` deals and solves many positions
consistent with one seat's ``Knowledge`` in one call; in the core the whole loop runs in
C++ with the GIL released.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from time import perf_counter

from . import knowledge as _knowledge
from . import solver_native, solver_py
from .cards import cards_of
from .knowledge import Knowledge, NoConsistentDeal
from .rules import Phase, is_card, legal_cards
from .solver_py import (
    INFINITY,
    MAX_POINTS,
    Position,
    SampledSolve,
    SearchStats,
    SearchTimeout,
    Utility,
    advance,
    utility_side_moves,
)

__all__ = [
    "INFINITY", "MAX_POINTS", "Knowledge", "NoConsistentDeal", "Position", "SampledSolve",
    "SearchStats", "SearchTimeout", "Utility", "action_values", "advance", "best_card",
    "native_available", "native_unavailable_reason", "position_of", "principal_variation",
    "sample_deals", "solve", "solve_each", "solve_sampled", "utility_side_moves",
]  # fmt: skip

logger = logging.getLogger(__name__)

_backend = solver_native if solver_native.available() else solver_py
if _backend is solver_py:
    logger.warning(
        "the native search core is unavailable, searching in Python (slower): %s",
        solver_native.UNAVAILABLE_BECAUSE,
    )


def native_available() -> bool:
    return solver_native.available()


def native_unavailable_reason() -> str:
    """Why the core is not in use; empty when it is."""
    return solver_native.UNAVAILABLE_BECAUSE


def position_of(state) -> Position:
    """A round state's complete deal as the solver's Position (card play only).

    Takes any object with a RoundState's fields, so the state need not import the solver.
    """
    if state.phase() is not Phase.PLAY:
        raise ValueError("the solver takes positions in card play")
    table = None if state.setup.rules.is_house else state.setup.rules
    dealt = state.deal.hands
    if table is not None:  # what each seat kept after the exchange: its hand and its plays
        kept = list(state.hands)
        for seat, action in state.seated_history():
            if is_card(action):
                kept[seat] |= 1 << action
        dealt = tuple(kept)
    return Position(
        unit_of=state.setup.unit_of,
        hands=state.hands,
        dealt=dealt,
        trump=state.trump,
        leader=state.leader,
        trick=state.trick,
        taken=state.captured,
        table=table,
    )


def _backend_for(position: Position):
    """The core plays the house rules and every full-deck preset; a table it does not
    play (points without game) searches in Python."""
    table = position.table
    if table is None or _backend is solver_py or solver_native.supports(table):
        return _backend
    return solver_py


def solve(position: Position, utility: Utility, stats: SearchStats | None = None) -> int:
    """The exact value of the position to the maximising side."""
    return _backend_for(position).solve(position, utility, stats)


def solve_each(
    jobs: Sequence[tuple[Position, Utility]], *, deadline: float, share: float, least_s: float
) -> list[int | None]:
    """Each position's exact value, or None where its time ran out first: a position may
    take ``share`` of the time left to ``deadline`` when its search starts (at least
    ``least_s``, at most up to ``deadline``). The core releases the GIL, so the positions
    are shared between two threads while a core is idle."""

    def value(job: tuple[Position, Utility]) -> int | None:
        stats = SearchStats(deadline=_deal_deadline(deadline, share, least_s))
        try:
            return solve(*job, stats)
        except SearchTimeout:
            return None

    if len(jobs) < 2 or idle_threads() < 2:
        return [value(job) for job in jobs]
    return list(_pool().map(value, jobs))


def idle_threads() -> int:
    """Threads worth searching on now: two while the last minute's load average leaves a
    whole core idle, else one (the core's rule for ``solve_sampled``); one in Python."""
    return solver_native.idle_threads() if _backend is solver_native else 1


_threads: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _threads
    if _threads is None:
        _threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="solve")
    return _threads


def action_values(
    position: Position, utility: Utility, stats: SearchStats | None = None
) -> dict[int, int]:
    """The exact value, to the maximising side, of every legal card for the seat to act."""
    return _backend_for(position).action_values(position, utility, stats)


def best_card(position: Position, utility: Utility) -> int:
    """A card that achieves the position's exact value: the first in the search's order."""
    return _backend_for(position).best_card(position, utility)


def principal_variation(position: Position, utility: Utility) -> list[int]:
    """One line of best play to the end of the round."""
    return _backend_for(position).principal_variation(position, utility)


def sample_deals(known: Knowledge, count: int, seed: int) -> list[Position]:
    """``count`` deals consistent with ``known``; deal ``i`` depends only on (seed, i), and
    the core and the Python sampler deal the same ones."""
    if _backend is solver_native:
        return solver_native.sample_deals(known, count, seed)
    return _knowledge.sample_deals(known, count, seed)


def solve_sampled(
    known: Knowledge,
    utility: Utility,
    *,
    count: int,
    seed: int,
    mode: str = "actions",
    budget_ms: float | None = None,
    min_count: int = 1,
    threads: int | None = None,
    deal_share: float = 0.0,
    exact_tricks: int = 0,
) -> SampledSolve:
    """Deal ``count`` positions from ``known`` and solve each. ``budget_ms`` is honoured
    inside the search once ``min_count`` deals are solved; a deal it interrupts is
    dropped, never returned half-solved. The core shares the deals between ``threads``
    threads (1 or 2; by default two while the last minute's load average leaves a whole
    core idle, else one); values never depend on it. With ``deal_share`` above 0 a timed
    deal may take at most that share of the time left when it starts: one that takes
    longer is dropped and the next one tried, so one hard deal cannot spend the budget
    (the deals kept lean to the easier ones). With ``exact_tricks`` above 0 the values are
    ESTIMATES (the native core only): that many tricks searched exactly, the current one
    first, and each position after them valued from what is decided, the open points
    shared evenly."""
    if not 0 <= deal_share <= 1:
        raise ValueError(f"a deal's share is 0 to 1, not {deal_share}")
    if mode not in ("actions", "value"):
        raise ValueError(f"mode is 'actions' or 'value', not {mode!r}")
    actions = mode == "actions"
    if actions and (known.leader + len(known.trick)) % known.players != known.seat:
        raise ValueError("actions are priced for the seat to act")
    if exact_tricks < 0:
        raise ValueError(f"exact tricks cannot be negative, not {exact_tricks}")
    if _backend is solver_native:
        return solver_native.solve_sampled(
            known, utility, count=count, seed=seed, actions=actions, budget_ms=budget_ms,
            min_count=min_count, threads=threads, deal_share=deal_share,
            exact_tricks=exact_tricks,
        )  # fmt: skip
    if exact_tricks:
        raise ValueError("estimates (exact_tricks) need the native core")
    return _solve_sampled_py(known, utility, count, seed, actions, budget_ms, min_count, deal_share)


def _solve_sampled_py(
    known, utility, count, seed, actions, budget_ms, min_count, deal_share=0.0
) -> SampledSolve:
    deadline = None if budget_ms is None else perf_counter() + budget_ms / 1000
    led = known.trick[0] if known.trick else -1
    cards = tuple(cards_of(legal_cards(known.hand, led, known.trump)))
    positions, values, nodes, complete, dropped = [], [], 0, True, 0
    for index in range(count):
        timed = deadline is not None and index >= min_count
        if timed and perf_counter() > deadline:
            complete = False
            break
        position = _knowledge.sample_deal(known, seed, index)
        stats = SearchStats(deadline=_deal_deadline(deadline, deal_share) if timed else None)
        try:
            if actions:
                found = solver_py.action_values(position, utility, stats)
                row = tuple(found[card] for card in cards)
            else:
                row = (solver_py.solve(position, utility, stats),)
        except SearchTimeout:
            nodes += stats.nodes
            complete = False
            dropped += 1
            if perf_counter() > deadline:
                break
            continue
        nodes += stats.nodes
        positions.append(position)
        values.append(row)
    return SampledSolve(tuple(positions), tuple(values), cards, complete, nodes, dropped)


def _deal_deadline(deadline: float, share: float, least_s: float = 0.0) -> float:
    """When a search starting now must end: ``share`` of the time left to ``deadline`` (at
    least ``least_s``, never past ``deadline``); all of it with no share."""
    if share <= 0:
        return deadline
    now = perf_counter()
    return min(deadline, now + max(least_s, max(0.0, deadline - now) * share))
