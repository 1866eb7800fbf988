"""The analysis of one decision, from the seat's view alone, and the verdict on it.

``assess`` prices every legal action for the seat to act with the expert's sampled-deal
analysis (``game.bots.expert``), given the seat's view and nothing else, and describes the
decision: its themes and a line of play in one sampled deal. ``Budget`` says how long an
analysis may think, ``Keep`` whether its figures make a decision worth practising. The
trainer's bank (``learn.bank.generation``) and the review of a player's own rounds
(``learn.round_review.decisions``) both analyse decisions here. Pure: no Django here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from game.bots.expert import ActionStats, Analysis, ExpertBot
from game.bots.sampling import knowledge, sample_hands
from game.engine import record as records
from game.engine.cards import card_code, cards_of
from game.engine.rules import PASS, action_code, parse_action_code
from game.engine.state import MatchState
from game.engine.view import SeatView

from .lines import play_out
from .positions import (
    DEFAULT_RATING,
    AnalysedPosition,
    AuctionOutcome,
    Option,
    phase_of,
)
from .themes import themes_for
from .variant_themes import family_themes

# --- Settings ------------------------------------------------------------------------


# Each extra hand multiplies the search from the opening lead: the trump-setting lead
# gets this many times the three-player time. Measured with the native core on this
# 2-core machine, shared (December 2026), the expert's detailed analysis of the opening
# lead: 120 deals in 0.1 s at three players and 0.3-1 s at four; at five 2-20 deals a
# second, at six about 2; at seven (cutthroat) 2-3 deals a minute. Without points (not
# what the trainer asks for) eight players gave 0-20 deals in 20 s cutthroat, 8-16 at
# 4v4, 0-3 at 2v2v2v2. So at seven and eight players the default budget (5 minutes)
# reaches Keep's 8 deals only in part of the deals. (A large table's auction once needed
# 8-10 times the base budget in Python; the native core solves a five-player auction's
# 120 deals in about 1 s, and more time there only slowed the bank's growth.)
OPENING_BY_PLAYERS = {3: 1.0, 4: 2.5, 5: 5.0, 6: 10.0, 7: 75.0, 8: 75.0}


@dataclass(frozen=True)
class Budget:
    """Thinking time. The analysis of a kept decision is what a learner is shown, so it
    gets far more than the moves that lead up to it."""

    analysis_ms: float = 1000.0
    max_deals: int = 120
    # searches from the opening lead are the dearest: the auction (each sampled deal is
    # solved from the bidder's lead), the trump-setting lead, and the rest of trick one
    opening_factor: float = 4.0
    first_trick_factor: float = 2.5
    move_ms: float = 40.0
    move_deals: int = 12
    # an analysis of three times the look's time or more is preceded by a quick look (a
    # share of its time, a few deals) that drops the decisions it would not keep; the
    # look only selects, it is never shown
    screen_share: float = 0.1
    screen_ms: float = 100.0
    screen_deals: int = 24

    def analyst(self, view: SeatView) -> ExpertBot:
        return ExpertBot(budget_ms=self.analysis_ms * self._factor(view), max_deals=self.max_deals)

    def screener(self, analyst: ExpertBot) -> ExpertBot | None:
        """The quick look before ``analyst``'s analysis, or None where that is cheap."""
        budget_ms = max(self.screen_ms, analyst.budget_ms * self.screen_share)
        if analyst.max_deals <= self.screen_deals or analyst.budget_ms < 3 * budget_ms:
            return None
        return ExpertBot(budget_ms=budget_ms, max_deals=self.screen_deals)

    def _factor(self, view: SeatView) -> float:
        kind, players = decision_kind(view), view.players
        if kind == "opening":
            return self.opening_factor * OPENING_BY_PLAYERS[players]
        return self.first_trick_factor if not view.trick_winners else 1.0

    def mover(self) -> ExpertBot:
        return ExpertBot(budget_ms=self.move_ms, max_deals=self.move_deals)


@dataclass(frozen=True)
class Keep:
    """Which decisions are worth practising: a clear best option, in match value."""

    min_margin: float = 0.3  # match points between the best option and the second
    z: float = 2.0  # and this many combined standard errors
    min_deals: int = 8  # fewer sampled deals than this say too little
    # an analysis may end once it is kept this far beyond the sampling error (half as far
    # again as ``z`` asks: a verdict more deals would seldom overturn), or once even the
    # benefit of the doubt leaves it short, with at least these many deals
    settle_z: float = 3.0
    settle_kept_deals: int = 36
    settle_dropped_deals: int = 16
    # a pass is no lesson when every bid is hopeless: made less often than this
    hopeless: float = 0.3
    # every call of an auction priced from the deals: an analysis that did not search the
    # rest of the auction priced a pass as a constant, which is not worth teaching
    priced_calls: bool = True

    def accepts(self, options: Sequence[Option], deals: int) -> bool:
        if len(options) < 2 or deals < self.min_deals or self._obvious_pass(options):
            return False
        if self.priced_calls and _unpriced_call(options):
            return False
        margin, error = _lead(options)
        return margin >= self.min_margin and margin > self.z * error

    def settled(self, options: Sequence[Option], deals: int, expected: int) -> bool:
        """Whether more deals would hardly change the verdict on an analysis so far, of
        ``deals`` deals where the budget should reach ``expected``: kept far beyond the
        sampling error, or out of reach of the threshold even at ``expected`` deals."""
        if len(options) < 2 or self._obvious_pass(options):
            return deals >= self.settle_dropped_deals
        if self.priced_calls and _unpriced_call(options):
            return True
        margin, error = _lead(options)
        kept = margin >= self.min_margin and margin > self.settle_z * error
        if kept and deals >= self.settle_kept_deals:
            return True
        if deals < self.settle_dropped_deals:
            return False
        if margin + self.z * error < self.min_margin:
            return True
        # Futile: the error shrinks with the square root of the deals, and a margin one
        # standard deviation of its own drift above today's (about one chance in six)
        # would still fall short of the threshold at the deals the budget reaches.
        error_at_end = error * math.sqrt(deals / max(deals, expected))
        drift = math.sqrt(max(0.0, error**2 - error_at_end**2))
        return margin + drift < max(self.min_margin, self.z * error_at_end)

    def promising(self, options: Sequence[Option], deals: int, expected: int) -> bool:
        """Whether a quick look at ``deals`` sampled deals leaves a fair chance that an
        analysis of ``expected`` deals is kept: enough deals, two options apart, and a
        margin that, given the benefit of the doubt, reaches the threshold."""
        if len(options) < 2 or expected < self.min_deals or self._obvious_pass(options):
            return False
        if self.priced_calls and _unpriced_call(options):
            return False
        if deals < 2:
            return False  # under two deals in the quick look: too few in the long analysis
        margin, error = _lead(options)
        if margin <= 0:
            return False  # level in every deal seen: most often two cards that play alike
        return margin + self.z * error >= self.min_margin

    def _obvious_pass(self, options: Sequence[Option]) -> bool:
        """Pass is best and every bid, once it wins the auction, is seldom made. Only a
        known chance counts: a bid with none (never leading, or not priced) proves
        nothing, and a pass that is best for what the auction does is a lesson."""
        if options[0].code != "pass":
            return False
        chances = [_made_when_leading(o) for o in options if o.code.startswith("bid:")]
        return bool(chances) and all(c is not None and c < self.hopeless for c in chances)


def _lead(options: Sequence[Option]) -> tuple[float, float]:
    """How far the best option leads the second, and that margin's standard error."""
    best, second = options[0], options[1]
    return best.value - second.value, second.margin_error(best)


def _made_when_leading(option: Option) -> float | None:
    return option.auction.made if option.auction is not None else option.made


def _unpriced_call(options: Sequence[Option]) -> bool:
    calls = [o for o in options if o.code == "pass" or o.code.startswith("bid:")]
    return any(o.auction is None for o in calls)


# the later seats' calls in an auction position's sampled line: a quick look each, at
# the live bots' budget (the line illustrates; the decision's own analysis keeps its
# budget). With the analyst's budget the line took a quarter to a half of the time of
# an auction position at five and six players.
LINE_BID_DEALS = 12
LINE_BID_MS = 250.0


# --- One decision --------------------------------------------------------------------


@dataclass(frozen=True)
class Assessment:
    """The analysis of one decision, from the seat's view alone."""

    phase: str
    options: tuple[Option, ...]
    themes: tuple[str, ...]
    deals: int
    line: tuple[tuple[int, str], ...]
    line_hands: tuple[tuple[str, ...], ...]


def assess(view: SeatView, analyst: ExpertBot, rng: Random) -> Assessment:
    """Price every legal action for the seat to act. Only the view goes in, so the
    analysis cannot depend on a card the seat has not seen."""
    analysis, options = price(view, analyst, rng)
    return described(view, analysis, options, analyst, rng)


def price(
    view: SeatView,
    analyst: ExpertBot,
    rng: Random,
    keep: Keep | None = None,
    *,
    detailed: bool = True,
    also: Sequence[int] = (),
) -> tuple[Analysis, tuple[Option, ...]]:
    """The analysis of every legal action, and its options as the bank stores them. With
    ``keep`` the analysis ends as soon as its verdict is settled; without ``detailed``
    the options carry their values alone (no points, chances or line). At a discard the
    discards in ``also`` (the seat's own actions, never a hidden card) are priced with
    those worth pricing."""
    phase = phase_of(view)

    def options_of(analysis: Analysis) -> tuple[Option, ...]:
        return tuple(_option(stats, phase) for stats in analysis.actions)

    def settled(analysis: Analysis, expected: int) -> bool:
        return keep.settled(options_of(analysis), analysis.deals, expected)

    legal = view.legal_actions() + [a for a in also if a not in view.legal]
    analysis = analyst.analyse(
        view, legal, rng, detailed=detailed, settled=settled if keep else None
    )
    return analysis, options_of(analysis)


def described(
    view: SeatView,
    analysis: Analysis,
    options: tuple[Option, ...],
    analyst: ExpertBot,
    rng: Random,
) -> Assessment:
    """The priced decision with its themes and a line of play (``rng`` goes on from the
    analysis, so a decision gets the same line whether described at once or after the
    filter)."""
    phase = phase_of(view)
    line, line_hands = _line(view, analysis, options, analyst, rng)
    themes = themes_for if view.rules.is_house else family_themes
    return Assessment(
        phase=phase,
        options=options,
        themes=themes(view, options, phase),
        deals=analysis.deals,
        line=line,
        line_hands=line_hands,
    )


def _option(stats: ActionStats, phase: str) -> Option:
    # an analysis older than the search of the rest of the auction has no outcome
    outcome = _outcome(stats.auction)
    points = stats.points
    if phase == "auction" and stats.action == PASS and outcome is None:
        points = None  # that analysis priced a pass as a fixed margin, not as points
    return Option(
        code=action_code(stats.action),
        value=round(stats.value, 3),
        value_se=round(stats.value_se, 3),
        points=None if points is None else (round(points[0], 2), round(points[1], 2)),
        made=_share(stats.made),
        auction=outcome,
        margin_se=None if stats.margin_se is None else round(stats.margin_se, 3),
    )


def _outcome(found) -> AuctionOutcome | None:
    """The expert's auction outcome rounded as the bank stores it."""
    if found is None:
        return None
    return AuctionOutcome(
        lead=_share(found.lead),
        outbid=_share(found.outbid),
        winning_bid=round(found.winning_bid, 2),
        made=_share(found.made),
        others_made=_share(found.others_made),
        others_points=None if found.others_points is None else round(found.others_points, 2),
    )


def _share(chance: float | None) -> float | None:
    return None if chance is None else round(chance, 3)


def _line(
    view: SeatView, analysis: Analysis, options: Sequence[Option], analyst: ExpertBot, rng: Random
) -> tuple[tuple[tuple[int, str], ...], tuple[tuple[str, ...], ...]]:
    if analysis.line:
        line = tuple((seat, action_code(action)) for seat, action in analysis.line)
        return line, _codes(analysis.line_deal)
    if not view.rules.is_house:  # the full-deck analysis plays no line: the best choice alone
        return ((view.seat, options[0].code),), ()
    hands = sample_hands(view, knowledge(view), rng)
    if phase_of(view) != "auction":  # a card analysed with no line: the best card alone
        return ((view.seat, options[0].code),), _codes(hands)
    # the auction's analysis has no line of play: in one sampled deal, the best call,
    # the later seats' calls by a quick expert of their own, and the round played out
    bidder = ExpertBot(budget_ms=min(analyst.budget_ms, LINE_BID_MS), max_deals=LINE_BID_DEALS)
    played = play_out(view, hands, parse_action_code(options[0].code), bidder, rng)
    return tuple((seat, action_code(action)) for seat, action in played), _codes(hands)


def _codes(hands: Sequence[int]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(card_code(c) for c in cards_of(hand)) for hand in hands)


def position_at(match: MatchState, seat: int, assessment: Assessment) -> AnalysedPosition:
    """The position for the decision ``match`` is waiting on."""
    return AnalysedPosition(
        record=records.write(match),
        seat=seat,
        phase=assessment.phase,
        options=assessment.options,
        themes=assessment.themes,
        deals=assessment.deals,
        line=assessment.line,
        line_hands=assessment.line_hands,
        prior_rating=prior_rating(assessment),
    )


def prior_rating(assessment: Assessment) -> float:
    """A first guess at difficulty: a narrow margin and many options are harder, the
    opening lead and the auction hardest. Ratings from real attempts replace it."""
    options = assessment.options
    margin = options[0].value - options[1].value
    rating = DEFAULT_RATING + 150 * math.log(len(options)) - 120 * min(margin, 4.0)
    if assessment.phase == "auction" or "choosing-trump" in assessment.themes:
        rating += 100
    return float(round(min(max(rating, 900.0), 2100.0)))


KINDS = ("auction", "opening", "trump", "discard", "lead", "follow")


def decision_kind(view: SeatView) -> str:
    """The phase, with the trump-setting opening lead told apart from later leads."""
    phase = phase_of(view)
    if phase == "lead" and view.trump is None:
        return "opening"
    return phase
