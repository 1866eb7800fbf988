"""Exact double-dummy search over a complete deal, in pure Python: the reference.

``game.engine.solver`` dispatches to the native core when it is built and to this module
otherwise; the differential tests hold the core to these values exactly.

Two sides: the units in ``Utility.side`` maximise, everyone else minimises (with more
than two units that is the "paranoid" reduction). The value of a finished round is
``Utility.table[a][b]``, where ``a`` and ``b`` are the round points the two sides took;
the table must rise with ``a`` and fall with ``b``, which is what lets the search stop
early once the points still out cannot change the answer.

Alpha-beta with a transposition table at trick starts, cheap-winner move ordering, and
merging of cards that have become equivalent (touching in rank, same game value, not a
scoring card) so only one of them is searched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from time import perf_counter

from .cards import (
    GAME_VALUE,
    JOKER_1,
    JOKERS,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    cards_of,
    game_total,
)
from .rules import (
    TrumpSuit,
    capture_points,
    game_winner,
    legal_cards,
    legal_cards_full,
    low_card,
    point_roles,
    trick_winner,
    trick_winner_full,
    trumps_of,
)
from .variants import Rules

INFINITY = 1 << 30
MAX_POINTS = 7


@dataclass(frozen=True)
class Position:
    """A complete deal in mid-round: every seat's cards are known."""

    unit_of: tuple[int, ...]
    hands: tuple[int, ...]  # the cards each seat still holds
    dealt: tuple[int, ...]  # each seat's original six (low goes to whoever was dealt it)
    trump: int  # -1 before the round's first card
    leader: int  # who led (or leads) the current trick
    trick: tuple[int, ...] = ()  # cards played to the current trick, in order
    taken: tuple[int, ...] = ()  # cards each unit has captured; empty means none yet
    table: Rules | None = None  # a full-deck table's rules (trump named); None: the house's

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    @property
    def trumps(self) -> TrumpSuit | None:
        table = self.table
        return None if table is None else trumps_of(self.trump, table.jick, table.jokers)

    def legal(self) -> int:
        hand, led = self.hands[self.to_act], self.trick[0] if self.trick else -1
        if self.table is None:
            return legal_cards(hand, led, self.trump)
        return legal_cards_full(hand, led, self.trumps, self.table.follow)

    def trick_winner(self, trick: tuple[int, ...]) -> int:
        """Index in ``trick`` of its winning card."""
        if self.table is None:
            return trick_winner(trick, self.trump if self.trump >= 0 else SUIT_OF[trick[0]])
        return trick_winner_full(trick, self.trumps)


@dataclass(frozen=True)
class Utility:
    """What a finished round is worth to the maximising side."""

    side: frozenset[int]  # the maximising units
    table: tuple[tuple[int, ...], ...] = field(default=())  # [a][b]; default a - b

    def __post_init__(self) -> None:
        if not self.table:
            table = tuple(tuple(a - b for b in range(MAX_POINTS)) for a in range(MAX_POINTS))
            object.__setattr__(self, "table", table)
        t = self.table
        for a in range(len(t)):
            for b in range(len(t)):
                assert a == 0 or t[a][b] >= t[a - 1][b], "the table must rise with a"
                assert b == 0 or t[a][b] <= t[a][b - 1], "the table must fall with b"


class SearchTimeout(RuntimeError):
    """The search passed its deadline; it has no answer for this deal."""


@dataclass
class SearchStats:
    """Nodes searched so far, and an optional ``time.perf_counter()`` deadline."""

    nodes: int = 0
    deadline: float | None = None


def action_values(
    position: Position, utility: Utility, stats: SearchStats | None = None
) -> dict[int, int]:
    """The exact value, to the maximising side, of every legal card for the seat to act.

    Each value is pinned down by zero-window tests (a binary search over the table's
    range), which prune far more than one full-window search.
    """
    root = _Root(position, utility, stats)
    return {
        card: _bisect(lambda goal, card=card: root.at_least(card, goal), utility)
        for card in root.order
    }


def solve(position: Position, utility: Utility, stats: SearchStats | None = None) -> int:
    """The exact value of the position to the maximising side.

    Zero-window tests ("is the value at least g?") under a binary search: each test
    prunes far more than a full-window search, and the table keeps what earlier tests
    proved.
    """
    return _Root(position, utility, stats).value()


def _bisect(reaches, utility: Utility) -> int:
    """The largest value ``reaches`` accepts, within the table's range. The best value is
    tried first: a side with the lead and a free choice of trump often takes everything."""
    entries = [v for row in utility.table for v in row]
    low, high = min(entries), max(entries)
    if reaches(high):
        return high
    high -= 1
    while low < high:
        middle = (low + high + 1) // 2
        if reaches(middle):
            low = middle
        else:
            high = middle - 1
    return low


@dataclass(frozen=True)
class SampledSolve:
    """Deals solved in index order (with two threads, a deal the budget cut short may be
    missing between two that finished). Mode "actions": ``values[i]`` holds the exact value of
    each card in ``cards`` (the knowing seat's legal cards, ascending) in deal ``i``;
    mode "value": a 1-tuple, deal ``i``'s value."""

    positions: tuple[Position, ...]
    values: tuple[tuple[int, ...], ...]
    cards: tuple[int, ...]
    complete: bool  # False when the budget cut the batch short
    nodes: int
    dropped: int = 0  # deals begun and given up to the budget


class _Root:
    """The searches below one position: one per trump the next card could set, sharing
    their transposition tables across every question asked of the position."""

    def __init__(self, position: Position, utility: Utility, stats: SearchStats | None):
        self.position = position
        self.utility = utility
        self.stats = stats if stats is not None else SearchStats()
        self.order = _root_order(position)
        self._searches: dict[int, _Search] = {}

    def after(self, card: int, alpha: int = -INFINITY, beta: int = INFINITY) -> int:
        trump = self.position.trump if self.position.trump >= 0 else SUIT_OF[card]
        search = self._searches.get(trump)
        if search is None:
            search = self._searches[trump] = _Search(self.position, trump, self.utility, self.stats)
        return search.after(card, alpha, beta)

    def at_least(self, card: int, goal: int) -> bool:
        return self.after(card, goal - 1, goal) >= goal

    def value(self) -> int:
        pick = any if utility_side_moves(self.position, self.utility) else all
        return _bisect(lambda goal: pick(self.at_least(c, goal) for c in self.order), self.utility)


def _root_order(position: Position) -> list[int]:
    """Likely-best first. The opening lead also picks trump: the longest, strongest suit
    first, from its top card down."""
    cards = cards_of(position.legal())
    if position.trump >= 0:
        return cards
    hand = position.hands[position.to_act]

    def strength(card: int) -> tuple[int, int]:
        suit = hand & SUIT_MASK[SUIT_OF[card]]
        return (-(suit.bit_count() * 16 + sum(RANK_OF[c] for c in cards_of(suit))), -card)

    return sorted(cards, key=strength)


def utility_side_moves(position: Position, utility: Utility) -> bool:
    return position.unit_of[position.to_act] in utility.side


def principal_variation(position: Position, utility: Utility) -> list[int]:
    """One line of best play to the end of the round."""
    line = []
    while any(position.hands):
        card = best_card(position, utility)
        line.append(card)
        position = advance(position, card)
    return line


def best_card(position: Position, utility: Utility) -> int:
    """A card that achieves the position's exact value."""
    root = _Root(position, utility, None)
    value = root.value()
    for card in root.order:
        if root.after(card, value - 1, value + 1) == value:
            return card
    raise AssertionError("no card reaches the solved value")


def advance(position: Position, card: int) -> Position:
    """The position after ``card`` is played; no legality check (search plays legal cards)."""
    seat = position.to_act
    hands = (
        position.hands[:seat] + (position.hands[seat] & ~(1 << card),) + position.hands[seat + 1 :]
    )
    trump = position.trump if position.trump >= 0 else SUIT_OF[card]
    trick = position.trick + (card,)
    taken = position.taken or (0,) * (max(position.unit_of) + 1)
    table = position.table
    if len(trick) < position.players:
        return Position(
            position.unit_of, hands, position.dealt, trump, position.leader, trick, taken, table
        )
    winner = (position.leader + position.trick_winner(trick)) % position.players
    unit = position.unit_of[winner]
    won = 0
    for c in trick:
        won |= 1 << c
    taken = taken[:unit] + (taken[unit] | won,) + taken[unit + 1 :]
    return Position(position.unit_of, hands, position.dealt, trump, winner, (), taken, table)


class _Search:
    """The search for one deal with trump fixed.

    The recursion is built from closures over local names: this is the hot loop, and
    local lookups are several times cheaper than attribute lookups in CPython.
    """

    def __init__(self, position: Position, trump: int, utility: Utility, stats: SearchStats | None):
        self.position = position
        self.trump = trump
        unit_of = position.unit_of
        units = max(unit_of) + 1
        in_play = 0
        for hand in position.dealt:
            in_play |= hand
        self.cards = (
            _house_cards(trump, in_play, position.dealt)
            if position.table is None
            else _full_deck_cards(position.table, trump, in_play, position.dealt)
        )
        self.once, self.twice = self.cards.once, self.cards.twice
        self.side_of_seat = tuple(unit in utility.side for unit in unit_of)
        self.side_of_unit = tuple(unit in utility.side for unit in range(units))
        taken = position.taken or (0,) * units
        sure = [0, 0]  # [minimising side, maximising side]
        for unit, cards in enumerate(taken):
            sure[self.side_of_unit[unit]] += self._points(cards)
        for seat in self.cards.dealt_points:
            sure[self.side_of_seat[seat]] += 1
        self.sure = sure
        self.games = tuple(game_total(cards) for cards in taken)
        self.play = self._build(utility.table, stats if stats is not None else SearchStats())

    def _points(self, cards: int) -> int:
        return (cards & self.once).bit_count() + (cards & self.twice).bit_count()

    def after(self, card: int, alpha: int = -INFINITY, beta: int = INFINITY) -> int:
        """Value once the seat to act plays ``card``: exact within (alpha, beta), else a bound."""
        p = self.position
        seat = p.to_act
        hands = p.hands[:seat] + (p.hands[seat] & ~(1 << card),) + p.hands[seat + 1 :]
        trick = p.trick + (card,)
        winning = trick[self.cards.trick_winner(trick)]
        win_seat = (p.leader + trick.index(winning)) % p.players
        return self.play(
            hands, p.leader, seat, trick, winning, win_seat,
            self.sure[1], self.sure[0], self.games, alpha, beta,
        )  # fmt: skip

    def _build(self, table, stats):
        once, twice = self.once, self.twice
        side_of_seat, side_of_unit = self.side_of_seat, self.side_of_unit
        unit_of = self.position.unit_of
        players = len(unit_of)
        merges = self.cards.merges
        tt = {}
        rules = self.cards
        legal_cards, beats, trick_winner = rules.legal, rules.beats, rules.trick_winner
        lead_key = rules.lead_key
        feed_key = tuple(-2 * GAME_VALUE[c] - 100 * (once >> c & 1) for c in range(54))
        cheap_key = rules.cheap_key
        dump_key = tuple(GAME_VALUE[c] * 20 + RANK_OF[c] + 200 * (once >> c & 1) for c in range(54))
        suit_of = SUIT_OF

        def take(mask, winner, a, b, games):
            """Score a finished trick: its capture points and its game value go to ``winner``."""
            points = (mask & once).bit_count() + (mask & twice).bit_count()
            if side_of_seat[winner]:
                a += points
            else:
                b += points
            unit = unit_of[winner]
            return a, b, games[:unit] + (games[unit] + game_total(mask),) + games[unit + 1 :]

        def final(a, b, games):
            """The value of a finished round: game goes to the unique highest total."""
            winner = game_winner(games)
            if winner is not None:
                if side_of_unit[winner]:
                    a += 1
                else:
                    b += 1
            return table[a][b]

        def cont(hands, leader, seat, trick, winning, win_seat, a, b, games, alpha, beta):
            """After ``seat`` added the last card of ``trick``: finish the trick or pass on."""
            if len(trick) < players:
                return play(hands, leader, (seat + 1) % players, trick, winning, win_seat,
                            a, b, games, alpha, beta)  # fmt: skip
            mask = 0
            for c in trick:
                mask |= 1 << c
            a, b, games = take(mask, win_seat, a, b, games)
            return trick_start(hands, win_seat, a, b, games, alpha, beta)

        def trick_start(hands, leader, a, b, games, alpha, beta):
            remaining = 0
            for hand in hands:
                remaining |= hand
            if not remaining:
                return final(a, b, games)
            if remaining.bit_count() == players:
                # one card each: the last trick plays itself
                trick = [hands[(leader + i) % players].bit_length() - 1 for i in range(players)]
                winner = (leader + trick_winner(trick)) % players
                return final(*take(remaining, winner, a, b, games))
            # Bounds from the points still out: stop when they cannot change the answer.
            out = (remaining & once).bit_count() + (remaining & twice).bit_count()
            settled = None  # the side game surely goes to, if either
            if len(games) == 1:
                settled = side_of_unit[0]
            else:
                ordered = sorted(games)
                if ordered[-1] > ordered[-2] + game_total(remaining):
                    settled = side_of_unit[games.index(ordered[-1])]
            if settled is None:
                upper = table[a + out + 1][b]
                lower = table[a][b + out + 1]
            elif settled:
                upper = table[a + out + 1][b]
                lower = table[a + 1][b + out]
            else:
                upper = table[a + out][b + 1]
                lower = table[a][b + out + 1]
            if upper <= alpha or lower == upper:
                return upper
            if lower >= beta:
                return lower
            key = (hands, leader, a, b, games)
            entry = tt.get(key)
            if entry is not None:
                lo, hi = entry
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                lower, upper = max(lower, lo), min(upper, hi)
            alpha0 = alpha if alpha > lower else lower
            beta0 = beta if beta < upper else upper
            value = play(hands, leader, leader, (), -1, -1, a, b, games, alpha0, beta0)
            if value <= alpha0:
                tt[key] = (lower, value)
            elif value >= beta0:
                tt[key] = (value, upper)
            else:
                tt[key] = (value, value)
            return value

        deadline = stats.deadline

        def play(hands, leader, seat, trick, winning, win_seat, a, b, games, alpha, beta):
            stats.nodes += 1
            if deadline is not None and not stats.nodes & 1023 and perf_counter() > deadline:
                raise SearchTimeout
            hand = hands[seat]
            legal = legal_cards(hand, trick[0] if trick else -1)
            if merges:
                legal = merge(legal, hands, trick)
            cards = []
            while legal:
                low = legal & -legal
                cards.append(low.bit_length() - 1)
                legal ^= low
            maximizing = side_of_seat[seat]
            if len(cards) > 1:
                if not trick:
                    cards.sort(key=lead_key.__getitem__)
                elif side_of_seat[win_seat] == maximizing:
                    if len(trick) == players - 1:
                        cards.sort(key=feed_key.__getitem__)  # feed the partner who has won
                    else:
                        cards.sort(key=dump_key.__getitem__)
                else:
                    cards.sort(
                        key=lambda c: cheap_key[c] if beats(c, winning) else 1000 + dump_key[c]
                    )
            best = -INFINITY if maximizing else INFINITY
            before = hands[:seat]
            after = hands[seat + 1 :]
            for card in cards:
                if winning < 0 or beats(card, winning):
                    new_winning, new_seat = card, seat
                else:
                    new_winning, new_seat = winning, win_seat
                value = cont(
                    before + (hand & ~(1 << card),) + after, leader, seat, trick + (card,),
                    new_winning, new_seat, a, b, games, alpha, beta,
                )  # fmt: skip
                if maximizing:
                    if value > best:
                        best = value
                        if value > alpha:
                            alpha = value
                            if alpha >= beta:
                                break
                elif value < best:
                    best = value
                    if value < beta:
                        beta = value
                        if alpha >= beta:
                            break
            return best

        def merge(legal, hands, trick):
            """Keep one card of each run of touching cards worth the same (and not scoring):
            no card still in play, the current trick included, ranks between them."""
            others = 0
            for hand in hands:
                others |= hand
            for c in trick:
                others |= 1 << c
            others &= ~legal
            keep = legal & (JOKERS | once)
            plain = legal & ~keep
            last = -1
            run_value = -1
            while plain:
                low = plain & -plain
                card = low.bit_length() - 1
                plain ^= low
                value = GAME_VALUE[card]
                if (
                    value == run_value
                    and suit_of[card] == suit_of[last]
                    and not others & (low - 1) & ~((2 << last) - 1)
                ):
                    last = card
                    continue
                keep |= low
                run_value, last = value, card
            return keep

        self._merge = merge
        return cont

    def _merge_equivalent(self, legal: int, hands: tuple[int, ...], trick_mask: int) -> int:
        return self._merge(legal, hands, cards_of(trick_mask))


@dataclass(frozen=True)
class _Cards:
    """What one search needs of the rules with trump fixed: the cards that score for their
    capturer (``once``; ``twice`` where one card is two points), the seats the deal itself
    gives a point (house low; ace and two), the legal cards, which card beats which, and
    the move-ordering keys."""

    once: int
    twice: int
    dealt_points: tuple[int, ...]
    legal: Callable[[int, int], int]  # (hand, led) -> legal cards
    beats: Callable[[int, int], bool]  # (card, winning card so far)
    trick_winner: Callable[[tuple[int, ...]], int]
    lead_key: tuple[int, ...]
    cheap_key: tuple[int, ...]
    merges: bool  # merge touching cards worth the same


def _house_cards(trump: int, in_play: int, dealt: tuple[int, ...]) -> _Cards:
    once, twice = capture_points(trump, in_play)
    low = low_card(trump, in_play)
    low_seat = next(seat for seat, hand in enumerate(dealt) if hand >> low & 1)
    is_trump = tuple(c < JOKER_1 and SUIT_OF[c] == trump for c in range(54))
    suit_of = SUIT_OF

    def beats(card: int, current: int) -> bool:
        if card >= JOKER_1:
            return current < JOKER_1 and not is_trump[current]
        if is_trump[card]:
            return not is_trump[current] or card > current
        if current >= JOKER_1 or is_trump[current]:
            return False
        return suit_of[card] == suit_of[current] and card > current

    return _Cards(
        once=once,
        twice=twice,
        dealt_points=(low_seat,),
        legal=lambda hand, led: legal_cards(hand, led, trump),
        beats=beats,
        trick_winner=lambda trick: trick_winner(trick, trump),
        lead_key=_lead_keys(trump),
        cheap_key=tuple(RANK_OF[c] + 20 * (c >= JOKER_1 or is_trump[c]) for c in range(54)),
        # only where touching ranks can share a game value (the 0-point ranks below 10)
        merges=in_play & ~JOKERS & _ZERO_GAME_MASK != 0,
    )


def _full_deck_cards(table: Rules, trump: int, in_play: int, dealt: tuple[int, ...]) -> _Cards:
    """A full-deck table: the jack, the jick and the jokers score for their capturer; with
    ace and two, every card kept is played, so high and low go to the seats that hold them."""
    trumps = trumps_of(trump, table.jick, table.jokers)
    strength, following, follow = trumps.strength, trumps.following, table.follow
    captured, held = point_roles(table.points, trumps)
    once = captured & in_play
    dealt_points = tuple(
        seat for card in cards_of(held) for seat, hand in enumerate(dealt) if hand >> card & 1
    )

    def beats(card: int, current: int) -> bool:
        if strength[current] >= 0:
            return strength[card] > strength[current]
        return strength[card] >= 0 or (following[current] >> card & 1 and card > current)

    return _Cards(
        once=once,
        twice=0,
        dealt_points=dealt_points,
        legal=lambda hand, led: legal_cards_full(hand, led, trumps, follow),
        beats=beats,
        trick_winner=lambda trick: trick_winner_full(trick, trumps),
        lead_key=tuple(-100 - strength[c] if strength[c] >= 0 else -RANK_OF[c] for c in range(54)),
        cheap_key=tuple(20 + strength[c] if strength[c] >= 0 else RANK_OF[c] for c in range(54)),
        merges=False,
    )


_ZERO_GAME_MASK = sum(1 << c for c in range(52) if GAME_VALUE[c] == 0 and RANK_OF[c] < 7)


def _lead_keys(trump: int) -> tuple[int, ...]:
    """Lead order: trumps from the top, then the cheapest other cards."""
    keys = []
    for c in range(54):
        if c < JOKER_1 and SUIT_OF[c] == trump:
            keys.append(-100 + -RANK_OF[c])
        else:
            keys.append(-RANK_OF[c] if c < JOKER_1 else 50)
    return tuple(keys)
