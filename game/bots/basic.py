"""The simple bots: random, and greedy (sensible one-trick rules)."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from game.engine.cards import (
    GAME_VALUE,
    JOKER_1,
    JOKERS,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    ace_of,
    cards_of,
    functional_deck,
    jack_of,
    two_of,
)
from game.engine.rules import (
    PASS,
    Phase,
    bid_action,
    discard_action,
    trick_winner,
    trick_winner_full,
    trump_action,
    trumps_of,
)
from game.engine.variants import Rules
from game.engine.view import SeatView


class RandomBot:
    name = "random"

    def choose(self, view: SeatView, legal: Sequence[int], rng: Random) -> int:
        if view.phase is Phase.EXCHANGE:
            return random_discard(view, rng)
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
        if hand >> jack_of(suit) & 1:
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
        if not view.rules.is_house:
            return self._family(view, legal)
        if len(legal) == 1:
            return legal[0]
        if view.bidder is None:
            return self._bid(view, legal)
        if not view.current_trick:
            return self._lead(view, legal)
        return self._follow(view, legal)

    @staticmethod
    def _family(view: SeatView, legal: Sequence[int]) -> int:
        if view.phase is Phase.EXCHANGE:
            return _family_discard(view)  # one action, even where the rule leaves no choice
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.AUCTION:
            return _family_bid(view, legal)
        if view.phase is Phase.TRUMP:
            return trump_action(family_strength(view.hand, view.rules)[1])
        return family_play(view, legal)

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
        jack = jack_of(trump)
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


# --- Full-deck tables: naming trump, the discard, and play by the table's trumps --------


def family_strength(hand: int, table: Rules) -> tuple[float, int]:
    """A rough count of the points a full-deck hand would take as the bidder, and the suit
    to name. With ace and two (``ace_two``) the ace and the two score for whoever holds
    them, so they count in full."""
    best, best_suit = 0.0, 0
    for suit in range(4):
        trumps = trumps_of(suit, table.jick, table.jokers)
        held = hand & trumps.cards
        if not held:
            continue
        ace, two = 1 << ace_of(suit), 1 << two_of(suit)
        estimate = 1.0 if hand & ace else 0.0
        estimate += (1.0 if hand & two else 0.0) if table.high_low == "ace_two" else 0.0
        if hand >> jack_of(suit) & 1:
            estimate += 0.6 if held.bit_count() >= 4 else 0.35
        if trumps.jick >= 0 and hand >> trumps.jick & 1:
            estimate += 0.4 if "jick" in table.points else 0.0
        jokers = (hand & JOKERS).bit_count()
        if "jokers" in table.points or "joker_high" in table.points:
            estimate += 0.4 * jokers
        estimate += 0.3 * max(0, held.bit_count() - 3)
        estimate += 0.3 if sum(GAME_VALUE[c] for c in cards_of(hand)) >= 20 else 0.0
        estimate += 0.01 * max(trumps.strength[c] for c in cards_of(held))
        if estimate > best:
            best, best_suit = estimate, suit
    return best, best_suit


def _family_bid(view: SeatView, legal: Sequence[int]) -> int:
    table = view.rules
    estimate, _ = family_strength(view.hand, table)
    amount = min(table.max_bid, int(estimate))
    if PASS not in legal:
        return bid_action(max(table.min_bid, min(amount, table.max_bid)))
    partner_high = any(view.unit_of[s] == view.unit for s, a in view.auction if a != PASS)
    if amount >= table.min_bid and bid_action(amount) in legal and not partner_high:
        return bid_action(amount)
    return PASS


def _family_discard(view: SeatView) -> int:
    """Every card the rule says must go, then the least useful of those that may: plain
    low cards before tens and aces, the lowest trumps last."""
    rule = view.discard_rule
    trumps = view.trumps

    def keep_value(card: int) -> tuple:
        strength = trumps.strength[card]
        if strength >= 0:
            return (2, strength)
        return (1 if RANK_OF[card] == 12 or GAME_VALUE[card] >= 10 else 0, RANK_OF[card])

    return discard_action(rule.pick(sorted(cards_of(rule.optional), key=keep_value)))


def family_play(view: SeatView, legal: Sequence[int]) -> int:
    trumps = view.trumps
    strength = trumps.strength
    protected = trumps.point_cards & ~(1 << two_of(view.trump))  # the two scores for its player
    unseen_trumps = view.unseen & trumps.cards
    top_unseen = max((strength[c] for c in cards_of(unseen_trumps)), default=-1)
    plain = [c for c in legal if strength[c] < 0]

    def boss(card: int) -> bool:
        return strength[card] > top_unseen

    trick = [card for _, card in view.current_trick]
    if not trick:
        held = [c for c in legal if strength[c] >= 0]
        if held and boss(max(held, key=lambda c: strength[c])):
            return max(held, key=lambda c: strength[c])  # the top trump left: draw trump
        if plain:
            return min(plain, key=lambda c: (GAME_VALUE[c], RANK_OF[c]))
        return min(legal, key=lambda c: (protected >> c & 1, strength[c]))
    winner_at = trick_winner_full(trick, trumps)
    partner_winning = view.unit_of[view.current_trick[winner_at][0]] == view.unit
    last = len(trick) == view.players - 1
    if partner_winning and (last or boss(trick[winner_at])):
        feed = plain or [c for c in legal if not protected >> c & 1] or list(legal)
        return max(feed, key=lambda c: (GAME_VALUE[c], -RANK_OF[c]))  # take tens
    winners = [c for c in legal if trick_winner_full([*trick, c], trumps) == len(trick)]
    safe = [c for c in winners if not protected >> c & 1 or last or boss(c)]
    worth = any(GAME_VALUE[c] or trumps.point_cards >> c & 1 for c in trick)
    cheap = [c for c in safe if strength[c] < 0]
    if cheap:
        return min(cheap, key=lambda c: RANK_OF[c])
    if safe and (worth or last):
        return min(safe, key=lambda c: strength[c])
    dump = [c for c in legal if not protected >> c & 1] or list(legal)
    return min(
        dump, key=lambda c: (GAME_VALUE[c] >= 10, strength[c] >= 0, GAME_VALUE[c], RANK_OF[c])
    )


def random_discard(view: SeatView, rng: Random) -> int:
    """A discard the rule allows, chosen at random."""
    optional = cards_of(view.discard_rule.optional)
    rng.shuffle(optional)
    return discard_action(view.discard_rule.pick(optional))
