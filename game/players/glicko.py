"""Glicko-2 ratings, after Mark Glickman's "Example of the Glicko-2 system" (2012).

Pure arithmetic, no Django. A rating is (rating, deviation, volatility) on the familiar
1500 scale; the algorithm works on the Glicko-2 scale (mu, phi) internally. The trainer
treats every answer as a rating period of one game for the learner and for the position,
and lets a deviation grow with the time a rating sat idle before that game; the players'
ratings (``game.players.ratings``) treat each finished match as one rating period; the bots'
ladder (``game.offline.ladder``) rates its pool a round of matches at a time
(``rate_period``). A rating's 95% interval is 1.96 deviations either side. Here in
``game`` so that both apps use this one copy (imports run learn -> game).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2 scale factor: 400 / ln(10)
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
# the system constant: how much the volatility may change; the paper suggests 0.3 to 1.2
TAU = 0.5
# the convergence tolerance of the volatility iteration (step 5.1 of the paper)
EPSILON = 0.000001
# a deviation never grows back past that of a newcomer
MAX_DEVIATION = DEFAULT_DEVIATION
# a 95% interval spans this many deviations either side of the rating
Z95 = 1.96


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE

    @property
    def half_width95(self) -> float:
        """Half the width of the rating's 95% interval."""
        return Z95 * self.deviation

    @property
    def interval95(self) -> tuple[float, float]:
        return self.rating - self.half_width95, self.rating + self.half_width95


@dataclass(frozen=True)
class Result:
    """One game against ``opponent``: ``score`` is 1 for a win, 0 for a loss, 0.5 a draw."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The chance ``player`` beats ``opponent``, by the Glicko-2 model."""
    return _expected(player.mu, opponent.mu, opponent.phi)


def expected_between(a: Rating, b: Rating) -> float:
    """The share of their games ``a`` should score against ``b``, both ratings' deviations
    reckoned (symmetric: ``expected_between(b, a)`` is one less this)."""
    return _expected(a.mu, b.mu, math.hypot(a.phi, b.phi))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x) = 0, where x = ln(sigma'^2)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Sequence[Result], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these games (steps 2 to 8)."""
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not results:
        # step 6 alone: a player who did not compete only grows less certain
        return Rating(player.rating, _capped(SCALE * math.sqrt(phi * phi + sigma * sigma)), sigma)
    inverse_v = 0.0
    improvement = 0.0
    for result in results:
        g = _g(result.opponent.phi)
        e = _expected(mu, result.opponent.mu, result.opponent.phi)
        inverse_v += g * g * e * (1.0 - e)
        improvement += g * (result.score - e)
    v = 1.0 / inverse_v
    delta = v * improvement
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(
        rating=DEFAULT_RATING + SCALE * mu_new,
        deviation=SCALE * phi_new,
        volatility=sigma_new,
    )


def _capped(deviation: float) -> float:
    return min(deviation, MAX_DEVIATION)


def after_idle(player: Rating, periods: float) -> Rating:
    """The rating after ``periods`` rating periods without a game (a fraction is fine):
    the deviation grows as phi' = sqrt(phi^2 + periods * sigma^2), never past a newcomer's."""
    if periods <= 0:
        return player
    phi = player.phi
    grown = SCALE * math.sqrt(phi * phi + periods * player.volatility**2)
    return Rating(player.rating, _capped(grown), player.volatility)


def rate_game(
    player: Rating, opponent: Rating, score: float, *, tau: float = TAU
) -> tuple[Rating, Rating]:
    """One game as a rating period of its own for both sides: (player after, opponent after)."""
    return (
        rate(player, [Result(opponent, score)], tau=tau),
        rate(opponent, [Result(player, 1.0 - score)], tau=tau),
    )


def rate_period(
    ratings: Mapping[str, Rating],
    games: Sequence[tuple[str, str, float]],
    *,
    tau: float = TAU,
) -> dict[str, Rating]:
    """Everyone's rating after one rating period among a pool: ``games`` are
    (player, opponent, the player's score); each is rated against the others' ratings
    from before the period, as the paper asks, and whoever did not play grows less certain."""
    results: dict[str, list[Result]] = {name: [] for name in ratings}
    for player, opponent, score in games:
        results[player].append(Result(ratings[opponent], score))
        results[opponent].append(Result(ratings[player], 1.0 - score))
    return {name: rate(ratings[name], results[name], tau=tau) for name in ratings}
