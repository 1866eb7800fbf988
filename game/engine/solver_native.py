"""The native search core (``smear_native``, built from ``native/``), in the solver's terms.

The same functions and meanings as ``solver_py``; ``solver`` dispatches here when the
core imports. The core learns the house rules as data, once, at import: suits, ranks, game
values and the jokers come from ``cards``; it restates only the trick rules (proved
equal to ``rules`` by the differential tests). A full-deck table's rules travel with each
position as a ``smear_native.Table`` compiled from ``rules_data(table)``: its deck, each
trump suit's ranking and point cards, its follow rule, read from ``rules`` and
``variants`` (the core renumbers the cards so that the same search plays them).

Positions and knowledge travel as the core's named classes (``smear_native.Position``,
``smear_native.Knowledge``, fields as in ``solver_py.Position`` and ``Knowledge``),
utilities as a ``(side units, table)`` pair; the core checks them and raises
``ValueError`` on anything malformed. A batch answers as ``smear_native.SampledDeals``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from time import perf_counter

from .cards import (
    CARD_COUNT,
    GAME_VALUE,
    HAND_SIZE,
    JACK,
    JOKER_1,
    JOKER_2,
    RANK_OF,
    SUIT_OF,
    cards_of,
    full_deck,
)
from .knowledge import MASK64, Knowledge, NoConsistentDeal
from .rules import point_roles, trumps_of
from .solver_py import Position, SampledSolve, SearchStats, SearchTimeout, Utility
from .variants import Rules

try:
    import smear_native as _core
except ImportError as error:  # the core was not built: solver falls back to solver_py
    _core = None
    UNAVAILABLE_BECAUSE = f"the native core smear_native did not import ({error})"
else:
    UNAVAILABLE_BECAUSE = ""


@dataclass(frozen=True)
class RulesData:
    """What the core is told about the rules: house rules today, table variants later."""

    suit_of: tuple[int, ...]
    rank_of: tuple[int, ...]  # must rise with the card code within a suit
    game_value: tuple[int, ...]
    jokers: tuple[int, ...]
    jack_rank: int
    deck: int  # every card code
    hand_size: int


HOUSE_RULES = RulesData(
    suit_of=SUIT_OF,
    rank_of=RANK_OF,
    game_value=GAME_VALUE,
    jokers=(JOKER_1, JOKER_2),
    jack_rank=JACK,
    deck=(1 << CARD_COUNT) - 1,
    hand_size=HAND_SIZE,
)


def available() -> bool:
    return _core is not None


def configure(core, data: RulesData) -> None:
    """Tell a core module (ours, or another build of it: bench/solver_ab.py) the rules."""
    core.configure(
        list(data.suit_of), list(data.rank_of), list(data.game_value), list(data.jokers),
        data.jack_rank, data.deck, data.hand_size,
    )  # fmt: skip


if _core is not None:
    configure(_core, HOUSE_RULES)


def supports(table: Rules) -> bool:
    """Whether the core plays this full-deck table (every preset does; a table whose
    points leave out game searches in Python)."""
    return "game" in table.points and table.high_low == "ace_two"


def rules_data(table: Rules):
    """A full-deck table's rules as the core's ``RulesData``: the deck, each trump suit's
    ranking lowest first (the jick and the jokers among them), the follow rule, and per
    trump suit the cards scoring for their capturer and for their holder."""
    trumps = [trumps_of(suit, table.jick, table.jokers) for suit in range(4)]
    roles = [point_roles(table.points, t) for t in trumps]
    return _core.RulesData(
        deck=full_deck(table.jokers),
        suit_of=list(SUIT_OF),
        rank_of=list(RANK_OF),
        game_value=list(GAME_VALUE),
        trump_order=[sorted(cards_of(t.cards), key=t.strength.__getitem__) for t in trumps],
        follow=table.follow,
        capture_points=[captured for captured, _ in roles],
        holder_points=[held for _, held in roles],
        game="game" in table.points,
    )


@cache
def table_rules(table: Rules):
    """The core's compiled rules of a full-deck table (one per distinct rules value)."""
    return _core.Table(rules_data(table))


def _position(p: Position, core=None):
    """``p`` as the core's Position (``core``: another build of it, bench/solver_ab.py)."""
    return (core or _core).Position(
        unit_of=p.unit_of, hands=p.hands, dealt=p.dealt, trump=p.trump, leader=p.leader,
        trick=p.trick, taken=p.taken,
    )  # fmt: skip


def _knowledge(k: Knowledge):
    return _core.Knowledge(
        unit_of=k.unit_of, seat=k.seat, hand=k.hand, unseen=k.unseen, needs=k.needs,
        barred=k.barred, played_by=k.played_by, trump=k.trump, leader=k.leader, trick=k.trick,
        taken=k.taken,
    )  # fmt: skip


def _table(p: Position):
    return None if p.table is None else table_rules(p.table)


def _utility(u: Utility) -> tuple:
    return (sorted(u.side), u.table)


def _seconds_left(stats: SearchStats | None) -> float | None:
    if stats is None or stats.deadline is None:
        return None
    return stats.deadline - perf_counter()


def _count(stats: SearchStats | None, nodes: int) -> None:
    if stats is not None:
        stats.nodes += nodes


def idle_threads() -> int:
    return _core.idle_threads()


def solve(position: Position, utility: Utility, stats: SearchStats | None = None) -> int:
    value, nodes = _core.solve(
        _position(position), _utility(utility), _seconds_left(stats), _table(position)
    )
    _count(stats, nodes)
    if value is None:
        raise SearchTimeout
    return value


def action_values(
    position: Position, utility: Utility, stats: SearchStats | None = None
) -> dict[int, int]:
    values, nodes = _core.action_values(
        _position(position), _utility(utility), _seconds_left(stats), _table(position)
    )
    _count(stats, nodes)
    if values is None:
        raise SearchTimeout
    return dict(values)


def best_card(position: Position, utility: Utility) -> int:
    return _core.best_card(_position(position), _utility(utility), _table(position))[0]


def principal_variation(position: Position, utility: Utility) -> list[int]:
    line, _ = _core.principal_variation(_position(position), _utility(utility), _table(position))
    return line


def sample_deals(known: Knowledge, count: int, seed: int) -> list[Position]:
    try:
        dealt = _core.sample_deals(_knowledge(known), count, seed & MASK64)
    except _core.NoConsistentDeal as error:
        raise NoConsistentDeal(str(error)) from None
    return [known.position(hands) for hands in dealt]


def solve_sampled(
    known: Knowledge,
    utility: Utility,
    *,
    count: int,
    seed: int,
    actions: bool,
    budget_ms: float | None,
    min_count: int,
    threads: int | None = None,
    deal_share: float = 0.0,
    exact_tricks: int = 0,
) -> SampledSolve:
    """The whole sampled solve in the core, on ``threads`` (1 or 2) threads, or as many
    as the core finds idle cores for (None)."""
    seconds = None if budget_ms is None else budget_ms / 1000
    try:
        solved = _core.solve_sampled(
            _knowledge(known), _utility(utility), count, seed & MASK64, actions, seconds,
            min_count, 0 if threads is None else threads, deal_share, exact_tricks,
        )  # fmt: skip
    except _core.NoConsistentDeal as error:
        raise NoConsistentDeal(str(error)) from None
    return SampledSolve(
        tuple(known.position(h) for h in solved.hands), tuple(map(tuple, solved.values)),
        tuple(solved.cards), solved.complete, solved.nodes, solved.dropped,
    )  # fmt: skip
