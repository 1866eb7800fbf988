"""The bots' ladder: a balanced schedule of fair matches among the levels, rated by Glicko-2.

Pure: no Django, no storage. A ladder is played per preset, at the preset's usual table
of two sides (four players, six at the six-handed game). One *round* of the schedule
gives every pair of levels one fair pair of matches: the same deals twice, each level on
each side once, so the deals favour nobody. Every match has a ``key`` naming its place in
the schedule, so a stored ladder resumes where it stopped and never replays a match.

The ratings are a fold over the results, a round at a time: each round is one Glicko-2
rating period for the whole pool, from a newcomer's rating. A match called off (no
winner after ``arena.MAX_ROUNDS`` rounds) counts as a draw. The scale is then shifted so
that greedy, when it plays, sits where the players' ratings have always put it
(``GREEDY_RATING``): only the gaps are measured, the zero is a convention.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from game.engine import variants
from game.engine.state import MatchSetup
from game.offline import arena
from game.players import glicko

# the ladder's entrants by default, weakest first (greedy is the reference of the scale)
LEVELS = ("beginner", "casual", "club", "expert", "greedy")
PRESETS = tuple(variants.PRESETS)
GREEDY_RATING = 1500.0


def players_for(preset: str) -> int:
    """The preset's usual size for two sides: four players, or six when it takes no fewer."""
    sizes = variants.preset(preset).players
    return 4 if 4 in sizes else min(size for size in sizes if size % 2 == 0)


def setup_for(preset: str, target: int | None = None) -> MatchSetup:
    """Two sides of alternating seats at the preset's usual size, to ``target`` (the
    preset's own unless given)."""
    return MatchSetup.partnerships(players_for(preset), 2, target, variants.preset(preset))


@dataclass(frozen=True)
class LadderGame:
    """One match of the schedule: ``lineup`` is (side 0's level, side 1's level)."""

    preset: str
    target: int
    round: int
    lineup: tuple[str, str]
    seed: int

    @property
    def key(self) -> str:
        first, second = self.lineup
        return f"{self.preset}/{self.target}/r{self.round}/{first}-{second}"


def schedule(
    levels: Sequence[str], preset: str, target: int, rounds: int, seed: int = 0
) -> list[LadderGame]:
    """Rounds 1 to ``rounds``: in each, every pair of levels plays the same deals twice,
    sides swapped. A longer schedule starts with the shorter one's games."""
    if len(set(levels)) < 2:
        raise ValueError("a ladder needs two different levels at least")
    games = []
    for number in range(1, rounds + 1):
        for a, b in combinations(levels, 2):
            deals = _deal_seed(seed, preset, target, number, a, b)
            games.append(LadderGame(preset, target, number, (a, b), deals))
            games.append(LadderGame(preset, target, number, (b, a), deals))
    return games


def _deal_seed(seed: int, preset: str, target: int, number: int, a: str, b: str) -> int:
    pair = "-".join(sorted((a, b)))
    text = f"ladder/{seed}/{preset}/{target}/{number}/{pair}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@dataclass(frozen=True)
class Result:
    """A finished match: the winning side (0 or 1), or None for a match called off."""

    key: str
    round: int
    lineup: tuple[str, str]
    winner: int | None
    rounds: int


def play(game: LadderGame) -> Result:
    """Play one match of the schedule (a plain function of plain data: a worker process
    runs it)."""
    setup = setup_for(game.preset, game.target)
    outcome = arena.play(setup, arena.Game(game.seed, game.lineup))
    return Result(game.key, game.round, game.lineup, outcome.winner, outcome.rounds)


@dataclass(frozen=True)
class Standing:
    level: str
    rating: glicko.Rating
    matches: int
    wins: int


def standings(levels: Iterable[str], results: Iterable[Result]) -> list[Standing]:
    """Each level's rating after these results, a round at a time, strongest first."""
    ratings = {level: glicko.Rating() for level in levels}
    by_round: dict[int, list[Result]] = {}
    for result in results:
        by_round.setdefault(result.round, []).append(result)
    matches = dict.fromkeys(ratings, 0)
    wins = dict.fromkeys(ratings, 0)
    for number in sorted(by_round):
        games = []
        for result in by_round[number]:
            first, second = result.lineup
            score = 0.5 if result.winner is None else float(result.winner == 0)
            games.append((first, second, score))
            for side, level in enumerate(result.lineup):
                matches[level] += 1
                wins[level] += result.winner == side
        ratings = glicko.rate_period(ratings, games)
    shift = GREEDY_RATING - ratings["greedy"].rating if "greedy" in ratings else 0.0
    rows = [
        Standing(
            level,
            glicko.Rating(rating.rating + shift, rating.deviation, rating.volatility),
            matches[level],
            wins[level],
        )
        for level, rating in ratings.items()
    ]
    return sorted(rows, key=lambda row: -row.rating.rating)
