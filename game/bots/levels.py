"""Levels named by strength: the expert's way of playing, with less search and a
player's errors.

A level is a policy, never a random mover: it prices the legal actions as the expert
does (sampled deals, solved or played out), only over fewer deals in less time, and
then errs as a person does, each error drawn from the bot's own ``rng`` and from what
the seat sees, nothing else:

- *a misjudged hand*: in the auction, now and then the hand looks stronger (or weaker)
  than it is: each bid looks better (or worse) than passing by ``bid_shift`` match points
  for every point it bids, so an over-valued hand bids too high and an under-valued one
  too low or not at all, as a player who misjudges a hand;
- *a forgotten card*: each void a seat has shown (a suit not followed, a plain card on a
  trump lead) is forgotten with chance ``forget`` when the deals are sampled, so the
  search reckons that seat may still hold the suit (the same voids in every deal of
  one decision);
- *a wasted card*: now and then, in naming trump or in play, a card the expert's own
  values put a little below its best (at most ``slip_loss`` match points below it):
  a trump spent where a plain card did, a point card fed to the wrong trick.

``expert`` stays ``ExpertBot`` itself; the levels here sit below it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from random import Random

from game.engine.cards import JOKERS, SUIT_MASK
from game.engine.rules import Phase, bid_amount, is_bid
from game.engine.variants import Rules
from game.engine.view import SeatView

from .basic import GreedyBot
from .expert import Analysis, ExpertBot
from .full_deck import price_cards
from .pricing import Prices
from .sampling import Knowledge, knowledge


@dataclass(frozen=True)
class Errors:
    """How often, and how far, a level errs."""

    misbid: float = 0.0  # chance that an auction decision is misjudged
    bid_shift: float = 0.0  # by this many match points, up or down, per point bid
    forget: float = 0.0  # chance that each void a seat has shown is forgotten
    slip: float = 0.0  # chance that a card (or the suit named) is a weaker one
    slip_loss: float = 0.0  # at most this many match points below the best
    slip_among: int = 3  # among the expert's best this many choices


@dataclass(frozen=True)
class Tuning:
    """A level's deals and errors at one preset, where the house rules' ones do not carry:
    more cards, a discard and a named trump give an error more to cost."""

    max_deals: int
    errors: Errors
    budget_ms: float | None = None  # the level's own where None


@dataclass(frozen=True)
class Level:
    name: str
    label: str
    budget_ms: float
    max_deals: int
    errors: Errors  # at the house rules, and at any preset not in ``presets``
    presets: Mapping[str, Tuning] = field(default_factory=dict)

    def budget_at(self, rules: Rules) -> float:
        """The level's thinking time a decision under ``rules``."""
        tuning = self.presets.get(rules.preset)
        if tuning is None or tuning.budget_ms is None:
            return self.budget_ms
        return tuning.budget_ms


# Weakest first. Budgets keep a decision well inside a live table's pace on 2 cores. The
# errors are set by the house ladder (manage.py ladder, bench/RESULTS.md): neighbours at
# least 150 rating points apart with their intervals apart, greedy below them all. A
# search of a few dozen deals plays as well as the expert's at the house rules (a club
# level of 100 ms and 60 deals with few errors rated level with it), so the levels differ
# by their errors far more than their budgets; at a handful of deals, one deal more or
# less moves a level as much as its errors do. At classic, four points a round to 11 and
# a discard, an error costs more and greedy is a stronger opponent (only some 200 points
# under the expert): there the levels search a little longer and slip by less (at most
# 1-3 points below the best, not 3.5-7), set by a classic ladder of their own; club rates
# near greedy there, casual and the beginner below it. Near club, a few deals and a few
# points of error move a level by a hundred rating points or more. At seven-point, seven
# points a round and bids to 7, the house errors put the club level near the expert and
# the two lower ones far below it: there a slip costs at most 1.3 (club) to 4.5 (beginner)
# match points and the club errs far less, set by a seven-point ladder (greedy rates
# between club and casual). At six-handed, three a side with six cards each, the house
# club level rated near the expert and casual near the beginner (60 matches): there the
# beginner searches 3 deals and errs more than at the house rules, casual 7 deals and
# errs less, club keeps the house's 16 deals and errs a shade more, set by a six-handed
# ladder (greedy rates level with club, the two lower levels under it).
LEVEL_TABLE = (
    Level(
        "beginner",
        "Beginner",
        budget_ms=25.0,
        max_deals=4,
        errors=Errors(
            misbid=0.92, bid_shift=0.65, forget=1.0, slip=0.88, slip_loss=7.0, slip_among=7
        ),
        presets={
            "classic": Tuning(
                max_deals=10,
                budget_ms=30.0,
                errors=Errors(
                    misbid=0.78, bid_shift=0.47, forget=1.0, slip=0.68, slip_loss=3.0, slip_among=5
                ),
            ),
            "seven_point": Tuning(
                max_deals=4,
                errors=Errors(
                    misbid=0.9, bid_shift=0.6, forget=1.0, slip=0.85, slip_loss=4.5, slip_among=6
                ),
            ),
            "six_handed": Tuning(
                max_deals=3,
                errors=Errors(
                    misbid=0.95, bid_shift=0.7, forget=1.0, slip=0.92, slip_loss=8.0, slip_among=7
                ),
            ),
        },
    ),
    Level(
        "casual",
        "Casual",
        budget_ms=30.0,
        max_deals=6,
        errors=Errors(
            misbid=0.85, bid_shift=0.5, forget=1.0, slip=0.72, slip_loss=5.2, slip_among=5
        ),
        presets={
            "classic": Tuning(
                max_deals=21,
                budget_ms=42.0,
                errors=Errors(
                    misbid=0.6, bid_shift=0.35, forget=0.84, slip=0.54, slip_loss=1.9, slip_among=4
                ),
            ),
            "seven_point": Tuning(
                max_deals=6,
                errors=Errors(
                    misbid=0.8, bid_shift=0.47, forget=0.95, slip=0.68, slip_loss=3.0, slip_among=5
                ),
            ),
            "six_handed": Tuning(
                max_deals=7,
                budget_ms=32.0,
                errors=Errors(
                    misbid=0.78, bid_shift=0.46, forget=0.9, slip=0.65, slip_loss=4.5, slip_among=5
                ),
            ),
        },
    ),
    Level(
        "club",
        "Club",
        budget_ms=50.0,
        max_deals=16,
        errors=Errors(
            misbid=0.65, bid_shift=0.41, forget=0.77, slip=0.53, slip_loss=3.5, slip_among=4
        ),
        presets={
            "classic": Tuning(
                max_deals=45,
                budget_ms=65.0,
                errors=Errors(
                    misbid=0.43,
                    bid_shift=0.27,
                    forget=0.68,
                    slip=0.42,
                    slip_loss=1.22,
                    slip_among=3,
                ),
            ),
            "seven_point": Tuning(
                max_deals=16,
                errors=Errors(
                    misbid=0.47, bid_shift=0.33, forget=0.5, slip=0.3, slip_loss=1.3, slip_among=3
                ),
            ),
            "six_handed": Tuning(
                max_deals=16,
                errors=Errors(
                    misbid=0.67, bid_shift=0.42, forget=0.8, slip=0.55, slip_loss=3.6, slip_among=4
                ),
            ),
        },
    ),
)
LEVELS_BY_NAME = {level.name: level for level in LEVEL_TABLE}


def tuned_presets() -> set[str]:
    """The presets where some level plays a tuning of its own, not its house errors."""
    return {preset for level in LEVEL_TABLE for preset in level.presets}


@dataclass
class LevelBot(ExpertBot):
    """The expert at a smaller budget, erring as ``errors`` says."""

    level: str = "club"
    errors: Errors = field(default_factory=Errors)
    presets: Mapping[str, Tuning] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._forget_rng: Random | None = None

    @property
    def name(self) -> str:
        return self.level

    def at(self, rules: Rules) -> LevelBot:
        """This level as it plays under ``rules``: its deals and errors at that preset."""
        tuning = self.presets.get(rules.preset)
        if tuning is None:
            return self
        return replace(
            self,
            budget_ms=self.budget_ms if tuning.budget_ms is None else tuning.budget_ms,
            max_deals=tuning.max_deals,
            errors=tuning.errors,
            presets={},
        )

    def choose(self, view: SeatView, legal: Sequence[int], rng: Random) -> int:
        tuned = self.at(view.rules)
        if tuned is not self:
            return tuned.choose(view, legal, rng)
        if view.phase is Phase.EXCHANGE:
            # the discard is the expert's at this budget: its choices are not the legal list
            return super().choose(view, legal, rng)
        if len(legal) == 1:
            return legal[0]
        self._forget_rng = Random(rng.getrandbits(64))
        try:
            analysis = self.analyse(view, legal, rng, detailed=False)
        finally:
            self._forget_rng = None
        if not analysis.actions or not analysis.deals:
            return GreedyBot().choose(view, legal, rng)
        if view.phase is Phase.AUCTION:
            return self._judged_bid(analysis, rng)
        return self._slipped(analysis, rng)

    def _judged_bid(self, analysis: Analysis, rng: Random) -> int:
        """The best action once every bid's value is shifted by its size, on a misjudged
        hand: over-valued, the higher bids gain most; under-valued, passing gains."""
        errors = self.errors
        if rng.random() >= errors.misbid:
            return analysis.best
        shift = errors.bid_shift if rng.random() < 0.5 else -errors.bid_shift

        def judged(stats) -> float:
            size = bid_amount(stats.action) if is_bid(stats.action) else 0
            return stats.value + shift * size

        ranked = sorted(analysis.actions, key=lambda s: (-judged(s), s.action))
        return ranked[0].action

    def _slipped(self, analysis: Analysis, rng: Random) -> int:
        """Now and then one of the next best choices, never far below the best."""
        errors = self.errors
        if rng.random() >= errors.slip:
            return analysis.best
        best = analysis.actions[0].value
        near = [
            stats.action
            for stats in analysis.actions[1 : errors.slip_among]
            if best - stats.value <= errors.slip_loss
        ]
        return rng.choice(near) if near else analysis.best

    def _price_full_deck(self, view: SeatView, legal: Sequence[int], rng: Random) -> Prices:
        """At a full-deck table, card play forgets as at the house rules' table."""
        if view.phase is not Phase.PLAY or self._forget_rng is None or not self.errors.forget:
            return super()._price_full_deck(view, legal, rng)
        return price_cards(
            view,
            legal,
            rng,
            budget_ms=self.budget_ms,
            max_deals=self.max_deals,
            forget=self.errors.forget,
            forget_seed=self._forget_rng.getrandbits(64),
        )

    def _knowledge(self, view: SeatView) -> Knowledge:
        known = knowledge(view)
        if self._forget_rng is None or not self.errors.forget:
            return known
        return forgotten(known, self.errors.forget, self._forget_rng)


def forgotten(known: Knowledge, chance: float, rng: Random) -> Knowledge:
    """``known`` with each seat's shown voids forgotten, each with ``chance``: a barred
    suit (or the trumps and jokers a plain card on a trump lead rules out) is one memory.
    Forgetting only loosens what the sampler must respect, so a deal always exists."""
    pieces = (*SUIT_MASK, JOKERS)
    barred = []
    for seat_barred in known.barred:
        kept = seat_barred
        for piece in pieces:
            if seat_barred & piece and rng.random() < chance:
                kept &= ~piece
        barred.append(kept)
    return replace(known, barred=tuple(barred))


def level_bot(name: str, **options) -> LevelBot:
    """The named level; ``budget_ms`` and ``max_deals`` in ``options`` override its own, at
    every preset (the tests fix the deals and lift the clock, so that a choice repeats; a
    live table caps the budget by the time the turn allows)."""
    level = LEVELS_BY_NAME[name]
    presets = level.presets
    if "max_deals" in options:
        presets = {p: replace(t, max_deals=options["max_deals"]) for p, t in presets.items()}
    if "budget_ms" in options:
        presets = {p: replace(t, budget_ms=None) for p, t in presets.items()}
    options = {"budget_ms": level.budget_ms, "max_deals": level.max_deals, **options}
    return LevelBot(level=name, errors=level.errors, presets=presets, **options)
