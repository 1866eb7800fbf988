"""The rules of Smear: the only copy of them.

Everything here works on ints and bit masks (see ``cards``) so that the state machine
and the solver share these functions at full speed. The house rules (seed 000) are the
plain functions; a table with the full deck (``variants.Rules.is_house`` false) reads its
trump through ``trumps_of`` and its options from its ``Rules``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import NamedTuple

from .cards import (
    JOKER_1,
    JOKER_2,
    JOKERS,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    ace_of,
    card_code,
    cards_of,
    game_total,
    jack_of,
    jick_of,
    parse_card,
    two_of,
)
from .variants import DEFAULT_TARGET as DEFAULT_TARGET  # the rules value's, said here too
from .variants import HOUSE_POINTS, MOST_POINTS

MIN_BID = 1
MAX_BID = 6

# Actions are ints: a card is its own action, then pass, the bids 1..7, naming each
# trump suit, and a whole discard (a tag bit above the cards' mask).
PASS = 54
_BID_BASE = PASS
BIDS = tuple(range(_BID_BASE + 1, _BID_BASE + MOST_POINTS + 1))
TRUMP_BASE = BIDS[-1] + 1
TRUMPS = tuple(range(TRUMP_BASE, TRUMP_BASE + 4))
DISCARD = 1 << 64


def bid_action(amount: int) -> int:
    if not 1 <= amount <= MOST_POINTS:
        raise ValueError(f"a bid is 1 to {MOST_POINTS}, not {amount}")
    return _BID_BASE + amount


def bid_amount(action: int) -> int:
    return action - _BID_BASE


def is_bid(action: int) -> bool:
    return BIDS[0] <= action <= BIDS[-1]


def is_card(action: int) -> bool:
    return 0 <= action < PASS


def trump_action(suit: int) -> int:
    return TRUMP_BASE + suit


def is_trump_action(action: int) -> bool:
    return TRUMP_BASE <= action < TRUMP_BASE + 4


def named_suit(action: int) -> int:
    return action - TRUMP_BASE


def discard_action(cards: int) -> int:
    """A seat's whole discard as one action: the cards' mask under a tag bit."""
    return DISCARD | cards


def is_discard(action: int) -> bool:
    return action >> 64 == 1


def discarded(action: int) -> int:
    return action & (DISCARD - 1)


def _spell(action: int) -> str:
    if action == PASS:
        return "pass"
    if is_bid(action):
        return f"bid:{bid_amount(action)}"
    if is_trump_action(action):
        return f"trump:{SUITS[named_suit(action)]}"
    return card_code(action)


# the code of every action but a discard, by its number
ACTION_CODES = tuple(_spell(action) for action in range(TRUMPS[-1] + 1))


def action_code(action: int) -> str:
    """``bid:N``, ``pass``, ``trump:S``, ``discard:9H,3C`` or a card code: the spelling the
    game record and the site's forms use."""
    if action.__class__ is int and action >= DISCARD and is_discard(action):
        return "discard:" + ",".join(card_code(c) for c in cards_of(discarded(action)))
    if not 0 <= action < len(ACTION_CODES):
        raise ValueError(f"no action {action!r}")
    return ACTION_CODES[action]


def parse_action_code(text: str) -> int:
    lowered = text.strip().lower()
    if lowered == "pass":
        return PASS
    if lowered.startswith("bid:"):
        try:
            return bid_action(int(lowered[4:]))
        except ValueError:
            raise ValueError(f"unknown action {text!r}") from None
    if lowered.startswith("trump:"):
        suit = lowered[6:].upper()
        if len(suit) != 1 or suit not in SUITS:
            raise ValueError(f"unknown action {text!r}")
        return trump_action(SUITS.index(suit))
    if lowered.startswith("discard:"):
        mask = 0
        for code in filter(None, lowered[8:].split(",")):
            card = parse_card(code)
            if mask >> card & 1:
                raise ValueError(f"{card_code(card)} is discarded twice")
            mask |= 1 << card
        return discard_action(mask)
    return parse_card(text)


class Phase(Enum):
    """Where a round stands: a single-lap auction, then (where the bidder names trump) the
    trump and the exchange of cards, then six tricks, then over."""

    AUCTION = "auction"
    TRUMP = "trump"
    EXCHANGE = "exchange"
    PLAY = "play"
    OVER = "over"


# --- The auction -------------------------------------------------------------------


@cache
def legal_bids(high_bid: int, must_open: bool, bids: tuple[int, int] = (1, 6)) -> tuple[int, ...]:
    """One lap, bids strictly increasing within ``bids``; the last seat must open if nobody
    has and the table says so (``must_open``)."""
    lowest = max(bids[0], high_bid + 1)
    raises = tuple(range(_BID_BASE + lowest, _BID_BASE + bids[1] + 1))
    if must_open:
        return raises
    return raises + (PASS,)


# --- Card play ---------------------------------------------------------------------


def legal_cards(hand: int, led: int, trump: int) -> int:
    """The mask of cards ``hand`` may play.

    ``led`` is the first card of the current trick, or -1 when leading; ``trump`` is
    the trump suit, or -1 before the round's first card sets it.
    """
    if led < 0:
        if trump < 0:
            return hand & ~JOKERS  # a joker may not open the round: trump is not set yet
        return hand
    if led >= JOKER_1:
        return hand  # a joker lead leaves every card legal
    trumpish = hand & (SUIT_MASK[trump] | JOKERS)
    led_suit = SUIT_OF[led]
    if led_suit == trump:
        # a trump lead forbids off-suit discards while any trump or joker is held
        return trumpish or hand
    following = hand & SUIT_MASK[led_suit]
    if following:
        return following | trumpish  # trump and jokers are always allowed
    return hand


def trick_winner(trick: tuple[int, ...] | list[int], trump: int) -> int:
    """Index in ``trick`` of the winning card: highest trump, else the first joker,
    else the highest card of the suit led."""
    played = 0
    for c in trick:
        played |= 1 << c
    trumps = played & SUIT_MASK[trump]
    if trumps:
        return trick.index(trumps.bit_length() - 1)
    if played & JOKERS:
        for index, c in enumerate(trick):
            if c >= JOKER_1:
                return index
    led_suit = SUIT_OF[trick[0]]
    return trick.index((played & SUIT_MASK[led_suit]).bit_length() - 1)


def shown_void(card: int, led: int, trump: int) -> int:
    """The cards a seat has shown it does not hold by playing ``card`` to a trick led by
    ``led`` under the house rules (``legal_cards``): a plain card on a trump lead shows no
    trump and no joker left; an off-suit plain card, none of the suit led."""
    if card == led or led >= JOKER_1 or card >= JOKER_1:
        return 0
    if SUIT_OF[card] == trump:
        return 0  # trump is always allowed: it shows nothing
    if SUIT_OF[led] == trump:
        return SUIT_MASK[trump] | JOKERS
    if SUIT_OF[card] != SUIT_OF[led]:
        return SUIT_MASK[SUIT_OF[led]]
    return 0


# --- Scoring -----------------------------------------------------------------------


@dataclass(frozen=True)
class RoundPoints:
    """Which unit took each point; None where nobody did. ``names`` are the points the
    table plays (``variants.Rules.points``): only those count."""

    high: int | None
    low: int | None
    jack: int | None
    jokers: tuple[int, ...]  # one unit per joker that scored, sorted
    game: int | None
    jick: int | None = None
    joker_high: int | None = None
    joker_low: int | None = None
    names: tuple[str, ...] = HOUSE_POINTS

    def raw(self, units: int) -> tuple[int, ...]:
        totals = [0] * units
        if self.names is HOUSE_POINTS:  # the house rules' points, quickly
            for unit in (self.high, self.low, self.jack, self.game, *self.jokers):
                if unit is not None:
                    totals[unit] += 1
            return tuple(totals)
        for name in self.names:
            if name == "jokers":
                for unit in self.jokers:
                    totals[unit] += 1
                continue
            unit = getattr(self, name)
            if unit is not None:
                totals[unit] += 1
        return tuple(totals)

    def by_name(self) -> dict[str, int | None | list[int]]:
        """The points keyed by the table's point names, as the replay prints them."""
        if self.names is HOUSE_POINTS:
            return {
                "high": self.high,
                "low": self.low,
                "jack": self.jack,
                "jokers": list(self.jokers),
                "game": self.game,
            }
        return {
            name: list(self.jokers) if name == "jokers" else getattr(self, name)
            for name in self.names
        }


def capture_points(trump: int, in_play: int) -> tuple[int, int]:
    """The cards that score for whoever captures them, as (once, twice) masks.

    High (the highest trump in play), the jack of trump if in play, and each joker in
    play score once; a jack that is also the highest trump in play scores twice.
    """
    trumps = in_play & SUIT_MASK[trump]
    high = 1 << (trumps.bit_length() - 1)
    jack = in_play & (1 << jack_of(trump))
    return high | jack | (in_play & JOKERS), high & jack


def low_card(trump: int, in_play: int) -> int:
    """The lowest trump in play: its point goes to whoever was dealt it."""
    trumps = in_play & SUIT_MASK[trump]
    return (trumps & -trumps).bit_length() - 1


def game_winner(totals: list[int] | tuple[int, ...]) -> int | None:
    """The unit with the unique highest game-value total, or None on a tie."""
    best = max(totals)
    return totals.index(best) if totals.count(best) == 1 else None


def round_points(
    *, trump: int, dealt: tuple[int, ...], captured: tuple[int, ...], unit_of: tuple[int, ...]
) -> RoundPoints:
    """Score a finished round.

    ``dealt`` is each seat's original hand, ``captured`` each unit's captured cards.
    Only dealt cards count: the hidden cards are out of play.
    """
    in_play = 0
    for hand in dealt:
        in_play |= hand

    def capturer(c: int) -> int:
        bit = 1 << c
        for unit, cards in enumerate(captured):
            if cards & bit:
                return unit
        raise ValueError(f"nobody captured {card_code(c)}")

    scoring, _ = capture_points(trump, in_play)
    high = capturer((scoring & SUIT_MASK[trump]).bit_length() - 1)
    jack_card = jack_of(trump)
    jack = capturer(jack_card) if scoring >> jack_card & 1 else None
    jokers = tuple(sorted(capturer(j) for j in (JOKER_1, JOKER_2) if scoring >> j & 1))
    lowest = low_card(trump, in_play)
    # low belongs to whoever was dealt it, whoever captures it
    low = next(unit_of[seat] for seat, hand in enumerate(dealt) if hand >> lowest & 1)
    game = game_winner([game_total(cards) for cards in captured])
    return RoundPoints(high=high, low=low, jack=jack, jokers=jokers, game=game)


def points_available(*, trump: int, dealt: tuple[int, ...]) -> int:
    """How many round points a deal holds once trump is known: low, game and the rest."""
    in_play = 0
    for hand in dealt:
        in_play |= hand
    once, twice = capture_points(trump, in_play)
    return 2 + once.bit_count() + twice.bit_count()


@dataclass(frozen=True)
class MatchScoring:
    match_after: tuple[int, ...]
    made: bool
    winner: int | None


def bid_made(*, points: int, bid: int) -> bool:
    return points >= bid


def bidder_gain(*, points: int, bid: int) -> int:
    """A made bid scores its points; a failed one costs the amount bid."""
    return points if bid_made(points=points, bid=bid) else -bid


def capped_gain(*, score: int, points: int, target: int) -> int:
    """What a non-bidder's points add to its score: it stops at target - 1, so only the
    bidder can reach the target."""
    return min(points, target - 1 - score)


def settle_round(
    *,
    scores: tuple[int, ...],
    raw: tuple[int, ...],
    bidder_unit: int,
    bid: int,
    target: int,
    capped: bool = True,
) -> MatchScoring:
    """Apply a round to the match score.

    ``capped`` (``going_out: bidder_only``, seed 000): non-bidders stop at target - 1 and
    only the bidder can win. Otherwise (``bidder_first``) any unit may reach the target:
    the bidder's unit wins if it is among those at or past it (even in a round it missed
    its bid), else the highest of them wins, and a tie there plays on.
    """
    after = []
    for unit, (score, points) in enumerate(zip(scores, raw, strict=True)):
        if unit == bidder_unit:
            after.append(score + bidder_gain(points=points, bid=bid))
        elif capped:
            after.append(score + capped_gain(score=score, points=points, target=target))
        else:
            after.append(score + points)
    made = bid_made(points=raw[bidder_unit], bid=bid)
    return MatchScoring(
        match_after=tuple(after), made=made, winner=_winner(after, bidder_unit, target)
    )


def _winner(after: list[int], bidder_unit: int, target: int) -> int | None:
    if after[bidder_unit] >= target:
        return bidder_unit
    out = [score for score in after if score >= target]
    if not out or out.count(max(out)) > 1:
        return None
    return after.index(max(out))


@dataclass(frozen=True)
class ScoringCard:
    """One point of a finished round: the card that won it, if any, who took it and how:
    ``"capture"`` (the unit that captured the card), ``"deal"`` (the unit of the seat it
    was dealt to) or ``"play"`` (the unit of the seat that played it)."""

    kind: str  # "high", "low", "jack", "joker", "game"; a full-deck table's point names
    card: int | None  # None for game, which no single card wins
    unit: int | None  # None where nobody took it (game on a tie)
    by: str = "capture"


def scoring_cards(
    *, trump: int, in_play: int, captured: tuple[int, ...], points: RoundPoints
) -> tuple[ScoringCard, ...]:
    """The round's points in the order they are told: high, low, the jack and the jokers
    that were in play, then game."""
    trumps = in_play & SUIT_MASK[trump]
    lines = [
        ScoringCard("high", trumps.bit_length() - 1, points.high),
        ScoringCard("low", low_card(trump, in_play), points.low, "deal"),
    ]
    jack = jack_of(trump)
    if in_play >> jack & 1:
        lines.append(ScoringCard("jack", jack, points.jack))
    for joker in (JOKER_1, JOKER_2):
        if in_play >> joker & 1:
            unit = next(u for u, cards in enumerate(captured) if cards >> joker & 1)
            lines.append(ScoringCard("joker", joker, unit))
    lines.append(ScoringCard("game", None, points.game))
    return tuple(lines)


@dataclass(frozen=True)
class Gain:
    """How one unit's match score changed in a round."""

    unit: int
    before: int
    raw: int  # the round points it took
    after: int
    game_total: int  # the game value of what it captured
    bidder: bool
    capped: bool  # a non-bidder held at target - 1


def score_gains(
    *,
    scores: tuple[int, ...],
    raw: tuple[int, ...],
    after: tuple[int, ...],
    bidder_unit: int,
    captured: tuple[int, ...],
    target: int,
) -> tuple[Gain, ...]:
    return tuple(
        Gain(
            unit=unit,
            before=scores[unit],
            raw=raw[unit],
            after=after[unit],
            game_total=game_total(captured[unit]),
            bidder=unit == bidder_unit,
            capped=unit != bidder_unit
            and capped_gain(score=scores[unit], points=raw[unit], target=target) < raw[unit],
        )
        for unit in range(len(scores))
    )


# --- Tables with the full deck -------------------------------------------------------


@dataclass(frozen=True)
class TrumpSuit:
    """How a full-deck table counts trump once it is named: the suit, the jick where the
    table plays one, and its jokers, ranked A K Q J, jick, high joker, low joker, 10 .. 2."""

    suit: int
    cards: int  # every trump, as a mask
    strength: tuple[int, ...]  # per card: its place among the trumps (higher wins), -1 if none
    point_cards: int  # what a protected discard keeps: A, J, 2 of trump, the jick, jokers
    jick: int  # the jick's card, or -1 where the table plays none
    following: tuple[int, ...]  # per card: the cards that follow it when it is led

    def suit_of(self, card: int) -> int:
        """The suit a card belongs to at this table: the jick and the jokers are trumps."""
        return self.suit if self.cards >> card & 1 else SUIT_OF[card]

    def follows(self, card: int) -> int:
        """The cards that follow ``card`` when it is led."""
        return self.following[card]


@cache
def trumps_of(trump: int, jick: bool, jokers: int) -> TrumpSuit:
    base = trump * 13
    order = [base + 12, base + 11, base + 10, jack_of(trump)]  # A K Q J
    jick_card = jick_of(trump) if jick else -1
    if jick:
        order.append(jick_card)
    order += [JOKER_1, JOKER_2][:jokers]
    order += [base + rank for rank in range(8, -1, -1)]  # 10 down to 2
    strength = [-1] * 54
    for place, card in enumerate(reversed(order)):
        strength[card] = place
    cards = 0
    for card in order:
        cards |= 1 << card
    points = 1 << base + 12 | 1 << jack_of(trump) | 1 << base
    if jick:
        points |= 1 << jick_card
    points |= cards & JOKERS
    following = tuple(
        cards if cards >> card & 1 else SUIT_MASK[SUIT_OF[card]] & ~cards for card in range(54)
    )
    return TrumpSuit(trump, cards, tuple(strength), points, jick_card, following)


def point_roles(names: tuple[str, ...], trumps: TrumpSuit) -> tuple[int, int]:
    """The cards that score at a full-deck table (``ace_two``) once ``trumps`` is named, as
    (captured, held) masks: the jack, the jick and the jokers the table counts score for the
    unit that captures them; the ace and the two of trump for the unit of the seat that
    holds them (every card kept is played). Game scores apart; a card not dealt, nobody."""
    suit, jokers = trumps.suit, trumps.cards & JOKERS
    captured = (1 << jack_of(suit)) if "jack" in names else 0
    if "jick" in names and trumps.jick >= 0:
        captured |= 1 << trumps.jick
    if {"jokers", "joker_high"} & set(names):
        captured |= jokers & 1 << JOKER_1
    if {"jokers", "joker_low"} & set(names):
        captured |= jokers & 1 << JOKER_2
    held = 1 << ace_of(suit) if "high" in names else 0
    if "low" in names:
        held |= 1 << two_of(suit)
    return captured, held


def legal_cards_full(hand: int, led: int, trumps: TrumpSuit, follow: str) -> int:
    """The cards ``hand`` may play at a full-deck table; ``led`` is -1 when leading.

    ``trump_any_time``: follow the suit led or play a trump; any card when void.
    ``schmier``: follow the suit led if you can; any card only when void.
    """
    if led < 0:
        return hand
    following = hand & trumps.following[led]
    if not following:
        return hand
    if follow == "schmier":
        return following
    return following | hand & trumps.cards


def trick_winner_full(trick: tuple[int, ...] | list[int], trumps: TrumpSuit) -> int:
    """Index in ``trick`` of the winning card: the highest trump, else the highest card of
    the suit led (the jick is never of its printed suit)."""
    strength, led = trumps.strength, trumps.following[trick[0]]
    best, best_power = 0, -1
    for index, card in enumerate(trick):
        # a trump outranks every plain card (codes are below 54); a plain card of the suit
        # led outranks another by its code; any other card takes nothing
        power = 64 + strength[card] if strength[card] >= 0 else card if led >> card & 1 else -1
        if power > best_power:
            best, best_power = index, power
    return best


def shown_void_full(card: int, led: int, trumps: TrumpSuit, follow: str) -> int:
    """The cards a seat has shown it does not hold by playing ``card`` to a trick led by
    ``led`` at a full-deck table (``legal_cards_full``): the cards that follow the lead,
    when it did not follow, unless it trumped where a seat may trump holding the suit."""
    suit = trumps.following[led]
    if card == led or suit >> card & 1:
        return 0
    trumped = trumps.cards >> card & 1
    if trumped and follow != "schmier" and suit != trumps.cards:
        return 0
    return suit


def exchange_order(exchange: str, players: int, dealer: int) -> tuple[int, ...]:
    """The seats that discard, in turn: every seat from the dealer's left (``discard_to_six``),
    each seat but the dealer and then the dealer (``discard_and_fill``), the dealer alone
    (``dealer_takes_pack``), or nobody."""
    if exchange == "dealer_takes_pack":
        return (dealer,)
    if exchange in ("discard_to_six", "discard_and_fill"):
        return tuple((dealer + step) % players for step in range(1, players + 1))
    return ()


class DiscardRule(NamedTuple):
    """What one seat's discard must be: ``count`` cards, every card of ``must`` among them,
    none outside ``may``."""

    count: int
    must: int
    may: int

    @property
    def optional(self) -> int:
        """The cards that may go but need not."""
        return self.may & ~self.must

    def pick(self, preferred) -> int:
        """The discard of every card that must go and then the first of ``preferred``
        (cards of ``optional``, in the order the discarder would throw them)."""
        chosen = self.must
        for card in list(preferred)[: self.count - self.must.bit_count()]:
            chosen |= 1 << card
        return chosen

    def allows(self, cards: int) -> bool:
        return (
            cards.bit_count() == self.count
            and cards & self.must == self.must
            and not cards & ~self.may
        )

    def why_not(self, cards: int, hand: int) -> str:
        """Why ``cards`` is not this discard, in words (``cards`` differs from every allowed)."""
        if cards & ~hand:
            return f"{card_code(cards_of(cards & ~hand)[0])} is not in your hand"
        if cards.bit_count() != self.count:
            return f"discard {self.count} card{'s' * (self.count != 1)}, not {cards.bit_count()}"
        if cards & ~self.may:
            return f"{card_code(cards_of(cards & ~self.may)[0])} may not be discarded"
        return f"{card_code(cards_of(self.must & ~cards)[0])} must be discarded"


def discard_rule(exchange: str, hand: int, trumps: TrumpSuit, *, dealer: bool) -> DiscardRule:
    """The discard a seat must make (``shared/spec/variants.md``, "The exchanges").

    ``discard_to_six``: down to six, keeping every trump, or six trumps when it holds more.
    ``discard_and_fill``, a seat but the dealer: every card that is not a trump and, with
    more than six trumps, trumps down to six, never a point card. The dealer who takes the
    pack (or the rest of it): down to six, keeping every point card.
    """
    size = hand.bit_count()
    held = hand & trumps.cards
    plain = hand & ~held
    if exchange == "discard_to_six":
        if held.bit_count() <= 6:
            return DiscardRule(size - 6, 0, plain)
        return DiscardRule(size - 6, plain, hand)
    if exchange == "discard_and_fill" and not dealer:
        extra = max(0, held.bit_count() - 6)
        may = plain | (held & ~trumps.point_cards if extra else 0)
        return DiscardRule(plain.bit_count() + extra, plain, may)
    return DiscardRule(max(0, size - 6), 0, hand & ~trumps.point_cards)


class DiscardCase(NamedTuple):
    """One way another seat's face-down discard may have gone, as far as the rest of the
    table can tell: the cards the discard cannot hold and those its kept hand cannot."""

    discard_barred: int
    kept_barred: int = 0


def discard_cases(
    exchange: str, trumps: TrumpSuit, *, dealer: bool, filled: bool = False
) -> tuple[DiscardCase, ...]:
    """What ``discard_rule`` tells the others of a seat's discard, case by case, the usual
    case first. ``discard_to_six``: a seat with six trumps or fewer discards no trump; one
    with more keeps six trumps and nothing else. ``discard_and_fill``, a seat but the
    dealer: it throws every card but its trumps, and, with more than six, trumps but no
    point card; one that was not ``filled`` kept six trumps and nothing else. Where the
    rule protects the point cards (the dealer who takes the pack), none is discarded."""
    plain = ~trumps.cards & ((1 << 54) - 1)
    if exchange == "discard_to_six":
        return DiscardCase(trumps.cards), DiscardCase(0, plain)
    if exchange == "discard_and_fill" and not dealer:
        if filled:
            return (DiscardCase(trumps.cards),)
        return DiscardCase(trumps.cards, plain), DiscardCase(trumps.point_cards, plain)
    return (DiscardCase(trumps.point_cards),)


def trumps_dealt(
    exchange: str, trumps: TrumpSuit, *, dealt: int, discarded: int, dealer: bool
) -> tuple[int, ...]:
    """How many trumps a seat dealt ``dealt`` cards may have held, given that
    ``discard_rule`` had it discard ``discarded``: every count whose hand the rule makes
    discard that many."""
    counts = []
    trump_cards, plain_cards = cards_of(trumps.cards), cards_of(~trumps.cards & ((1 << 54) - 1))
    for held in range(min(dealt, len(trump_cards)) + 1):
        hand = 0
        for card in trump_cards[:held] + plain_cards[: dealt - held]:
            hand |= 1 << card
        if discard_rule(exchange, hand, trumps, dealer=dealer).count == discarded:
            counts.append(held)
    return tuple(counts)


def scoring_cards_full(
    *,
    names: tuple[str, ...],
    trumps: TrumpSuit,
    ace_two: bool,
    jokers: int,
    played: int,
    captured: tuple[int, ...],
    points: RoundPoints,
) -> tuple[ScoringCard, ...]:
    """A finished full-deck round's points in the table's order (``names``), one a joker
    where ``jokers`` counts each: the card that won each where one card does (high and low
    only where they are the ace and the two) and it was played, and who took it."""
    suit, by_name = trumps.suit, points.by_name()
    won_with = {
        "high": (ace_of(suit),) if ace_two else (),
        "low": (two_of(suit),) if ace_two else (),
        "jack": (jack_of(suit),),
        "jick": (trumps.jick,) if trumps.jick >= 0 else (),
        "joker_high": (JOKER_1,),
        "joker_low": (JOKER_2,),
        "jokers": (JOKER_1, JOKER_2)[:jokers],
        "game": (),
    }
    lines = []
    for name in names:
        # the ace and the two, or the lowest trump, to the unit of the seat that played it
        by = "play" if name == "low" or ace_two and name == "high" else "capture"
        if name == "jokers":  # one point a joker, to the unit that took it
            for joker in won_with["jokers"]:
                unit = next((u for u, got in enumerate(captured) if got >> joker & 1), None)
                card = joker if played >> joker & 1 else None
                lines.append(ScoringCard(name, card, unit, by))
            continue
        card = next((c for c in won_with[name] if played >> c & 1), None)
        lines.append(ScoringCard(name, card, by_name[name], by))
    return tuple(lines)


def round_points_full(
    *,
    names: tuple[str, ...],
    trumps: TrumpSuit,
    ace_two: bool,
    plays: tuple[tuple[int, int], ...],
    captured: tuple[int, ...],
    unit_of: tuple[int, ...],
) -> RoundPoints:
    """Score a finished full-deck round from its ``plays`` (seat, card) and each unit's
    captured cards. Cards never played (undealt or discarded) score for nobody.

    ``ace_two``: high is the ace of trumps and low the two, each to the unit of the seat
    that plays it. Otherwise high and low are the highest and lowest trumps played, high to
    its capturer and low to the unit of the seat that played it. The jack, the jick and
    each joker go to the unit that captures them; game to the unique highest total.
    """
    player = {card: seat for seat, card in plays}

    def capturer(card: int) -> int | None:
        if card not in player:
            return None
        return next(unit for unit, cards in enumerate(captured) if cards >> card & 1)

    def played_by(card: int) -> int | None:
        return unit_of[player[card]] if card in player else None

    suit = trumps.suit
    if ace_two:
        high, low = played_by(ace_of(suit)), played_by(two_of(suit))
    else:
        played = [card for card in player if trumps.cards >> card & 1]
        ranked = sorted(played, key=lambda card: trumps.strength[card])
        high = capturer(ranked[-1]) if ranked else None
        low = played_by(ranked[0]) if ranked else None
    jokers = tuple(sorted(u for u in map(capturer, (JOKER_1, JOKER_2)) if u is not None))
    return RoundPoints(
        high=high,
        low=low,
        jack=capturer(jack_of(suit)),
        jokers=jokers,
        game=game_winner([game_total(cards) for cards in captured]),
        jick=capturer(trumps.jick) if trumps.jick >= 0 else None,
        joker_high=capturer(JOKER_1),
        joker_low=capturer(JOKER_2),
        names=names,
    )
