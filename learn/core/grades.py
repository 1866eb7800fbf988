"""How much a decision cost, in words: one scale for the trainer's explanations, the
review of a player's own rounds and the legend that explains both.

Costs are in match value (match points: how far the decision moves your side against the
best of the others, the end of the match counted), the unit every analysis prices its
options in. At a table of two units a point that changes hands is worth 2 (one fewer for
you, one more for them). ``SCALE`` is the one table of thresholds:

- **level**: less than 0.3 behind the best, nothing to mark (and "level" outright when
  the two values show the same figure);
- an **inaccuracy** costs at least 0.3: the smallest margin the trainer's bank teaches
  (``learn.core.analysis.Keep.min_margin``), about a third of a point;
- a **mistake** costs at least 1: a whole point of the score sheet, say a point your side
  no longer takes, or half a point changing hands;
- a **blunder** costs at least 2: a point given away outright to the other side (the jack
  dropped to an opponent), or a bid of 2 gone down.

The noise rule. A cost is marked only when it is also beyond the sampling noise: more
than ``Z`` standard errors of the margin between the two options (the bank's own test of
a clear best option; ``learn.core.positions.Option.margin_error``) and more than
``EQUAL_WITHIN``; and only when at least ``MIN_DEALS`` sampled deals stand behind it: the
standard error is itself an estimate, off by about 1/sqrt(2(n - 1)) of itself over n
deals, 15% at 23 deals and under 10% from 60. ``verdict`` applies the rule once: the
trainer's sentence, whether an answer counts as right, the review's heading and its count
all read the same ``Verdict``, so none can call a cost a mistake that another leaves
unmarked.

Match values are shown rounded once, here (``points``): a header and its table, a
sentence and its figures, all print the same number, and options whose shown values are
equal are "level". The round's points (``round_points``) and chances, in tenths
(``odds``), are said here too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .positions import AnalysedPosition, Option

LEVEL, INACCURACY, MISTAKE, BLUNDER = "level", "inaccuracy", "mistake", "blunder"
Z = 2.0  # standard errors of the margin a cost must exceed to be told from chance
EQUAL_WITHIN = 0.05  # match points: closer than this is chance whatever the error says
MIN_DEALS = 60  # fewer sampled deals than this grade nothing: the analysis is thin


@dataclass(frozen=True)
class Step:
    """One row of the scale: a grade, the cost it starts at, and its words."""

    grade: str
    label: str  # a heading's word: "Mistake"
    start: float  # match points: the least cost of this grade
    said: str  # the sentence's words: "Passing is a mistake"
    meaning: str  # the legend's gloss


SCALE: tuple[Step, ...] = (
    Step(
        LEVEL,
        "Level",
        0.0,
        "level with the best",
        "the same as the best, or less than 0.3 behind it: no mark",
    ),
    Step(INACCURACY, "Inaccuracy", 0.3, "an inaccuracy", "about a third of a point"),
    Step(MISTAKE, "Mistake", 1.0, "a mistake", "a whole point of the score sheet"),
    Step(
        BLUNDER,
        "Blunder",
        2.0,
        "a blunder",
        "a point given away outright to the other side, or a bid of 2 gone down",
    ),
)
STEPS = {step.grade: step for step in SCALE}
MARKS = (INACCURACY, MISTAKE, BLUNDER)  # the grades a review marks
LABELS = {step.grade: step.label for step in SCALE}


def step_of(cost: float) -> Step:
    """The scale's row for a cost in match points, ignoring noise."""
    found = SCALE[0]
    for step in SCALE:
        if cost >= step.start:
            found = step
    return found


def grade_of(cost: float) -> str | None:
    """The mark a cost in match points earns, ignoring noise; None below an inaccuracy."""
    grade = step_of(cost).grade
    return None if grade == LEVEL else grade


@dataclass(frozen=True)
class Verdict:
    """What a choice cost against the best, judged once by the noise rule."""

    cost: float  # match points behind the best, never below 0
    error: float  # the standard error of that margin
    deals: int | None  # sampled deals behind it; None: not known (counts as enough)
    tie: bool  # the chosen value shows the same figure as the best's: level
    best: bool = False  # the chosen option is the analysis's best

    @property
    def step(self) -> Step:
        return step_of(self.cost)

    @property
    def noise(self) -> bool:
        """Within the sampling noise: chance alone could make a gap this size."""
        return not self.tie and self.cost <= max(EQUAL_WITHIN, Z * self.error)

    @property
    def thin(self) -> bool:
        """Beyond the noise, but on too few deals to grade by."""
        return not (self.tie or self.noise) and self.deals is not None and is_thin(self.deals)

    @property
    def as_good(self) -> bool:
        """As good as the best as far as the figures tell: level, or within the noise."""
        return self.tie or self.noise

    @property
    def grade(self) -> str | None:
        """The mark: INACCURACY, MISTAKE or BLUNDER; None when level, within the noise or
        resting on too few deals."""
        if self.as_good or self.thin:
            return None
        return grade_of(self.cost)

    @property
    def label(self) -> str:
        """A heading's word for it, the same rule as the sentence's."""
        if self.tie:
            return "Best" if self.best else "Level"
        if self.noise:
            return "Too close to call"
        if self.thin:
            return "Not graded"
        if self.step.grade == LEVEL:  # clearly behind, but by less than an inaccuracy
            return "Close"
        return self.step.label

    @property
    def kind(self) -> str:
        """A slug for the page: "best", "level", "noise", "thin", "close" or the mark."""
        if self.tie:
            return "best" if self.best else "level"
        if self.noise:
            return "noise"
        if self.thin:
            return "thin"
        return self.grade or "close"


def verdict(best: Option, chosen: Option, deals: int | None = None) -> Verdict:
    """Judge ``chosen`` against ``best`` (the analysis's best option, over ``deals`` sampled
    deals) by the scale and the noise rule: the one place the rule is applied."""
    return Verdict(
        cost=max(0.0, best.value - chosen.value),
        error=chosen.margin_error(best),
        deals=deals,
        tie=chosen.code == best.code or level(best.value, chosen.value),
        best=chosen.code == best.code,
    )


def verdict_of(position: AnalysedPosition, code: str) -> Verdict:
    """The verdict on choosing ``code`` at ``position`` (PositionError if not offered)."""
    return verdict(position.best, position.option(code), position.deals)


def graded(cost: float, error: float, deals: int | None = None) -> str | None:
    """The mark of a decision that cost ``cost`` with standard error ``error``, or None:
    the same rule as ``Verdict.grade``."""
    return Verdict(max(0.0, cost), error, deals, tie=points(cost) == "0.00").grade


def is_thin(deals: int) -> bool:
    """Too few sampled deals to grade a decision by."""
    return deals < MIN_DEALS


def points(value: float, *, signed: bool = False) -> str:
    """A match value as every page and sentence shows it: two decimals, rounded here once."""
    text = f"{value:+.2f}" if signed else f"{value:.2f}"
    if text in ("-0.00", "+0.00"):  # a value that rounds to nothing has no sign to show
        return "0.00"
    return text


def round_points(value: float) -> str:
    """The round's points (High, Low, Jack, Game) a side expects, as every page and
    sentence shows them: one decimal, rounded here once."""
    return f"{value:.1f}"


def level(a: float, b: float) -> bool:
    """Two match values that show the same figure: neither is better as far as shown."""
    return points(a) == points(b)


def odds(chance: float) -> str:
    """A chance in tenths, as a player counts, said after its verb ("is made 8 times in
    10"): "every time" and "0 times in 10" only when no sampled deal says otherwise."""
    if chance >= 0.995:
        return "every time"
    if chance <= 0.005:
        return "0 times in 10"
    tenths = round(chance * 10)
    if tenths >= 10:
        return "more than 9 times in 10"
    if tenths <= 0:
        return "less than 1 time in 10"
    return f"{tenths} time{'s' if tenths != 1 else ''} in 10"


def legend() -> tuple[tuple[str, str, float, str], ...]:
    """The scale as a legend shows it: (grade, label, from, meaning), level first."""
    return tuple((step.grade, step.label, step.start, step.meaning) for step in SCALE)
