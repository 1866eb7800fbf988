"""The simple bots: random, and greedy (sensible one-trick rules)."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from game.engine.cards import (
    GAME_VALUE,
    JACK,
    JOKER_1,
    JOKERS,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    cards_of,
    functional_deck,
)
from game.engine.rules import PASS, bid_action, trick_winner
from game.engine.view import SeatView


class RandomBot:
    name = "random"

    def choose(self, view: SeatView, legal: Sequence[int], rng: Random) -> int:
        return rng.choice(list(legal))


def hand_strength(hand: int, players: int) -> tuple[float, int]:
    """A rough count of the points this hand would take as the bidder, and its best suit."""
    deck = functional_deck(players)
    best, best_suit = 0.0, 0
    for suit in range(4):
        trumps = hand & SUIT_MASK[suit]
        if not trumps:
            continue
        top = RANK_OF[trumps.bit_length() - 1]
        lowest = trumps & -trumps
        deck_low = deck & SUIT_MASK[suit] & -(deck & SUIT_MASK[suit])
        estimate = {12: 1.0, 11: 0.6, 10: 0.3}.get(top, 0.0)  # A, K, Q may hold up for high
        if hand >> (suit * 13 + JACK) & 1:
            estimate += 0.5 if trumps.bit_count() >= 3 else 0.3
        if lowest == deck_low:
            estimate += 1.0
        elif RANK_OF[lowest.bit_length() - 1] <= RANK_OF[deck_low.bit_length() - 1] + 1:
            estimate += 0.5
        estimate += 0.5 * (hand & JOKERS).bit_count()
        estimate += 0.25 * max(0, trumps.bit_count() - 2)
        estimate += 0.3 if sum(GAME_VALUE[c] for c in cards_of(hand)) >= 14 else 0.0
        estimate += 0.05 * top  # between equal counts, the suit with the higher top card
        if estimate > best:
            best, best_suit = estimate, suit
    return best, best_suit


class GreedyBot:
    """Win cheaply, protect the jack, take tens, never waste trump."""

    name = "greedy"

    def choose(self, view: SeatView, legal: Sequence[int], rng: Random) -> int:
        if len(legal) == 1:
            return legal[0]
        if view.bidder is None:
            return self._bid(view, legal)
        if not view.current_trick:
            return self._lead(view, legal)
        return self._follow(view, legal)

    def _bid(self, view: SeatView, legal: Sequence[int]) -> int:
        estimate, _ = hand_strength(view.hand, view.players)
        amount = min(6, int(estimate))
        if PASS not in legal:
            return bid_action(max(1, amount))
        partner_high = any(view.unit_of[s] == view.unit for s, a in view.auction if a != PASS)
        if amount >= 2 and bid_action(amount) in legal and not partner_high:
            return bid_action(amount)
        return PASS

    def _lead(self, view: SeatView, legal: Sequence[int]) -> int:
        if view.trump is None:
            _, suit = hand_strength(view.hand, view.players)
            in_suit = [c for c in legal if SUIT_OF[c] == suit]
            return max(in_suit or legal)
        trumps = [c for c in legal if SUIT_OF[c] == view.trump]
        unseen_trumps = view.unseen & SUIT_MASK[view.trump]
        if trumps and max(trumps) > unseen_trumps.bit_length() - 1:
            return max(trumps)  # the top trump left: draw trump
        plain = [c for c in legal if c < JOKER_1 and SUIT_OF[c] != view.trump]
        if plain:
            return min(plain, key=lambda c: (GAME_VALUE[c], RANK_OF[c]))
        return min(legal, key=lambda c: (c >= JOKER_1, RANK_OF[c]))

    def _follow(self, view: SeatView, legal: Sequence[int]) -> int:
        trump = view.trump
        trick = [card for _, card in view.current_trick]
        winner_at = trick_winner(trick, trump)
        partner_winning = view.unit_of[view.current_trick[winner_at][0]] == view.unit
        last = len(trick) == view.players - 1
        jack = trump * 13 + JACK
        winners = [c for c in legal if trick_winner([*trick, c], trump) == len(trick)]
        plain = [c for c in legal if c < JOKER_1 and SUIT_OF[c] != trump]
        if partner_winning and (last or self._is_boss(view, trick[winner_at])):
            feed = plain or [c for c in legal if c != jack]
            return max(feed or legal, key=lambda c: (GAME_VALUE[c], -RANK_OF[c]))  # take tens
        safe_winners = [c for c in winners if c != jack or last or self._is_boss(view, c)]
        worth_taking = any(GAME_VALUE[c] or c >= JOKER_1 or SUIT_OF[c] == trump for c in trick)
        cheap_winners = [c for c in safe_winners if c < JOKER_1 and SUIT_OF[c] != trump]
        if cheap_winners:
            return min(cheap_winners, key=lambda c: RANK_OF[c])
        if safe_winners and (worth_taking or last):
            return min(safe_winners, key=lambda c: (c >= JOKER_1, RANK_OF[c]))
        dump = [c for c in legal if c != jack and c < JOKER_1] or list(legal)
        return min(
            dump,
            key=lambda c: (GAME_VALUE[c] >= 10, SUIT_OF[c] == trump, GAME_VALUE[c], RANK_OF[c]),
        )

    @staticmethod
    def _is_boss(view: SeatView, card: int) -> bool:
        """No unseen trump (or, for a plain card, no unseen card) can beat it."""
        if card >= JOKER_1:
            return False
        if SUIT_OF[card] == view.trump:
            return view.unseen & SUIT_MASK[view.trump] & ~((2 << card) - 1) == 0
        return False
