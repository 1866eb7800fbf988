"""The house rules of Smear: the only copy of them.

Everything here works on ints and bit masks (see ``cards``) so that the state machine
and the solver share these functions at full speed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .cards import (
    JACK,
    JOKER_1,
    JOKER_2,
    JOKERS,
    SUIT_MASK,
    SUIT_OF,
    card_code,
    cards_of,
    game_total,
    parse_card,
)

MIN_BID = 1
MAX_BID = 6
DEFAULT_TARGET = 21

# Actions are ints: a card is its own action, then pass, then the bids 1..6.
PASS = 54
_BID_BASE = PASS
BIDS = tuple(range(_BID_BASE + MIN_BID, _BID_BASE + MAX_BID + 1))


def bid_action(amount: int) -> int:
    if not MIN_BID <= amount <= MAX_BID:
        raise ValueError(f"a bid is {MIN_BID} to {MAX_BID}, not {amount}")
    return _BID_BASE + amount


def bid_amount(action: int) -> int:
    return action - _BID_BASE


def is_bid(action: int) -> bool:
    return BIDS[0] <= action <= BIDS[-1]


def is_card(action: int) -> bool:
    return 0 <= action < PASS


def _spell(action: int) -> str:
    if action == PASS:
        return "pass"
    if is_bid(action):
        return f"bid:{bid_amount(action)}"
    return card_code(action)


_ACTION_CODES = tuple(_spell(action) for action in range(BIDS[-1] + 1))


def action_code(action: int) -> str:
    """``bid:N``, ``pass`` or a card code: the spelling the game record uses."""
    if not 0 <= action < len(_ACTION_CODES):
        raise ValueError(f"no action {action!r}")
    return _ACTION_CODES[action]


def parse_action_code(text: str) -> int:
    lowered = text.strip().lower()
    if lowered == "pass":
        return PASS
    if lowered.startswith("bid:"):
        try:
            return bid_action(int(lowered[4:]))
        except ValueError:
            raise ValueError(f"unknown action {text!r}") from None
    return parse_card(text)


class Phase(Enum):
    """Where a round stands: a single-lap auction, then six tricks, then over."""

    AUCTION = "auction"
    PLAY = "play"
    OVER = "over"


# --- The auction -------------------------------------------------------------------


def legal_bids(high_bid: int, must_open: bool) -> tuple[int, ...]:
    """One lap, bids strictly increasing; the last seat must open if nobody has."""
    raises = BIDS[high_bid:]  # high_bid 0 (nobody has bid) keeps all six
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


# --- Scoring -----------------------------------------------------------------------


@dataclass(frozen=True)
class RoundPoints:
    """Which unit took each point; None where nobody did."""

    high: int
    low: int
    jack: int | None
    jokers: tuple[int, ...]  # one unit per joker that scored, sorted
    game: int | None

    def raw(self, units: int) -> tuple[int, ...]:
        totals = [0] * units
        for unit in (self.high, self.low, self.jack, self.game, *self.jokers):
            if unit is not None:
                totals[unit] += 1
        return tuple(totals)


def capture_points(trump: int, in_play: int) -> tuple[int, int]:
    """The cards that score for whoever captures them, as (once, twice) masks.

    High (the highest trump in play), the jack of trump if in play, and each joker in
    play score once; a jack that is also the highest trump in play scores twice.
    """
    trumps = in_play & SUIT_MASK[trump]
    high = 1 << (trumps.bit_length() - 1)
    jack = in_play & (1 << (trump * 13 + JACK))
    return high | jack | (in_play & JOKERS), high & jack


def low_card(trump: int, in_play: int) -> int:
    """The lowest trump in play: its point goes to whoever was dealt it."""
    trumps = in_play & SUIT_MASK[trump]
    return (trumps & -trumps).bit_length() - 1


def points_decided(
    *,
    trump: int,
    deck: int,
    captured: tuple[int, ...],
    plays: tuple[tuple[int, int], ...],
    unit_of: tuple[int, ...],
) -> tuple[tuple[str, ...], ...]:
    """Each unit's points that no card still to come can change, while the round is
    played, by kind (``high``, ``jack``, ``joker``, ``low``), from what every seat sees.

    ``deck`` holds every card the table could deal, ``plays`` is (seat, card) in order.
    Whether a card was dealt shows only once it is played, so high is decided when the
    deck's highest trump is captured, low when its lowest is played, the jack and each
    joker once captured.
    """
    once, _ = capture_points(trump, deck)
    high = (once & SUIT_MASK[trump]).bit_length() - 1
    jacks = [c for c in cards_of(once & SUIT_MASK[trump]) if c != high]
    decided: list[list[str]] = [[] for _ in captured]
    for kind, card in [("high", high), *(("jack", c) for c in jacks)] + [
        ("joker", c) for c in cards_of(once & JOKERS)
    ]:
        unit = next((u for u, got in enumerate(captured) if got >> card & 1), None)
        if unit is not None:
            decided[unit].append(kind)
    lowest = low_card(trump, deck)
    dealt_to = next((seat for seat, card in plays if card == lowest), None)
    if dealt_to is not None:
        decided[unit_of[dealt_to]].append("low")
    return tuple(tuple(kinds) for kinds in decided)


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
    jack_card = trump * 13 + JACK
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
    *, scores: tuple[int, ...], raw: tuple[int, ...], bidder_unit: int, bid: int, target: int
) -> MatchScoring:
    """Apply a round to the match score; reaching the target (only the bidder can) wins."""
    after = []
    for unit, (score, points) in enumerate(zip(scores, raw, strict=True)):
        if unit == bidder_unit:
            after.append(score + bidder_gain(points=points, bid=bid))
        else:
            after.append(score + capped_gain(score=score, points=points, target=target))
    winner = bidder_unit if after[bidder_unit] >= target else None
    made = bid_made(points=raw[bidder_unit], bid=bid)
    return MatchScoring(match_after=tuple(after), made=made, winner=winner)


@dataclass(frozen=True)
class ScoringCard:
    """One point of a finished round: the card that won it, if any, and who took it."""

    kind: str  # "high", "low", "jack", "joker", "game"
    card: int | None  # None for game, which no single card wins
    unit: int | None  # None where nobody took it (game on a tie)


def scoring_cards(
    *, trump: int, in_play: int, captured: tuple[int, ...], points: RoundPoints
) -> tuple[ScoringCard, ...]:
    """The round's points in the order they are told: high, low, the jack and the jokers
    that were in play, then game."""
    trumps = in_play & SUIT_MASK[trump]
    lines = [
        ScoringCard("high", trumps.bit_length() - 1, points.high),
        ScoringCard("low", low_card(trump, in_play), points.low),
    ]
    jack = trump * 13 + JACK
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
