"""Deal real rounds, play them with the expert, and keep the decisions worth practising.

A job plays one match to a round worth studying: a few quick greedy rounds first (so
the score is not always 0-0), then one round played by the expert. At some of that
round's decisions the seat's view alone is analysed with a larger budget; a decision
is kept when it is not forced and the best option beats the second clearly, by a fixed
margin and beyond the sampling error. The bank is JSON Lines, one position a line,
appended and flushed line by line so that a run can stop anywhere and resume.
"""

from __future__ import annotations

import json
import math
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
from game.bots.expert import ActionStats, Analysis, ExpertBot
from game.bots.sampling import knowledge, sample_hands
from game.engine import record as records
from game.engine.cards import card_code, cards_of
from game.engine.rules import PASS, Phase, action_code, parse_action_code
from game.engine.state import MatchSetup, MatchState
from game.engine.variants import PRESETS
from game.engine.view import SeatView

from .lines import play_out
from .positions import (
    DEFAULT_RATING,
    AuctionOutcome,
    Option,
    Position,
    phase_of,
    position_key,
)
from .themes import themes_for
from .variant_themes import family_themes

# --- Settings ----------------------------------------------------------------------


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
    """game.bots.expert's AuctionOutcome as the bank stores it."""
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


def position_at(match: MatchState, seat: int, assessment: Assessment) -> Position:
    """The position for the decision ``match`` is waiting on."""
    return Position(
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


# --- One job: a match up to one studied round ----------------------------------------


@dataclass(frozen=True)
class Job:
    seed: str
    players: int
    preset: str = "house"  # the table's game (game.engine.variants.PRESETS)
    kinds: tuple[str, ...] = ()  # the decision kinds examined (decision_kind); none: every one


@dataclass(frozen=True)
class JobResult:
    positions: tuple[dict, ...]  # Position.to_json() of each kept decision
    examined: int  # decisions analysed
    # by table size and decision kind ("5p opening"): decisions analysed, kept, and the
    # seconds their analyses took (the quick look, the analysis and the line)
    examined_kinds: dict = field(default_factory=dict)
    kept_kinds: dict = field(default_factory=dict)
    analysis_seconds: dict = field(default_factory=dict)
    seconds: float = 0.0


def run_job(job: Job, budget: Budget = Budget(), keep: Keep = Keep()) -> JobResult:
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


KINDS = ("auction", "opening", "trump", "discard", "lead", "follow")


def decision_kind(view: SeatView) -> str:
    """The phase, with the trump-setting opening lead told apart from later leads."""
    phase = phase_of(view)
    if phase == "lead" and view.trump is None:
        return "opening"
    return phase


# --- The bank: JSON Lines, appended, resumable ----------------------------------------


@dataclass
class Bank:
    path: Path
    keys: set[str]
    presets: Counter = field(default_factory=Counter)  # positions held of each preset

    @property
    def count(self) -> int:
        return len(self.keys)

    def count_of(self, preset: str) -> int:
        return self.presets[preset]

    def add(self, key: str, preset: str) -> None:
        self.keys.add(key)
        self.presets[preset] += 1


def open_bank(path: Path) -> Bank:
    """The keys a bank file holds. A truncated last line (a run stopped mid-write) is
    cut off; every complete line stays exactly as it was."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        path.touch()
        return Bank(path, set())
    data = path.read_bytes()
    complete = data.rfind(b"\n") + 1
    if complete < len(data):
        with path.open("r+b") as file:
            file.truncate(complete)
    bank = Bank(path, set())
    for line in data[:complete].splitlines():
        found = _line_key(line)
        if found:
            bank.add(*found)
    return bank


def _line_key(line: bytes) -> tuple[str, str] | None:
    """A line's key and its table's preset (the record's ``rules``; none: the house)."""
    try:
        item = json.loads(line)
        key = item.get("key") or position_key(item["record"], item["seat"])
        rules = item["record"].get("rules", "house")
        return key, rules if isinstance(rules, str) else rules.get("preset", "house")
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


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
    budget: Budget = Budget(),
    keep: Keep = Keep(),
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
