"""What one seat knows about a round, and deals of the unseen cards consistent with it.

``Knowledge`` is in the solver's terms (masks, seats, units), so the Python sampler here
and the native core's deal the same positions: deal ``i`` of a seed is drawn from its
own splitmix64 stream, which depends on nothing but ``(seed, i)``.

The sampler places one card at a time and never makes a choice that would leave some
seats unfillable (Hall's condition over the seats still short of cards), so it needs no
retries and fails, with ``NoConsistentDeal``, only when no consistent deal exists.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .cards import cards_of, mask_of
from .solver_py import Position

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class NoConsistentDeal(RuntimeError):
    """No deal of the unseen cards fits what the seat knows."""


@dataclass(frozen=True)
class Knowledge:
    """Everything a sampler needs about one seat's view of a round."""

    unit_of: tuple[int, ...]
    seat: int  # the seat that knows
    hand: int  # the cards it holds now
    unseen: int  # cards in other hands or hidden
    needs: tuple[int, ...]  # cards each seat still holds (0 for the seat itself)
    barred: tuple[int, ...]  # cards each seat is known not to hold
    played_by: tuple[int, ...]  # cards each seat has played this round
    trump: int  # -1 before the first lead
    leader: int  # who leads (or led) the current trick
    trick: tuple[int, ...] = ()
    taken: tuple[int, ...] = ()  # cards each unit has captured; empty means none yet

    @property
    def players(self) -> int:
        return len(self.unit_of)

    def position(self, hands) -> Position:
        """The complete deal in which the seats hold ``hands`` now."""
        return Position(
            unit_of=self.unit_of,
            hands=tuple(hands),
            dealt=tuple(h | p for h, p in zip(hands, self.played_by, strict=True)),
            trump=self.trump,
            leader=self.leader,
            trick=self.trick,
            taken=self.taken,
        )


def as_leader(known: Knowledge) -> Knowledge:
    """The same knowledge as if its seat had won the auction and were about to lead."""
    if any(known.played_by):
        raise ValueError("a seat leads the first trick only before any card is played")
    return replace(known, trump=-1, leader=known.seat, trick=(), taken=())


# --- splitmix64, bit for bit as in native/src/sampler.cpp ------------------------------


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class SplitMix64:
    def __init__(self, state: int):
        self.state = state & MASK64

    @classmethod
    def for_deal(cls, seed: int, index: int) -> SplitMix64:
        """The generator of deal ``index`` under ``seed``: it depends on nothing else."""
        return cls(_mix((_mix(seed & MASK64) + index) & MASK64))

    def next(self) -> int:
        self.state = (self.state + _GOLDEN) & MASK64
        return _mix(self.state)

    def below(self, n: int) -> int:
        """A number in [0, n), by multiply and shift."""
        return (self.next() * n) >> 64


# --- The sampler -------------------------------------------------------------------------


def _fillable(known: Knowledge, pool: int, needs: list[int]) -> bool:
    """Hall's condition: every set of seats still short of cards can be filled from pool."""
    return _hall(pool, needs, known.barred)


def _hall(pool: int, needs: list[int], barred) -> bool:
    allowed = [pool & ~barred[s] for s in range(len(needs)) if needs[s] > 0]
    wanted = [needs[s] for s in range(len(needs)) if needs[s] > 0]
    reach = [0] * (1 << len(allowed))
    total = [0] * (1 << len(allowed))
    for subset in range(1, 1 << len(allowed)):
        i = (subset & -subset).bit_length() - 1
        rest = subset & (subset - 1)
        reach[subset] = reach[rest] | allowed[i]
        total[subset] = total[rest] + wanted[i]
        if reach[subset].bit_count() < total[subset]:
            return False
    return True


def sample_deal(known: Knowledge, seed: int, index: int) -> Position:
    """Deal ``index`` of ``seed``: a complete position consistent with the knowledge."""
    rng = SplitMix64.for_deal(seed, index)
    needs = list(known.needs)
    pool = known.unseen
    if not _fillable(known, pool, needs):
        raise NoConsistentDeal("no deal fits what this seat has seen")
    constrained = any(needs[s] and known.barred[s] & pool for s in range(known.players))
    hands = [0] * known.players
    hands[known.seat] = known.hand
    for seat in range(known.players):
        while needs[seat]:
            candidates = pool & ~known.barred[seat]
            while True:
                card = cards_of(candidates)[rng.below(candidates.bit_count())]
                if not constrained:
                    break
                needs[seat] -= 1
                ok = _fillable(known, pool & ~(1 << card), needs)
                needs[seat] += 1
                if ok:
                    break
                candidates &= ~(1 << card)
            hands[seat] |= 1 << card
            pool &= ~(1 << card)
            needs[seat] -= 1
    return known.position(hands)


def sample_deals(known: Knowledge, count: int, seed: int) -> list[Position]:
    return [sample_deal(known, seed, index) for index in range(count)]


def deal_among(pool: int, needs: list[int], barred: list[int], rng) -> list[int]:
    """Deal every card of ``pool`` to holders (seats, discard piles, a pack) so that holder
    ``i`` gets ``needs[i]`` cards and none of ``barred[i]``, each card at random among the
    choices that still leave every holder fillable. Raises NoConsistentDeal when none can."""
    needs = list(needs)
    if sum(needs) != pool.bit_count() or not _hall(pool, needs, barred):
        raise NoConsistentDeal("no deal fits what this seat has seen")
    held = [0] * len(needs)
    if not any(barred[h] & pool for h in range(len(needs)) if needs[h]):
        cards = cards_of(pool)
        rng.shuffle(cards)
        for holder, need in enumerate(needs):
            held[holder] = mask_of(cards[:need])
            cards = cards[need:]
        return held
    for holder in sorted(range(len(needs)), key=lambda h: -(barred[h] & pool).bit_count()):
        while needs[holder]:
            candidates = cards_of(pool & ~barred[holder])
            rng.shuffle(candidates)
            for card in candidates:
                needs[holder] -= 1
                if _hall(pool & ~(1 << card), needs, barred):
                    break
                needs[holder] += 1
            else:  # pragma: no cover - Hall's condition held before this card
                raise NoConsistentDeal("no deal fits what this seat has seen")
            held[holder] |= 1 << card
            pool &= ~(1 << card)
    return held
