"""The bots' ladder: a balanced schedule of fair matches among the levels, rated by Glicko-2.

Pure: no Django, no storage. A ladder is played per preset, at the preset's usual table
of two sides (four players, six at the six-handed game). One *round* of the schedule
gives every pair of levels one fair pair of matches: the same deals twice, each level on
each side once, so the deals favour nobody. Every match has a ``key`` naming its place in
the schedule, so a stored ladder resumes where it stopped and never replays a match.

The ratings are a fold over the results, a round at a time: each round is one Glicko-2
rating period for the whole pool, from a newcomer's rating and deviation but a bot's
volatility (``VOLATILITY``, below). A match called off (no winner after
``arena.MAX_ROUNDS`` rounds) counts as a draw. The scale is then shifted so that greedy,
when it plays, sits where the players' ratings have always put it (``GREEDY_RATING``):
only the gaps are measured, the zero is a convention. ``head_to_head`` sets each pair's
share of its matches beside the share the ratings predict: the check that the ratings
say what the matches did.
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
# A bot plays its last match of the ladder as it played its first (a retuned level's
# matches are forgotten and played again), so its strength does not drift between rating
# periods as a person's does: the players' volatility (0.06, about 10 rating points a
# period) would give every deviation back that much each round, and intervals would
# settle near +-90 however many rounds were played. A bot's drift is only the machine's
# load on a search bound by the clock: 0.01, under 2 points a round, so that the
# intervals narrow with the matches as a fixed strength's should (to about +-60 at 40
# rounds of four levels, with a floor near +-35 some 200 rounds on). Simulated ladders
# of known strengths keep the truth inside the 95% intervals 98% of the time, each gap
# between neighbours 97% (docs/bots.md).
VOLATILITY = 0.01


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
    ratings = {level: glicko.Rating(volatility=VOLATILITY) for level in levels}
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


@dataclass(frozen=True)
class Pair:
    """Two levels' matches against each other: ``score`` is the first's (a win 1, a match
    called off a half), ``expected`` the share of them its rating predicts."""

    first: str
    second: str
    matches: int
    score: float
    expected: float

    @property
    def share(self) -> float:
        return self.score / self.matches

    @property
    def z(self) -> float:
        """How many standard errors of a share of this many matches the share lies from
        the prediction (within 2 either way, the ratings say what the matches did)."""
        spread = (self.expected * (1.0 - self.expected) / self.matches) ** 0.5
        return (self.share - self.expected) / spread if spread else 0.0


def head_to_head(rows: Sequence[Standing], results: Iterable[Result]) -> list[Pair]:
    """Every pair that met, in the order of ``rows`` (strongest first): its share of the
    pair's matches beside what the ratings predict."""
    order = {row.level: index for index, row in enumerate(rows)}
    rating = {row.level: row.rating for row in rows}
    tally: dict[tuple[str, str], list[float]] = {}
    for result in results:
        first, second = sorted(result.lineup, key=order.__getitem__)
        score = 0.5 if result.winner is None else float(result.lineup[result.winner] == first)
        counts = tally.setdefault((first, second), [0, 0.0])
        counts[0] += 1
        counts[1] += score
    return [
        Pair(a, b, int(n), score, glicko.expected_between(rating[a], rating[b]))
        for (a, b), (n, score) in sorted(
            tally.items(), key=lambda kv: (order[kv[0][0]], order[kv[0][1]])
        )
    ]
