"""What each move of a round made public, as events: the auction won, trump set, a
discard's count, a fill's count, a trick won (by whom, with what), a point taken (which,
by whom, how), the round scored and the match won.

Events are public information only, as OpenSpiel's public observation is: they are told
from a ``PublicView`` (``narrate``), which holds no hidden card, so no event can carry one.
A state's ``step(action)`` returns the events its move added (``game.engine.state``); a
view's ``events`` are the whole round's so far, in the order the moves made them. The
pages, the review and the bots read these instead of working the facts out again.

A point is told once it is settled for good: a point card captured (the jack, the jick, a
joker, and high once the deck's highest trump is taken), low once the deck's lowest trump
is played (it goes to the seat that played it, or at the house rules was dealt it), the
ace and the two where they score to their player (``ace_two``) once played; every other
point when the round is scored, which tells the rest. Each point is told exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from . import rules
from .cards import JOKER_1, JOKER_2, JOKERS, SUIT_MASK, ace_of, jack_of, two_of

if TYPE_CHECKING:
    from .view import PublicView


@dataclass(frozen=True)
class AuctionWon:
    seat: int
    bid: int


@dataclass(frozen=True)
class Redealt:
    """Every seat passed where the table redeals: the same dealer deals again."""

    dealer: int


@dataclass(frozen=True)
class TrumpSet:
    suit: int
    seat: int  # the bidder who named it, or the seat whose opening lead set it


@dataclass(frozen=True)
class Discarded:
    seat: int
    count: int  # face down: how many, never which


@dataclass(frozen=True)
class Filled:
    seat: int
    count: int  # how many it was dealt from the pack, never which
    took_pack: bool  # the dealer took the rest of the pack


@dataclass(frozen=True)
class TrickWon:
    number: int  # from 0
    seat: int  # who won it
    unit: int
    card: int  # the card that won it
    plays: tuple[tuple[int, int], ...]  # (seat, card) in the order played


@dataclass(frozen=True)
class PointTaken:
    """A point settled for a unit: ``by`` says how (``rules.ScoringCard.by``)."""

    kind: str  # "high", "low", "jack", "joker" (house); a full-deck table's point names
    card: int | None  # the card that won it; None for game
    unit: int
    seat: int | None  # who captured, played or was dealt the card; None for game
    by: str = "capture"

    @property
    def line(self) -> rules.ScoringCard:
        return rules.ScoringCard(self.kind, self.card, self.unit, self.by)


@dataclass(frozen=True)
class RoundScored:
    raw: tuple[int, ...]  # each unit's round points
    match_after: tuple[int, ...]
    bidder_unit: int
    bid: int
    made: bool
    points: tuple[rules.ScoringCard, ...]  # every point in the order told, nobody's too


@dataclass(frozen=True)
class MatchWon:
    unit: int


Event = (
    AuctionWon
    | Redealt
    | TrumpSet
    | Discarded
    | Filled
    | TrickWon
    | PointTaken
    | RoundScored
    | MatchWon
)


# the order points are told in: the house rules' (``rules.scoring_cards``), and a full-deck
# table's names (``variants.POINT_NAMES``) where it plays them
POINT_ORDER = ("high", "low", "jack", "jick", "joker_high", "joker_low", "joker", "jokers", "game")


def told_order(point: PointTaken) -> int:
    """Where ``point`` comes in a list of points in the order they are told."""
    return POINT_ORDER.index(point.kind)


class Step(NamedTuple):
    """A move's outcome (``RoundState.step``, ``MatchState.step``): the state after it and
    the events it made public."""

    state: Any  # the RoundState or MatchState that was stepped
    events: tuple[Event, ...]


def narrate(view: PublicView) -> tuple[Event, ...]:
    """Every event of the round so far, in the order its moves made them."""
    return tuple(_Narrator(view).events())


class _Narrator:
    def __init__(self, view: PublicView):
        self.view = view
        self.unit_of = view.unit_of
        self.told: list[Event] = []
        self.player: dict[int, int] = {}  # card -> the seat that played it
        self.capturer: dict[int, int] = {}  # card -> the seat whose trick took it

    def events(self) -> list[Event]:
        view = self.view
        players = view.players
        if len(view.auction) == players:  # the auction is over
            if view.bidder is None:
                self.told.append(Redealt(view.dealer))
                return self.told
            self.told.append(AuctionWon(view.bidder, view.bid))
            if view.rules.names_trump and view.trump is not None:
                self.told.append(TrumpSet(view.trump, view.bidder))
                self._exchange()
        for index, (seat, card) in enumerate(view.plays):
            if index == 0 and not view.rules.names_trump:
                self.told.append(TrumpSet(view.trump, seat))  # the opening lead sets trump
            self._played(seat, card)
            number, place = divmod(index, players)
            if place == players - 1 and number < len(view.trick_winners):
                self._trick_won(number, view.trick_winners[number])
        if view.result is not None and not view.result.redeal:
            self._scored()
        return self.told

    # --- The exchange ----------------------------------------------------------------

    def _exchange(self) -> None:
        view, table = self.view, self.view.rules
        order = rules.exchange_order(table.exchange, view.players, view.dealer)
        if view.phase is rules.Phase.EXCHANGE:
            done = order.index(view.to_act)
        else:
            done = len(order)
        if table.exchange == "dealer_takes_pack":
            self._filled(view.dealer)
        for step, seat in enumerate(order[:done]):
            self.told.append(Discarded(seat, view.discard_counts[seat]))
            if table.exchange == "discard_and_fill" and step == len(order) - 2:
                for filled in order:  # from the dealer's left; the dealer takes the rest
                    self._filled(filled)

    def _filled(self, seat: int) -> None:
        count = self.view.fill_counts[seat]
        if count:
            self.told.append(Filled(seat, count, took_pack=seat == self.view.dealer))

    # --- The tricks and the points they settle ----------------------------------------

    def _played(self, seat: int, card: int) -> None:
        self.player[card] = seat
        view = self.view
        trump, unit = view.trump, self.unit_of[seat]
        if view.rules.is_house:
            if card == rules.low_card(trump, view.deck):
                self.told.append(PointTaken("low", card, unit, seat, "deal"))
            return
        if view.rules.high_low != "ace_two":  # high and low are told when the round is scored
            return
        names = view.rules.points
        if "low" in names and card == two_of(trump):
            self.told.append(PointTaken("low", card, unit, seat, "play"))
        if "high" in names and card == ace_of(trump):
            self.told.append(PointTaken("high", card, unit, seat, "play"))

    def _trick_won(self, number: int, winner: int) -> None:
        view = self.view
        plays = view.trick(number)
        unit = self.unit_of[winner]
        won_with = next(card for seat, card in plays if seat == winner)
        self.told.append(TrickWon(number, winner, unit, won_with, plays))
        for _, card in plays:
            self.capturer[card] = winner
            for kind in self._captured_points(card):
                self.told.append(PointTaken(kind, card, unit, winner))

    def _captured_points(self, card: int) -> list[str]:
        """The points that capturing ``card`` settles for good."""
        view = self.view
        trump = view.trump
        if view.rules.is_house:
            kinds = []
            if card == (view.deck & SUIT_MASK[trump]).bit_length() - 1:
                kinds.append("high")  # the deck's highest trump: nothing can beat it
            if card == jack_of(trump):
                kinds.append("jack")
            if JOKERS >> card & 1:
                kinds.append("joker")
            return kinds
        names, trumps = view.rules.points, view.trumps
        kinds = []
        if "jack" in names and card == jack_of(trump):
            kinds.append("jack")
        if "jick" in names and card == trumps.jick:
            kinds.append("jick")
        if "jokers" in names and JOKERS >> card & 1:
            kinds.append("jokers")
        if "joker_high" in names and card == JOKER_1:
            kinds.append("joker_high")
        if "joker_low" in names and card == JOKER_2:
            kinds.append("joker_low")
        return kinds

    # --- The round scored -------------------------------------------------------------

    def _scored(self) -> None:
        view, result = self.view, self.view.result
        lines = scoring_lines(view)
        settled = [event.line for event in self.told if isinstance(event, PointTaken)]
        for line in lines:
            if line.unit is None:
                continue
            if line in settled:
                settled.remove(line)
                continue
            self.told.append(
                PointTaken(line.kind, line.card, line.unit, self._seat_of(line), line.by)
            )
        self.told.append(
            RoundScored(
                raw=result.raw,
                match_after=result.match_after,
                bidder_unit=result.bidder_unit,
                bid=result.bid,
                made=result.made,
                points=lines,
            )
        )
        if result.winner is not None:
            self.told.append(MatchWon(result.winner))

    def _seat_of(self, line: rules.ScoringCard) -> int | None:
        if line.card is None:
            return None
        return (self.capturer if line.by == "capture" else self.player)[line.card]


def scoring_lines(view: PublicView) -> tuple[rules.ScoringCard, ...]:
    """A finished round's points in the order they are told: the card that won each and
    the unit that took it (``rules.scoring_cards``, ``rules.scoring_cards_full``)."""
    points = view.result.points
    if view.rules.is_house:
        return rules.scoring_cards(
            trump=view.trump, in_play=view.played, captured=view.taken, points=points
        )
    return rules.scoring_cards_full(
        names=view.rules.points,
        trumps=view.trumps,
        ace_two=view.rules.high_low == "ace_two",
        jokers=view.rules.jokers,
        played=view.played,
        captured=view.taken,
        points=points,
    )
