"""What a hand is worth to its leader, from the hand alone: the model of how a player bids.

The expert cannot search every seat's view of every sampled deal, so it gives each seat
a cheaper judge: the points a leader's side takes with this hand, as a linear function
of the hand's features in its best trump suit. The weights are fitted by
``game.offline.calibration`` to exact solves of random deals (what an expert would expect on
average, over deals it cannot see) and kept in ``hand_model.json``, one set per table
size and number of partners. ``spread`` is how far real deals stray from the estimate;
``excess`` is how much more the exact search promises a leader than play by the expert
itself gives (it sees every hand; players do not), taken off every estimate.
``bid_shift`` and ``bid_style``, where fitted (``calibration --bids``), say how the
expert itself bids with a hand of that worth: how much higher, and how far astray.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from game.engine.cards import JOKERS, LOW_RANK, RANKS, SUIT_MASK, rank_count, suit_ranks

MODEL_FILE = Path(__file__).with_name("hand_model.json")

FEATURES = (
    "bias", "trumps", "trumps_squared", "ace", "king", "queen", "jack", "ten", "lowest",
    "second_lowest", "jokers", "side_aces", "side_tens",
)  # fmt: skip

_ACE, _KING, _QUEEN, _JACK, _TEN = (RANKS.index(r) for r in ("A", "K", "Q", "J", "10"))


@dataclass(frozen=True)
class HandModel:
    weights: tuple[float, ...]
    spread: float  # standard deviation of the exact points around the estimate
    excess: float = 0.0  # exact points minus points taken in play, on average
    excess_by_exact: tuple[float, ...] = ()  # the same for each exact value 0..6
    # the expert's own bids: the limit it bids to is the hand's value plus bid_shift, give
    # or take bid_style (a standard deviation); None where not fitted
    bid_shift: float = 0.0
    bid_style: float | None = None

    def shortfall(self, exact: int) -> float:
        """How many points a leader's side loses in play, on average, to what the exact
        search of the open deal gives it."""
        return self.excess_by_exact[exact] if self.excess_by_exact else self.excess

    def value(self, hand: int, players: int) -> float:
        """Expected points of the leader's side in play, trump chosen as well as the
        model can."""
        return self.exact_value(hand, players) - self.excess

    def exact_value(self, hand: int, players: int) -> float:
        """What the exact search of an open deal would give the leader's side, expected:
        ``max(dot(weights, row) for row in suit_features(hand, players))``, by table."""
        w = self.weights
        by_ranks = _trump_table(w, players)
        side_ace, side_ten = w[_SIDE_ACES], w[_SIDE_TENS]
        aces = tens = 0
        best = None
        for suit in range(4):
            ranks = suit_ranks(hand, suit)
            if ranks:
                ace, ten = ranks >> _ACE & 1, ranks >> _TEN & 1
                aces += ace
                tens += ten
                value = by_ranks[ranks] - side_ace * ace - side_ten * ten
                best = value if best is None or value > best else best
        if best is None:
            return dot(w, suit_features(hand, players)[0])
        return best + w[_JOKERS] * (hand & JOKERS).bit_count() + side_ace * aces + side_ten * tens


def suit_features(hand: int, players: int) -> list[tuple[float, ...]]:
    """One feature row per suit the hand could lead as trump (every suit it holds)."""
    low = RANKS.index(LOW_RANK[players])
    jokers = (hand & JOKERS).bit_count()
    rows = []
    for suit in range(4):
        ranks = suit_ranks(hand, suit)
        if not ranks:
            continue
        trumps = ranks.bit_count()
        side = hand & ~SUIT_MASK[suit] & ~JOKERS
        rows.append(
            (
                1.0,
                trumps,
                trumps * trumps / 6,
                ranks >> _ACE & 1,
                ranks >> _KING & 1,
                ranks >> _QUEEN & 1,
                ranks >> _JACK & 1,
                ranks >> _TEN & 1,
                ranks >> low & 1,
                ranks >> (low + 1) & 1,
                jokers,
                rank_count(side, _ACE),
                rank_count(side, _TEN),
            )  # fmt: skip
        )
    return rows or [(1.0,) + (0.0,) * (len(FEATURES) - 1)]


_JOKERS, _SIDE_ACES, _SIDE_TENS = (FEATURES.index(f) for f in ("jokers", "side_aces", "side_tens"))


@cache
def _trump_table(weights: tuple[float, ...], players: int) -> tuple[float, ...]:
    """For every 13-bit set of ranks, its weighted features as trump, side cards and
    jokers aside (what ``exact_value`` adds back)."""
    bias, trumps, squared, *flag_weights = weights[:_JOKERS]
    low = RANKS.index(LOW_RANK[players])
    flag_ranks = (_ACE, _KING, _QUEEN, _JACK, _TEN, low, low + 1)  # as in FEATURES
    flags = [(rank, w) for rank, w in zip(flag_ranks, flag_weights, strict=True) if w]
    table = [0.0]
    for ranks in range(1, 1 << 13):
        count = ranks.bit_count()
        value = bias + trumps * count + squared * count * count / 6
        for rank, w in flags:
            value += w * (ranks >> rank & 1)
        table.append(value)
    return tuple(table)


def dot(weights: tuple[float, ...], row: tuple[float, ...]) -> float:
    return sum(w * x for w, x in zip(weights, row, strict=True))


def model_key(players: int, partners: int) -> str:
    return f"{players}:{partners}"


@cache
def _fitted() -> dict[str, HandModel]:
    data = json.loads(MODEL_FILE.read_text())
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"{MODEL_FILE.name} was fitted for other features; refit it")
    return {
        key: HandModel(
            tuple(entry["weights"]),
            entry["spread"],
            entry.get("excess", 0.0),
            tuple(entry.get("excess_by_exact", ())),
            entry.get("bid_shift", 0.0),
            entry.get("bid_style"),
        )
        for key, entry in data["models"].items()
    }


def hand_model(players: int, partners: int) -> HandModel:
    """The fitted model for this table size and number of partners (the nearest fitted
    layout at this size when this one was not fitted)."""
    models = _fitted()
    key = model_key(players, partners)
    if key in models:
        return models[key]
    fitted = [int(k.split(":")[1]) for k in models if k.startswith(f"{players}:")]
    if not fitted:
        raise ValueError(f"no hand model for {players} players in {MODEL_FILE.name}")
    nearest = min(fitted, key=lambda p: abs(p - partners))
    return models[model_key(players, nearest)]
