"""Bots: they receive a SeatView and the legal actions, never the true state.

class Bot(Protocol):
    def choose(self, view: SeatView, legal: Sequence[int], rng: Random) -> int: ...
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import partial
from random import Random
from typing import Protocol

from game.engine.view import SeatView

from .basic import GreedyBot, RandomBot
from .expert import ExpertBot
from .levels import LEVEL_TABLE, LEVELS_BY_NAME, level_bot


class Bot(Protocol):
    name: str

    def choose(self, view: SeatView, legal: Sequence[int], rng: Random) -> int: ...


# even a choice that is already late gets this long to search: a few deals at least
MIN_THINK_MS = 10.0

# beginner, casual and club are the expert with less search and a player's errors
# (levels.py); expert-v1 is the expert before its auction search and expert-v2 the expert
# before its honest prices (issue 50), both kept frozen for the arena
LEVELS = {
    **{level.name: partial(level_bot, level.name) for level in LEVEL_TABLE},
    "expert": ExpertBot,
    "greedy": GreedyBot,
    "random": RandomBot,
    "expert-v1": partial(ExpertBot, version=1),
    "expert-v2": partial(ExpertBot, version=2),
}
# the levels a person may seat at a table, offered in this order, weakest first; greedy
# stays for the tables that seated it. Random is not an opponent: it is offered no more,
# and kept for the arena, the tests and the tables stored with it.
OFFERED_LEVELS = (*LEVELS_BY_NAME, "expert", "greedy")
SEATED_LEVELS = (*OFFERED_LEVELS, "random")
# each offered level's name and, in a sentence, how it plays (the bots page)
ABOUT_LEVELS = {
    "beginner": (
        "Beginner",
        "Plays the expert's way over a handful of imagined deals, but misjudges most hands "
        "in the auction, forgets who has shown out of a suit and often plays a weak card.",
    ),
    "casual": (
        "Casual",
        "A little steadier over a few more deals: still misjudges many hands and forgets "
        "who has shown out of a suit, but plays a poor card less often.",
    ),
    "club": (
        "Club",
        "Steadier over a dozen or more deals: still misjudges many hands and forgets most "
        "of the voids it has seen, but plays a weaker card less often.",
    ),
    "expert": (
        "Expert",
        "Weighs hundreds of deals for every decision, remembers every card shown and bids "
        "what its hand is worth.",
    ),
    "greedy": (
        "Greedy",
        "A rule of thumb, not a search: bids on a rough count of its hand's points, then "
        "wins tricks cheaply and never wastes a trump.",
    ),
}


def make_bot(level: str, **options) -> Bot:
    try:
        return LEVELS[level](**options)
    except KeyError:
        raise ValueError(f"no bot called {level!r}; choose from {', '.join(LEVELS)}") from None


def choose_once(
    level: str,
    view: SeatView,
    legal: Sequence[int],
    seed: int,
    options: dict,
    think_until: float | None = None,
) -> int:
    """One choice by a fresh bot: a plain function of plain data, so that a worker process
    can run it without Django. ``think_until`` (a ``time.time()``) caps a searching bot's
    budget, counted from when the worker starts on it: a choice that waited in a busy
    worker's queue thinks less, so that it is still ready when its move is due."""
    if think_until is not None and level in LEVELS_BY_NAME and "budget_ms" not in options:
        options = {**options, "budget_ms": LEVELS_BY_NAME[level].budget_at(view.rules)}
    if think_until is not None and "budget_ms" in options:
        left_ms = (think_until - time.time()) * 1000
        options = {**options, "budget_ms": max(MIN_THINK_MS, min(options["budget_ms"], left_ms))}
    return make_bot(level, **options).choose(view, legal, Random(seed))
