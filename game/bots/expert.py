"""The expert: sample deals consistent with the view, solve each exactly, choose by match value.

Perfect-information Monte Carlo: every sampled deal is solved by the exact double-dummy
search, with the round's value measured in match terms (valuation.py), and the action
with the best average wins. In the auction, each deal also plays out the rest of the
auction by a model of the seats still to act (auction.py), and counts as much as the
bids so far make it likely; every bid and the pass are priced by the outcomes they lead
to in the same deals. The analysis behind a choice is returned as data, which is what
the trainer shows a learner.

``version=1`` is the expert as it was before the auction search (``expert-v1``, kept
frozen so that anyone can measure the difference): it priced a bid only as the points
it would take as the leader and counted every opponent's points against itself.
``version=2`` (``expert-v2``) is the expert before its honest prices (issue 50): the
seats still to bid judged by the common style, not the expert's own fitted bidding, and
at three lone seats the defenders' points shared evenly in our bid's worth; at a
full-deck preset the rollouts' later seats bid by greedy's rule, not as the expert does.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from random import Random

from game.engine.cards import JOKERS
from game.engine.rules import PASS, Phase, bid_amount, is_bid
from game.engine.solver import (
    MAX_POINTS,
    Position,
    SampledSolve,
    Utility,
    advance,
    idle_threads,
    native_available,
    principal_variation,
    sample_deals,
    solve_each,
    solve_sampled,
)
from game.engine.view import SeatView

from .auction import Auction, evidence, finish, limits, standing
from .basic import GreedyBot
from .full_deck import price_cards
from .hand_model import hand_model
from .pricing import Prices, mean_and_se, mean_of, weighted_mean_and_se, weighted_mean_of
from .rollouts import price as price_before_play
from .sampling import knowledge
from .valuation import (
    Situation,
    contract_utility,
    decode,
    leader_utility,
    match_value,
    points_utility,
    split_standing_value,
    standing_utility,
    standing_value,
    steps_per_point,
    utility_for,
)

# the least time a solve in the auction gets before the hand model answers for it
SOLVE_SHARE_MIN_S = 0.002
# a sampled deal in card play may take this share of the time left: one that takes longer
# is dropped and the next tried, so a hard deal cannot leave a decision with none
DEAL_SHARE = 0.25
# In live play, when the exact search solves no deal in the budget (8 seats on the first
# tricks, a busy machine), the card is chosen from ESTIMATES rather than by greedy: this
# many tricks searched exactly and the positions after them valued from what is decided
# (the core's bounds, the open points shared evenly), in this share of the budget more.
ESTIMATE_TRICKS = 2
ESTIMATE_SHARE = 0.15
# An analysis asked when it is settled looks at its figures after this many deals and
# again each time their number has grown by half.
SETTLE_FIRST = 16
SETTLE_GROWTH = 1.5


@dataclass(frozen=True)
class AuctionOutcome:
    """Where an auction action leads, over the sampled deals (weighted by the evidence)."""

    lead: float  # share of deals in which our unit wins the auction
    outbid: float  # for a bid: share in which a later seat outbids it (0 for a pass)
    winning_bid: float  # the average winning bid
    made: float | None  # when our unit leads: share of those deals in which it makes the bid
    others_made: float | None  # when another unit leads: share in which it makes its bid
    others_points: float | None  # when another unit leads: its average points


@dataclass(frozen=True)
class ActionStats:
    action: int
    value: float  # expected change in match value (our gain minus theirs, match end counted)
    value_se: float  # its standard error over the sampled deals
    points: tuple[float, float] | None  # expected round points: (our unit, everyone else)
    made: float | None  # chance the bid is made (for a bid: if we bid it)
    # points and made are None when the analysis was not detailed
    auction: AuctionOutcome | None = None  # for an auction action (expert, not expert-v1)
    # the standard error of the best action's value minus this one's: every action is
    # priced on the same deals, so it is the spread of their difference deal by deal,
    # far below the two errors combined when a deal that is good for one is good for
    # both (0 for the best; None where not priced so)
    margin_se: float | None = None


@dataclass(frozen=True)
class Analysis:
    seat: int
    actions: tuple[ActionStats, ...]  # best first
    deals: int  # sampled deals solved
    complete: bool  # False when the deadline cut the sampling short
    line: tuple[tuple[int, int], ...]  # (seat, card): best play in one representative deal
    line_deal: tuple[int, ...]  # that deal's hands at the decision (a sample, not the real deal)
    # the values are estimates (ESTIMATE_TRICKS searched exactly), never in a detailed one
    estimated: bool = False

    @property
    def best(self) -> int:
        return self.actions[0].action


@dataclass
class ExpertBot:
    """Budget: at most ``max_deals`` sampled deals and ``budget_ms`` of thinking per decision."""

    budget_ms: float = 250.0
    max_deals: int = 400
    bid_margin: float = 0.5  # expert-v1: expected match value a bid must promise over passing
    version: int = 3

    @property
    def name(self) -> str:
        return "expert" if self.version >= 3 else f"expert-v{self.version}"

    def choose(self, view: SeatView, legal: Sequence[int], rng: Random) -> int:
        """The best action of the analysis (``analyse``, without detail). At a full-deck
        table that is card play by sampled deals, solved while that is quick and played
        out after, and the auction, naming trump and the discard by playing each choice
        out; a lone legal action is taken unsearched, except a full-deck discard (its
        choices are not the legal list)."""
        if len(legal) == 1 and (view.rules.is_house or view.phase is not Phase.EXCHANGE):
            return legal[0]
        return self.choice_from(view, legal, self.analyse(view, legal, rng, detailed=False), rng)

    def choice_from(
        self, view: SeatView, legal: Sequence[int], analysis: Analysis, rng: Random
    ) -> int:
        """The action ``choose`` takes from its analysis: the best, or where no deal was
        solved in time, the greedy bot's (``rng`` goes on from the analysis)."""
        if not analysis.deals:
            return GreedyBot().choose(view, legal, rng)
        return analysis.best

    def chooses_from_detailed(self, view: SeatView) -> bool:
        """Whether the detailed analysis is the very search ``choose`` makes: the same
        deals from the same ``rng``, so ``choice_from`` it is the choice. So at a full-deck
        table (every choice priced as in play) and in the auction (bids are priced alike
        with or without detail); not in the house rules' card play, whose choice is
        searched without the points."""
        return not view.rules.is_house or view.bidder is None

    def _price_full_deck(self, view: SeatView, legal: Sequence[int], rng: Random) -> Prices:
        if view.phase is Phase.PLAY:
            return price_cards(view, legal, rng, budget_ms=self.budget_ms, max_deals=self.max_deals)
        return price_before_play(
            view,
            legal,
            rng,
            budget_ms=self.budget_ms,
            max_deals=self.max_deals,
            own_bidding=self.version >= 3,  # expert-v2 kept greedy's later seats
        )

    def analyse(
        self,
        view: SeatView,
        legal: Sequence[int],
        rng: Random,
        detailed: bool = True,
        settled: Callable[[Analysis, int], bool] | None = None,
    ) -> Analysis:
        """Every legal action priced over sampled deals. ``detailed`` adds each card's
        expected points and bid chances and the best line of play in one sampled deal;
        without it the search is coarser and faster (what live play uses). ``settled``,
        if given, is shown the analysis so far at checkpoints (SETTLE_FIRST deals, then
        half as many again each time) with the number of deals the budget is expected to
        reach at the pace so far: once it says the figures answer its question, the
        analysis ends there, with fewer deals than ``max_deals``. At a full-deck table
        neither applies: every choice is priced as in play (``_analyse_full_deck``)."""
        if not view.rules.is_house:
            return self._analyse_full_deck(view, legal, rng)
        deadline = time.perf_counter() + self.budget_ms / 1000
        if view.bidder is None and self.version < 2:
            return self._analyse_auction_v1(view, legal, rng, deadline)
        if view.bidder is None:
            return self._analyse_auction(view, legal, rng, deadline, settled)
        return self._analyse_play(view, legal, rng, deadline, detailed, settled)

    def _analyse_full_deck(self, view: SeatView, legal: Sequence[int], rng: Random) -> Analysis:
        """A full-deck table's choices as priced for play: each one's mean change in the
        match score over the deals (``full_deck``, ``rollouts``), without points, bid
        chances or a line."""
        prices = self._price_full_deck(view, legal, rng)
        actions = tuple(
            ActionStats(action, value, error, points=None, made=None, margin_se=lead_error)
            for action, value, error, lead_error in prices.figures()
        )
        return Analysis(
            seat=view.seat,
            actions=actions,
            deals=prices.deals,
            complete=prices.deals >= self.max_deals,
            line=(),
            line_deal=(),
        )

    # --- Card play ----------------------------------------------------------------

    def _analyse_play(self, view, legal, rng, deadline, detailed, settled) -> Analysis:
        situation = _situation(view, view.unit_of[view.bidder], view.bid)
        utility = self._play_utility(view, situation, detailed)
        read = self._reader(situation, utility, detailed)
        if settled is None:
            batch = self._solve(view, utility, "actions", rng, deadline)
        else:

            def figures(batch):
                return _play_stats(batch, legal, read, situation)

            batch = self._solve_until_settled(view, utility, rng, deadline, figures, settled)
        estimated = not batch.values and not detailed and native_available()
        if estimated:
            batch = self._estimate(view, utility, rng)
        stats = _play_stats(batch, legal, read, situation)
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
            estimated=estimated,
        )

    def _estimate(self, view: SeatView, utility: Utility, rng: Random) -> SampledSolve:
        """Estimated values over sampled deals (at least one, whatever the time): the
        first ESTIMATE_TRICKS tricks searched exactly, the rest from the core's bounds."""
        return solve_sampled(
            self._knowledge(view),
            utility,
            count=self.max_deals,
            seed=rng.getrandbits(63),
            mode="actions",
            budget_ms=self.budget_ms * ESTIMATE_SHARE,
            min_count=1,
            exact_tricks=ESTIMATE_TRICKS,
        )

    def _play_utility(self, view: SeatView, situation: Situation, detailed: bool) -> Utility:
        if self.version < 2:
            if not view.trick_winners and not detailed and not native_available():
                return contract_utility(situation)
            return utility_for(situation, with_points=detailed)
        if not view.trick_winners and not detailed and _dear_first_trick(view):
            # the first trick is the dearest to search: make or beat the bid, which the
            # search settles in far fewer probes, so that the budget still buys deals
            return contract_utility(situation, defenders_together=True)
        return standing_utility(situation, with_points=detailed)

    def _reader(self, situation: Situation, utility: Utility, detailed: bool):
        """From a searched value to (match value, our points, everyone else's, the
        bidder's side's points), in match points; without detail, (value, None, None, None)."""
        steps = 1 if self.version < 2 else steps_per_point(situation)
        if not detailed:
            return lambda value: (value / steps if steps > 1 else value, None, None, None)
        we_bid = situation.we_bid
        share = _our_share(situation) if not we_bid and situation.unit in utility.side else 1.0

        def read(value):
            match, side, other = decode(value, steps)
            if we_bid:
                return match, side, other, side
            # the side's points are shared by seat when we defend with others
            return match, side * share, side * (1 - share) + other, other

        return read

    # --- The auction --------------------------------------------------------------

    def _analyse_auction(self, view, legal, rng, deadline, settled) -> Analysis:
        """Every bid and the pass, priced over the same sampled deals: in each, the seats
        still to act bid by the model, the winner leads, and the exact search says what
        the round then gives each side."""
        deals = sample_deals(self._knowledge(view), self.max_deals, rng.getrandbits(63))
        honest = self.version >= 3  # expert-v2 kept the even split and the common style
        table = _AuctionTable(view, legal, own_bidding=honest, split=honest)
        complete = True
        checkpoint = SETTLE_FIRST
        at_once = idle_threads()  # deals searched together: one per thread
        for start in range(0, len(deals), at_once):
            if table.deals and time.perf_counter() >= deadline:
                complete = False
                break
            table.add(deals[start : start + at_once], rng, deadline)
            if settled is not None and table.deals >= checkpoint:
                checkpoint = math.ceil(checkpoint * SETTLE_GROWTH)
                partial = Analysis(view.seat, table.stats(), table.deals, True, (), ())
                if settled(partial, self._expected_deals(table.deals, deadline)):
                    return replace(partial, complete=not table.estimated)
        complete = complete and not table.estimated
        return Analysis(view.seat, table.stats(), table.deals, complete, (), ())

    def _analyse_auction_v1(self, view, legal, rng, deadline) -> Analysis:
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
            mean, se = mean_and_se(values)
            if partner_holds_bid:
                mean -= self.bid_margin  # raising a partner only adds risk
            stats.append(
                ActionStats(
                    action,
                    mean,
                    se,
                    (mean_of(outcomes), mean_of([max(0, 5 - ours) for ours in outcomes])),
                    sum(ours >= amount for ours in outcomes) / len(outcomes),
                )
            )
        stats.sort(key=lambda s: (-s.value, s.action))
        return Analysis(view.seat, tuple(stats), len(outcomes), batch.complete, (), ())

    def _solve_until_settled(self, view, utility, rng, deadline, figures, settled) -> SampledSolve:
        """The sampled deals solved in growing batches, until ``settled`` accepts the
        ``figures`` of those so far, the budget is spent or ``max_deals`` are solved."""
        batch = self._solve(view, utility, "actions", rng, deadline, SETTLE_FIRST)
        while batch.complete and (solved := len(batch.values)) < self.max_deals:
            partial = Analysis(view.seat, figures(batch), solved, True, (), ())
            if settled(partial, self._expected_deals(solved, deadline)):
                break
            wanted = min(math.ceil(solved * SETTLE_GROWTH), self.max_deals) - solved
            more = self._solve(view, utility, "actions", rng, deadline, max(1, wanted))
            batch = _joined(batch, more)
        return batch

    def _expected_deals(self, solved: int, deadline: float) -> int:
        """The deals solved by the deadline if the pace so far holds, at most max_deals."""
        now = time.perf_counter()
        spent = max(1e-6, self.budget_ms / 1000 - (deadline - now))
        return min(self.max_deals, solved + int(solved / spent * max(0.0, deadline - now)))

    def _solve(
        self,
        view: SeatView,
        utility: Utility,
        mode: str,
        rng: Random,
        deadline: float,
        count: int | None = None,
    ) -> SampledSolve:
        """Sampled deals from the seat's knowledge (``max_deals`` unless ``count`` says
        fewer), solved in one call until the budget is spent (during the auction, each as
        if this seat had won it and led)."""
        remaining_ms = max(0.0, (deadline - time.perf_counter()) * 1000)
        return solve_sampled(
            self._knowledge(view),
            utility,
            count=min(self.max_deals, count or self.max_deals),
            seed=rng.getrandbits(63),
            mode=mode,
            budget_ms=remaining_ms,
            min_count=0,  # the deadline always answers: a deal it cuts short is dropped
            deal_share=DEAL_SHARE,
        )

    def _knowledge(self, view: SeatView):
        """What the seat knows, for the sampler: all of it here; a weaker level
        (``levels.py``) may forget some."""
        return knowledge(view)

    @staticmethod
    def _partner_holds_bid(view: SeatView) -> bool:
        bids = [(seat, a) for seat, a in view.auction if is_bid(a)]
        return bool(bids) and view.unit_of[bids[-1][0]] == view.unit


# from this many players the core solves too few first-trick deals for the match value
DEAR_FIRST_TRICK_PLAYERS = 7


def _dear_first_trick(view: SeatView) -> bool:
    return not native_available() or view.players >= DEAR_FIRST_TRICK_PLAYERS


def _situation(view: SeatView, bidder_unit: int, bid: int) -> Situation:
    sizes = tuple(len(members) for members in view.teams)
    return Situation(view.unit, bidder_unit, bid, view.scores, view.target, sizes)


def _our_share(situation: Situation) -> float:
    """Our unit's share, by seats, of the points the units other than the bidder's take."""
    seats = situation.seats
    defenders = sum(n for u, n in enumerate(seats) if u != situation.bidder_unit)
    return seats[situation.unit] / defenders


class _AuctionTable:
    """The auction analysis being gathered: per deal, its weight and, per action, where
    the auction ends and what the round then gives the bidder's side and the others.
    ``own_bidding``: the seats still to bid are judged as the expert itself bids where
    that was fitted (``HandModel.bid_shift``/``bid_style``); ``split``: our worth at a
    table of three lone seats takes the defenders' points as split between them, not
    shared evenly (``valuation.split_standing_value``)."""

    def __init__(
        self,
        view: SeatView,
        legal: Sequence[int],
        own_bidding: bool = False,
        split: bool = False,
    ):
        self.view = view
        self.legal = list(legal)
        # the round's worth to us with the defenders' points split as a round ends, not
        # evenly (``valuation.split_standing_value``)
        self.worth = split_standing_value if split else standing_value
        self._worths: dict[tuple[int, int, int, int], float] = {}  # few outcomes recur
        order = [(view.dealer + 1 + i) % view.players for i in range(view.players)]
        self.later = order[order.index(view.seat) + 1 :]
        self.now = standing(view.auction)
        unit_of = view.unit_of
        partners = [len(view.teams[unit_of[s]]) - 1 for s in range(view.players)]
        self.models = {s: hand_model(view.players, partners[s]) for s in range(view.players)}
        # the seats still to bid judged as the expert bids, where its bidding was fitted
        self.styles = {
            s: (m.bid_shift, m.bid_style)
            for s, m in self.models.items()
            if own_bidding and m.bid_style is not None
        }
        self.estimated = 0  # outcomes the model gave because the search ran out of time
        self.weights: list[float] = []
        self.exact: list[list[tuple[Auction, int, int]]] = []  # per deal, per action
        self.draws: list[float] = []  # per deal: the chance draw that settles play's shortfall
        self.rows: list[list[tuple[Auction, int, int]]] = []  # the same, as play leaves it

    @property
    def deals(self) -> int:
        return len(self.exact)

    def add(self, deals: Sequence[Position], rng: Random, deadline: float) -> None:
        """The deals' rows: in each, where the auction ends for every action by the model,
        then each of those ends' leader's outcome, all the deals' searches together."""
        plans = [self._plan(deal, rng) for deal in deals]
        wanted = [
            (i, holder)
            for i, (_, ends, _) in enumerate(plans)
            for holder in dict.fromkeys(end.holder for end in ends)
        ]
        found = _leader_outcomes([(deals[i], holder) for i, holder in wanted], deadline)
        outcomes = {
            job: exact if exact is not None else self._modelled(deals[job[0]], job[1])
            for job, exact in zip(wanted, found, strict=True)
        }
        for i, (weight, ends, draw) in enumerate(plans):
            self.weights.append(weight)
            self.draws.append(draw)
            self.exact.append([(end, *outcomes[i, end.holder]) for end in ends])

    def _plan(self, deal: Position, rng: Random) -> tuple[float, list[Auction], float]:
        """The deal's weight by the evidence in the bids so far, where the auction ends
        after each legal action, and the draw that settles play's shortfall."""
        view = self.view
        values = {
            s: m.value(deal.hands[s], view.players)
            for s, m in self.models.items()
            if s != view.seat  # our own hand is no evidence, and we do not model our bid
        }
        weight = evidence(view.auction, values, view.dealer)
        judged = limits({s: values[s] for s in self.later}, rng, self.styles)
        ends = [
            finish(self.now.after(view.seat, action), self.later, judged, view.unit_of)
            for action in self.legal
        ]
        return weight, ends, rng.random()

    def _modelled(self, deal: Position, leader: int) -> tuple[int, int]:
        """The hand model's outcome, where the search ran out of time."""
        self.estimated += 1
        model = self.models[leader]
        players = self.view.players
        bidder = max(0, min(MAX_POINTS - 1, round(model.exact_value(deal.hands[leader], players))))
        jokers = sum((hand & JOKERS).bit_count() for hand in deal.hands)
        return bidder, max(0, 4 + jokers - bidder)

    def stats(self) -> tuple[ActionStats, ...]:
        self._settle_play()
        priced = [self._action_stats(i, action) for i, action in enumerate(self.legal)]
        priced.sort(key=lambda p: (-p[0].value, p[0].action))
        return _with_margins(priced, self.weights)

    def _settle_play(self) -> None:
        """Each exact outcome as play is likely to leave it. The leader's side gives up
        what the calibration measured for its exact value; for our own hand, scaled by how
        much its exact value varies over our deals against how much a typical hand's
        does: a hand that takes the same whatever the others hold loses little in play."""
        seat = self.view.seat
        own = [
            next((bidder for end, bidder, _ in row if end.holder == seat), None)
            for row in self.exact
        ]
        own = [points for points in own if points is not None] or [0]
        mean = sum(own) / len(own)
        varies = (sum((x - mean) ** 2 for x in own) / len(own)) ** 0.5
        spread = self.models[seat].spread
        own_factor = min(1.5, varies / spread) if spread > 0 else 1.0
        self.rows = []
        for row, draw in zip(self.exact, self.draws, strict=True):
            settled = []
            for end, bidder, rest in row:
                excess = self.models[end.holder].shortfall(bidder)
                excess *= own_factor if end.holder == seat else 1.0
                settled.append((end, *_in_play((bidder, rest), excess, draw)))
            self.rows.append(settled)

    def _action_stats(self, column: int, action: int) -> tuple[ActionStats, list[float]]:
        """The action's figures, and its value deal by deal."""
        view = self.view
        unit_of = view.unit_of
        values, ours, theirs, cases = [], [], [], []
        for row in self.rows:
            end, bidder_points, defender_points = row[column]
            situation = _situation(view, unit_of[end.holder], end.high)
            key = (situation.bidder_unit, end.high, bidder_points, defender_points)
            if key not in self._worths:
                self._worths[key] = self.worth(situation, bidder_points, defender_points)
            values.append(self._worths[key])
            share = _our_share(situation) if not situation.we_bid else 1.0
            mine = bidder_points if situation.we_bid else defender_points * share
            ours.append(mine)
            theirs.append(bidder_points + defender_points - mine)
            cases.append((situation.we_bid, end, bidder_points >= end.high, bidder_points))
        mean, se = weighted_mean_and_se(values, self.weights)
        outcome = self._outcome(action, cases)
        points = (weighted_mean_of(ours, self.weights), weighted_mean_of(theirs, self.weights))
        return ActionStats(action, mean, se, points, outcome.made, outcome), values

    def _outcome(self, action: int, cases) -> AuctionOutcome:
        weights = self.weights
        total = sum(weights) or 1.0
        ours = [(wt, made) for wt, (we, _, made, _) in zip(weights, cases, strict=True) if we]
        others = [
            (wt, made, points)
            for wt, (we, _, made, points) in zip(weights, cases, strict=True)
            if not we
        ]
        later = set(self.later)
        outbid = sum(
            wt for wt, (_, end, _, _) in zip(weights, cases, strict=True) if end.holder in later
        )
        return AuctionOutcome(
            lead=sum(wt for wt, _ in ours) / total,
            outbid=outbid / total if is_bid(action) else 0.0,
            winning_bid=weighted_mean_of([end.high for _, end, _, _ in cases], weights),
            made=_share(ours),
            others_made=_share([(wt, made) for wt, made, _ in others]),
            others_points=(
                weighted_mean_of([p for _, _, p in others], [wt for wt, _, _ in others])
                if others
                else None
            ),
        )


def _leader_outcomes(
    jobs: Sequence[tuple[Position, int]], deadline: float
) -> list[tuple[int, int] | None]:
    """For each (deal, leader): (points the leader's side takes, points the rest take)
    when the leader leads the deal, both sides playing their best for the leader's points;
    None where its search does not finish within a quarter of the time left (so that a
    hard deal cannot take all of it)."""
    searches = [(replace(deal, leader=leader), leader_utility(deal.unit_of[leader]))
                for deal, leader in jobs]  # fmt: skip
    values = solve_each(searches, deadline=deadline, share=0.25, least_s=SOLVE_SHARE_MIN_S)
    return [None if value is None else decode(value)[1:] for value in values]


def _in_play(outcome: tuple[int, int], excess: float, draw: float) -> tuple[int, int]:
    """An exact outcome as play is likely to leave it: the leader's side sees fewer hands
    than the search did, and gives up ``excess`` points on average to the others (``draw``,
    uniform in [0, 1), settles the fraction)."""
    bidder, rest = outcome
    lost = int(excess) + (draw < excess - int(excess))
    lost = max(0, min(bidder, lost))
    return bidder - lost, rest + lost


def _share(cases: list[tuple[float, bool]]) -> float | None:
    total = sum(wt for wt, _ in cases)
    return sum(wt for wt, yes in cases if yes) / total if total > 0 else None


def _play_stats(batch: SampledSolve, legal, read, situation: Situation) -> tuple[ActionStats, ...]:
    """Each legal card's figures over the batch's deals, best first."""
    column = {card: i for i, card in enumerate(batch.cards)}
    samples = {action: [read(row[column[action]]) for row in batch.values] for action in legal}
    priced = [_summarise(action, rows, situation) for action, rows in samples.items()]
    priced.sort(key=lambda p: -p[0].value)
    return _with_margins(priced, None)


def _with_margins(priced: list[tuple[ActionStats, list[float]]], weights) -> tuple:
    """The stats of ``priced`` (best first, each with its value deal by deal), each with
    the standard error of the best's lead over it on those same deals, measured as each
    value's own error is: over ``weights`` (the auction's evidence) or, with None, alike."""
    if not priced:
        return ()
    best = priced[0][1]
    stats = []
    for action_stats, values in priced:
        differences = [b - v for b, v in zip(best, values, strict=True)]
        if weights is None:
            _, error = mean_and_se(differences)
        else:
            _, error = weighted_mean_and_se(differences, weights)
        stats.append(replace(action_stats, margin_se=error))
    return tuple(stats)


def _joined(first: SampledSolve, then: SampledSolve) -> SampledSolve:
    """Two batches of the same knowledge as one, the first's deals first."""
    return SampledSolve(
        positions=first.positions + then.positions,
        values=first.values + then.values,
        cards=first.cards or then.cards,
        complete=then.complete,
        nodes=first.nodes + then.nodes,
        dropped=first.dropped + then.dropped,
    )


def _summarise(
    action: int, rows: list[tuple], situation: Situation
) -> tuple[ActionStats, list[float]]:
    """The card's figures, and its value deal by deal."""
    values = [m for m, _, _, _ in rows]
    mean, se = mean_and_se(values)
    if not rows or rows[0][1] is None:
        return ActionStats(action, mean, se, None, None), values
    made = sum(bidder >= situation.bid for _, _, _, bidder in rows) / len(rows)
    points = (mean_of([o for _, o, _, _ in rows]), mean_of([t for _, _, t, _ in rows]))
    return ActionStats(action, mean, se, points, made), values


def _line(position: Position, first: int, utility) -> tuple[tuple[int, int], ...]:
    seat = position.to_act
    line = [(seat, first)]
    rest = advance(position, first)
    for card in principal_variation(rest, utility) if any(rest.hands) else []:
        line.append((rest.to_act, card))
        rest = advance(rest, card)
    return tuple(line)
