"""Bots: they receive a SeatView and the legal actions, never the true state.

class Bot(Protocol):
    def choose(self, view: SeatView, legal: Sequence[int], rng: Random) -> int: ...
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Protocol

from game.engine.view import SeatView

from .basic import GreedyBot, RandomBot
from .expert import ExpertBot


class Bot(Protocol):
    name: str

    def choose(self, view: SeatView, legal: Sequence[int], rng: Random) -> int: ...


LEVELS = {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot}


def make_bot(level: str, **options) -> Bot:
    try:
        return LEVELS[level](**options)
    except KeyError:
        raise ValueError(f"no bot called {level!r}; choose from {', '.join(LEVELS)}") from None


def choose_once(level: str, view: SeatView, legal: Sequence[int], seed: int, options: dict) -> int:
    """One choice by a fresh bot: a plain function of plain data, so that a worker process
    can run it without Django."""
    return make_bot(level, **options).choose(view, legal, Random(seed))
