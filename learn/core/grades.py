"""How much a decision cost, in words: one scale for the trainer's explanations and the
review of a player's own rounds.

Costs are in match value (match points: how far the decision moves your side against the
best of the others), the unit every analysis prices its options in. At a table of two
units a point that changes hands is worth 2 (one fewer for you, one more for them).

- an **inaccuracy** costs at least 0.3: the smallest margin the trainer's bank teaches
  (``learn.core.analysis.Keep.min_margin``), about a third of a point;
- a **mistake** costs at least 1: a whole point of the score sheet, say a point your side
  no longer takes, or half a point changing hands;
- a **blunder** costs at least 2: a point given away outright to the other side (the jack
  dropped to an opponent), or a bid of 2 gone down.

A cost is only graded when it is also beyond the sampling noise: more than ``Z`` standard
errors of the margin between the two options (the bank's own test of a clear best
option; ``learn.core.positions.Option.margin_error``), and when at least ``MIN_DEALS`` sampled
deals stand behind it: the standard error is itself an estimate, off by about
1/sqrt(2(n - 1)) of itself over n deals, 15% at 23 deals and under 10% from 60.

Match values are shown rounded once, here (``points``): a header and its table, a
sentence and its figures, all print the same number, and options whose shown values are
equal are "level".
"""

from __future__ import annotations

INACCURACY, MISTAKE, BLUNDER = "inaccuracy", "mistake", "blunder"
THRESHOLDS = ((BLUNDER, 2.0), (MISTAKE, 1.0), (INACCURACY, 0.3))
Z = 2.0
MIN_DEALS = 60  # fewer sampled deals than this grade nothing: the analysis is thin
LABELS = {INACCURACY: "Inaccuracy", MISTAKE: "Mistake", BLUNDER: "Blunder"}
# the explanation's words for a cost, by grade
WORDS = {INACCURACY: "a small error", MISTAKE: "a clear mistake", BLUNDER: "a serious mistake"}


def grade_of(cost: float) -> str | None:
    """The grade of a cost in match points, ignoring noise; None below an inaccuracy."""
    for grade, threshold in THRESHOLDS:
        if cost >= threshold:
            return grade
    return None


def graded(cost: float, error: float, deals: int | None = None) -> str | None:
    """The grade of a decision that cost ``cost`` (``error``: that margin's standard
    error, over ``deals`` sampled deals), or None when it is too small, within the noise
    of the sampled deals, or resting on fewer than ``MIN_DEALS`` of them."""
    if cost <= Z * error or (deals is not None and is_thin(deals)):
        return None
    return grade_of(cost)


def is_thin(deals: int) -> bool:
    """Too few sampled deals to grade a decision by."""
    return deals < MIN_DEALS


def points(value: float, *, signed: bool = False) -> str:
    """A match value as every page and sentence shows it: two decimals, rounded here once."""
    text = f"{value:+.2f}" if signed else f"{value:.2f}"
    if text == "-0.00":  # a value that rounds to nothing has no sign to show
        return "+0.00" if signed else "0.00"
    return text


def level(a: float, b: float) -> bool:
    """Two match values that show the same figure: neither is better as far as shown."""
    return points(a) == points(b)


def words_for(cost: float) -> str:
    """How the explanation calls a cost beyond the sampling error."""
    return WORDS[grade_of(cost) or INACCURACY]
