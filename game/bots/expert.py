"""The expert: sample deals consistent with the view, solve each exactly, choose by match value.

Perfect-information Monte Carlo: every sampled deal is solved by the exact double-dummy
search, with the round's value measured in match terms (valuation.py), and the action
with the best average wins. The analysis behind a choice is returned as data, which is
what the trainer shows a learner.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from game.engine.rules import PASS, bid_amount, is_bid
from game.engine.solver import (
    Position,
    SampledSolve,
    Utility,
    advance,
    native_available,
    principal_variation,
    solve_sampled,
)
from game.engine.view import SeatView

from .basic import GreedyBot
from .sampling import knowledge
from .valuation import (
    Situation,
    contract_utility,
    decode,
    match_value,
    points_utility,
    utility_for,
)


@dataclass(frozen=True)
class ActionStats:
    action: int
    value: float  # expected change in match value (our gain minus theirs, match end counted)
    value_se: float  # its standard error over the sampled deals
    points: tuple[float, float] | None  # expected round points: (our unit, everyone else)
    made: float | None  # chance the bid is made (for a bid: if we bid it)
    # points and made are None when the analysis was not detailed


@dataclass(frozen=True)
class Analysis:
    seat: int
    actions: tuple[ActionStats, ...]  # best first
    deals: int  # sampled deals solved
    complete: bool  # False when the deadline cut the sampling short
    line: tuple[tuple[int, int], ...]  # (seat, card): best play in one representative deal
    line_deal: tuple[int, ...]  # that deal's hands at the decision (a sample, not the real deal)

    @property
    def best(self) -> int:
        return self.actions[0].action


@dataclass
class ExpertBot:
    """Budget: at most ``max_deals`` sampled deals and ``budget_ms`` of thinking per decision."""

    budget_ms: float = 250.0
    max_deals: int = 400
    bid_margin: float = 0.5  # expected match value a bid must promise over passing

    name = "expert"

    def choose(self, view: SeatView, legal: Sequence[int], rng: Random) -> int:
        if len(legal) == 1:
            return legal[0]
        analysis = self.analyse(view, legal, rng, detailed=False)
        if not analysis.deals:
            return GreedyBot().choose(view, legal, rng)
        return analysis.best

    def analyse(
        self, view: SeatView, legal: Sequence[int], rng: Random, detailed: bool = True
    ) -> Analysis:
        """Every legal action priced over sampled deals. ``detailed`` adds each card's
        expected points and bid chances and the best line of play in one sampled deal;
        without it the search is coarser and faster (what live play uses)."""
        deadline = time.perf_counter() + self.budget_ms / 1000
        if view.bidder is None:
            return self._analyse_auction(view, legal, rng, deadline)
        return self._analyse_play(view, legal, rng, deadline, detailed)

    # --- Card play ----------------------------------------------------------------

    def _analyse_play(self, view, legal, rng, deadline, detailed) -> Analysis:
        unit_of = view.unit_of
        situation = Situation(view.unit, unit_of[view.bidder], view.bid, view.scores, view.target)
        utility = self._play_utility(view, situation, detailed)
        batch = self._solve(view, utility, "actions", rng, deadline)
        column = {card: i for i, card in enumerate(batch.cards)}
        samples = {
            action: [
                decode(row[column[action]]) if detailed else (row[column[action]], None, None)
                for row in batch.values
            ]
            for action in legal
        }
        stats = [_summarise(action, rows, situation) for action, rows in samples.items()]
        stats.sort(key=lambda s: -s.value)
        first_deal = batch.positions[0] if batch.positions else None
        line: tuple = ()
        if detailed and first_deal is not None:
            line = _line(first_deal, stats[0].action, utility)
        return Analysis(
            seat=view.seat,
            actions=tuple(stats),
            deals=len(batch.values),
            complete=batch.complete,
            line=line,
            line_deal=first_deal.hands if first_deal else (),
        )

    @staticmethod
    def _play_utility(view: SeatView, situation: Situation, detailed: bool) -> Utility:
        if not view.trick_winners and not detailed and not native_available():
            # the first trick is the dearest to search: in Python, make or beat the bid
            return contract_utility(situation)
        return utility_for(situation, with_points=detailed)

    # --- The auction --------------------------------------------------------------

    def _analyse_auction(self, view, legal, rng, deadline) -> Analysis:
        """What we could take as the bidder, over sampled deals, priced for each legal bid."""
        batch = self._solve(view, points_utility(view.unit), "value", rng, deadline)
        outcomes = [row[0] for row in batch.values]  # points we take as the bidder, per deal
        partner_holds_bid = self._partner_holds_bid(view)
        stats = []
        for action in legal:
            if action == PASS or not outcomes:
                stats.append(
                    ActionStats(
                        action, self.bid_margin if action == PASS else 0.0, 0.0, (0, 0), None
                    )
                )
                continue
            amount = bid_amount(action)
            situation = Situation(view.unit, view.unit, amount, view.scores, view.target)
            # the search counts only our points; a round holds about five, the rest theirs
            values = [match_value(situation, ours, max(0, 5 - ours)) for ours in outcomes]
            mean, se = _mean_se(values)
            if partner_holds_bid:
                mean -= self.bid_margin  # raising a partner only adds risk
            stats.append(
                ActionStats(
                    action,
                    mean,
                    se,
                    (_mean(outcomes), _mean([max(0, 5 - ours) for ours in outcomes])),
                    sum(ours >= amount for ours in outcomes) / len(outcomes),
                )
            )
        stats.sort(key=lambda s: (-s.value, s.action))
        return Analysis(view.seat, tuple(stats), len(outcomes), batch.complete, (), ())

    def _solve(
        self, view: SeatView, utility: Utility, mode: str, rng: Random, deadline: float
    ) -> SampledSolve:
        """Sampled deals from the seat's knowledge, solved in one call until the budget is
        spent (during the auction, each as if this seat had won it and led)."""
        remaining_ms = max(0.0, (deadline - time.perf_counter()) * 1000)
        return solve_sampled(
            knowledge(view),
            utility,
            count=self.max_deals,
            seed=rng.getrandbits(63),
            mode=mode,
            budget_ms=remaining_ms,
            min_count=0,  # the deadline always answers: a deal it cuts short is dropped
        )

    @staticmethod
    def _partner_holds_bid(view: SeatView) -> bool:
        bids = [(seat, a) for seat, a in view.auction if is_bid(a)]
        return bool(bids) and view.unit_of[bids[-1][0]] == view.unit


def _summarise(action: int, rows: list[tuple], situation: Situation) -> ActionStats:
    values = [m for m, _, _ in rows]
    mean, se = _mean_se(values)
    if not rows or rows[0][1] is None:
        return ActionStats(action, mean, se, None, None)
    bidder_points = [ours if situation.we_bid else theirs for _, ours, theirs in rows]
    made = sum(p >= situation.bid for p in bidder_points) / len(rows) if rows else None
    points = (_mean([o for _, o, _ in rows]), _mean([t for _, _, t in rows]))
    return ActionStats(action, mean, se, points, made)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    mean = _mean(values)
    if len(values) < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(variance / len(values))


def _line(position: Position, first: int, utility) -> tuple[tuple[int, int], ...]:
    seat = position.to_act
    line = [(seat, first)]
    rest = advance(position, first)
    for card in principal_variation(rest, utility) if any(rest.hands) else []:
        line.append((rest.to_act, card))
        rest = advance(rest, card)
    return tuple(line)
