"""A discard chosen card by card, as at the table, and its grade.

The trainer asks a discard as a player makes one: by tapping the cards to keep, or the
cards to throw, whichever takes fewer taps (``game.card_chooser``). The answer
is then any discard the seat's rule allows, not one of a list, and it is read here:

- ``keep:AS,2S`` or ``throw:9H,3C``: the chooser's taps. The cards the rule fixes are
  never tapped: a card that must stay is kept and a card that must go is thrown, whatever
  the mode; a tapped card outside the hand, or one the rule fixes, is refused with the
  reason in words.
- ``discard:9H,3C,...``: a whole discard as the game record writes it, checked against
  the rule (``DiscardRule.why_not``).

Grading. A discard among the options the analysis priced is graded as any option is
(``learn.selectors.is_right``). One it did not price (a six-handed dealer's 23 cards allow
some hundred thousand discards; an analysis prices about ten) is priced when it is
answered, against the expert's discard alone, by the expert's own rollouts over the same
sampled deals (``game.bots.rollouts.price_each``): ``ANSWER_DEALS`` deals, the bank's own
number, in about half a second at the six-handed dealer (``bench/discard_pricing.py``).
It is right when it is as good as the expert's within the sampling error, the test the
priced options pass (``learn.core.explain.is_equivalent``), and counts toward a rating
only when at least ``grades.MIN_DEALS`` deals stand behind that verdict. The deals come
from a seed of the position and the discard, so a discard always gets the same figures;
they are kept per process for the reveal, and priced again from the same seed where they
are not. Pure Python: no Django here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from random import Random
from threading import Lock

from cachetools import LRUCache, cached

from game.bots.rollouts import price_each
from game.engine.discard_taps import discard_chosen
from game.engine.rules import (
    action_code,
    discard_action,
    parse_action_code,
)
from game.engine.view import SeatView

from . import grades
from .positions import AnalysedPosition, Option

# the deals a discard the analysis did not price is priced on, against the expert's: the
# bank's own number (learn.bank.generation's analyses of a discard reach 300)
ANSWER_DEALS = 300
# and the most time it may take: beyond it the answer is graded on the deals priced so
# far and, under grades.MIN_DEALS of them, not rated
ANSWER_BUDGET_MS = 1500.0


def discard_code(view: SeatView, choice: str) -> str:
    """``discard_chosen`` as the game record writes the discard: what an attempt stores."""
    return action_code(discard_action(discard_chosen(view, choice)))


# --- Grading a discard the analysis did not price -----------------------------------------


@dataclass(frozen=True)
class Afresh:
    """A discard priced when it was answered, against the expert's (the position's best
    option) on the same sampled deals."""

    code: str
    best_value: float  # the expert's discard, over these deals
    value: float  # the discard answered, over the same deals
    error: float  # the standard error of their difference, deal by deal
    deals: int

    @property
    def cost(self) -> float:
        """What the discard gives up against the expert's (below 0: it did better)."""
        return self.best_value - self.value

    @property
    def level(self) -> bool:
        """Both show the same match value: neither is better as far as shown."""
        return grades.level(self.value, self.best_value)

    @property
    def verdict(self) -> grades.Verdict:
        """The discard judged against the expert's on the one scale (``grades``)."""
        return grades.Verdict(
            cost=max(0.0, self.cost), error=self.error, deals=self.deals, tie=self.level
        )

    @property
    def correct(self) -> bool:
        """As good as the expert's as far as the figures tell (level, better, or within
        the noise): the test the priced options pass (``explain.is_equivalent``)."""
        if not self.deals:
            return False  # priced on no deal: nothing says it is as good
        return self.cost < 0 or self.verdict.as_good

    @property
    def rated(self) -> bool:
        """Enough deals stand behind the verdict for it to count toward a rating."""
        return not grades.is_thin(self.deals)


def with_answer(position: AnalysedPosition, found: Afresh) -> AnalysedPosition:
    """The position with the discard priced as it was answered among its options (its
    value behind the best by the cost measured over its own deals): so the explanation
    compares the answer with the expert's discard as it compares any priced option."""
    if is_priced(position, found.code):
        return position
    best = position.best
    answer = Option(
        code=found.code,
        value=round(best.value - found.cost, 3),
        value_se=found.error,
        points=None,
        made=None,
        margin_se=found.error,
    )
    return dataclasses.replace(position, options=(*position.options, answer))


def is_priced(position: AnalysedPosition, code: str) -> bool:
    return any(option.code == code for option in position.options)


def afresh(position: AnalysedPosition, code: str) -> Afresh | None:
    """The discard ``code`` priced against the expert's, or None when the analysis
    priced it already (or the position is no discard)."""
    if position.phase != "discard" or is_priced(position, code):
        return None
    return _priced_afresh(position, code)


# kept by the position's key and the discard: never the position itself, which holds its
# replayed match
_afresh_kept: LRUCache = LRUCache(maxsize=256)


@cached(_afresh_kept, key=lambda position, code: (position.key, code), lock=Lock())
def _priced_afresh(position: AnalysedPosition, code: str) -> Afresh:
    view = position.view()
    best, chosen = parse_action_code(position.best.code), parse_action_code(code)
    prices = price_each(
        view,
        [best, chosen],
        Random(f"discard/{position.key}/{code}"),
        budget_ms=ANSWER_BUDGET_MS,
        max_deals=ANSWER_DEALS,
    )
    figures = {choice: (mean, lead) for choice, mean, _, lead in prices.figures()}
    if not figures:  # no deal fits the view: nothing to grade by
        return Afresh(code, 0.0, 0.0, 0.0, 0)
    (best_value, best_lead), (value, lead) = figures[best], figures[chosen]
    return Afresh(
        code=code,
        best_value=round(best_value, 3),
        value=round(value, 3),
        error=round(max(best_lead, lead), 3),  # the second's: the error of the lead
        deals=prices.deals,
    )
