"""Choices priced over the same sampled deals: their means and standard errors."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass
class Prices:
    """Each choice's value deal by deal, over the same deals, and how much each deal
    counts. Between equal means the choice listed first is the better."""

    choices: Sequence[int]
    values: dict[int, list[float]] = field(init=False)
    weights: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.values = {choice: [] for choice in self.choices}

    def add(self, values: dict[int, float], weight: float = 1.0) -> None:
        for choice in self.choices:
            self.values[choice].append(values[choice])
        self.weights.append(weight)

    @property
    def deals(self) -> int:
        return len(self.weights)

    def best(self) -> int | None:
        """The choice with the best mean (None before any deal)."""
        ranked = self.ranked()
        return ranked[0] if ranked else None

    def ranked(self) -> list[int]:
        if not self.weights:
            return []
        order = {choice: index for index, choice in enumerate(self.choices)}
        means = {c: weighted_mean_of(v, self.weights) for c, v in self.values.items()}
        return sorted(self.choices, key=lambda c: (-means[c], order[c]))

    def figures(self) -> list[tuple[int, float, float, float]]:
        """(choice, mean, its standard error, the error of the best's lead over it),
        best first."""
        ranked = self.ranked()
        if not ranked:
            return []
        best = self.values[ranked[0]]
        rows = []
        for choice in ranked:
            values = self.values[choice]
            mean, error = weighted_mean_and_se(values, self.weights)
            lead = [b - v for b, v in zip(best, values, strict=True)]
            rows.append((choice, mean, error, weighted_mean_and_se(lead, self.weights)[1]))
        return rows


def weighted_mean_of(values: Sequence[float], weights: Sequence[float]) -> float:
    total = sum(weights)
    if total <= 0:
        return mean_of(values)
    return sum(v * w for v, w in zip(values, weights, strict=True)) / total


def weighted_mean_and_se(values: Sequence[float], weights: Sequence[float]) -> tuple[float, float]:
    """The weighted mean and its standard error, over the deals' effective number."""
    total = sum(weights)
    if total <= 0:
        return mean_and_se(values)
    mean = weighted_mean_of(values, weights)
    effective = total * total / sum(w * w for w in weights)
    if effective < 2:
        return mean, 0.0
    variance = sum(w * (v - mean) ** 2 for v, w in zip(values, weights, strict=True)) / total
    return mean, math.sqrt(variance / effective)


def mean_of(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def mean_and_se(values: Sequence[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    mean = mean_of(values)
    if len(values) < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(variance / len(values))
