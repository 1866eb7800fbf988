"""What a match is set up with, and its chance event: the seats, the units, the table's
rules and target (``MatchSetup``); who dealt and each seat's cards (``Deal``).

Part of the true state (``game.engine.state``, which names every part).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from random import Random

from . import rules
from .cards import cards_of, full_deck, functional_deck, mask_of
from .variants import HOUSE, Rules


class IllegalAction(ValueError):
    """An action the rules do not allow here; the state is unchanged."""

    index: int | None = None  # set by RoundState.replay: which of its actions


@dataclass(frozen=True)
class MatchSetup:
    """Who plays and by which rules: the seat count, the scoring units (a partition of the
    seats), the target and the table's ``Rules`` (the house rules unless told)."""

    players: int
    teams: tuple[tuple[int, ...], ...]
    target: int | None = None  # the rules' target unless given
    rules: Rules = HOUSE
    unit_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    deck: int = field(init=False, repr=False, compare=False)
    # the auction's legal actions by the high bid and whether the last seat must open,
    # worked out once: the auction reads them at every bid
    auction_table: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        table = self.rules
        if not isinstance(self.players, int) or not table.allows_players(self.players):
            counts = table.players
            raise ValueError(
                f"players must be {counts[0]} to {counts[-1]}, not {self.players!r}"
                if counts == tuple(range(counts[0], counts[-1] + 1)) and len(counts) > 1
                else f"{table.preset} is played by {', '.join(map(str, counts))}, "
                f"not {self.players!r}"
            )
        teams = tuple(tuple(unit) for unit in self.teams)
        seats = sorted(seat for unit in teams for seat in unit)
        if seats != list(range(self.players)) or any(not unit for unit in teams):
            raise ValueError(
                f"teams {self.teams!r} are not a partition of seats 0..{self.players - 1}"
            )
        if not table.allows_layout(self.players, teams):
            raise ValueError(
                f"teams {self.teams!r}: {table.preset} plays {table.describe_layouts(self.players)}"
            )
        target = table.target if self.target is None else self.target
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            raise ValueError(f"the target must be a positive whole number, not {target!r}")
        if target != table.target:
            table = replace(table, target=target)
        unit_of = [0] * self.players
        for unit, members in enumerate(teams):
            for seat in members:
                unit_of[seat] = unit
        object.__setattr__(self, "teams", teams)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "rules", table)
        object.__setattr__(self, "unit_of", tuple(unit_of))
        deck = functional_deck(self.players) if table.is_house else full_deck(table.jokers)
        object.__setattr__(self, "deck", deck)
        auction = tuple(
            (rules.legal_bids(high, False, table.bids), rules.legal_bids(high, True, table.bids))
            for high in range(table.bids[1] + 1)
        )
        object.__setattr__(self, "auction_table", auction)

    @property
    def units(self) -> int:
        return len(self.teams)

    @classmethod
    def cutthroat(cls, players: int, target: int | None = None, rules: Rules = HOUSE) -> MatchSetup:
        return cls(players, tuple((seat,) for seat in range(players)), target, rules)

    @classmethod
    def partnerships(
        cls, players: int, units: int, target: int | None = None, rules: Rules = HOUSE
    ) -> MatchSetup:
        """Partners sit alternately: with 4 players and 2 units, seats 0,2 against 1,3."""
        if players % units:
            raise ValueError(f"{players} players do not split into {units} equal units")
        teams = tuple(tuple(range(u, players, units)) for u in range(units))
        return cls(players, teams, target, rules)

    @classmethod
    def layouts(cls, players: int, rules: Rules = HOUSE) -> list[MatchSetup]:
        """The usual layouts at this size: cutthroat, then every split into equal units
        that the rules take."""
        setups = [cls.cutthroat(players, rules=rules)]
        for units in range(2, players):
            if players % units == 0 and players // units >= 2:
                teams = tuple(tuple(range(u, players, units)) for u in range(units))
                if rules.allows_layout(players, teams):
                    setups.append(cls.partnerships(players, units, rules=rules))
        return setups


@dataclass(frozen=True)
class Deal:
    """The chance event of a round: who dealt, each seat's cards, the undealt rest.

    ``pack`` is the undealt rest in pack order, top first, where the order matters (a
    fill deals from its front); the house rules never use it and leave it empty.
    """

    dealer: int
    hands: tuple[int, ...]  # one card mask per seat
    hidden: int
    pack: tuple[int, ...] = ()

    def check(self, setup: MatchSetup) -> None:
        if not 0 <= self.dealer < setup.players:
            raise ValueError(f"dealer {self.dealer} is not a seat")
        if len(self.hands) != setup.players:
            raise ValueError(f"{len(self.hands)} hands dealt for {setup.players} players")
        size = setup.rules.deal
        seen = self.hidden
        for seat, hand in enumerate(self.hands):
            if hand.bit_count() != size:
                raise ValueError(f"seat {seat} holds {hand.bit_count()} cards, not {size}")
            if seen & hand:
                raise ValueError("a card is dealt twice")
            seen |= hand
        if seen != setup.deck or self.hidden & ~setup.deck:
            deck = f"{setup.players}-player deck" if setup.rules.is_house else "deck"
            raise ValueError(f"the hands and hidden cards are not the {deck}")
        if self.pack and (
            mask_of(self.pack) != self.hidden or len(self.pack) != self.hidden.bit_count()
        ):
            raise ValueError("the pack is not the hidden cards")

    @classmethod
    def of(cls, dealer: int, hands: Iterable[int], hidden: Iterable[int], *, rules: Rules) -> Deal:
        """The deal of ``hands`` (card masks) with ``hidden`` undealt, listed top first: a
        full-deck table keeps the pack's order (a fill deals from its top); the house rules
        never deal from it and keep none."""
        hidden = tuple(hidden)
        return cls(dealer, tuple(hands), mask_of(hidden), () if rules.is_house else hidden)

    def pack_order(self) -> tuple[int, ...]:
        """The undealt cards, top first (lowest card first where no order was given)."""
        return self.pack or tuple(cards_of(self.hidden))


def shuffle_deal(setup: MatchSetup, dealer: int, rng: Random) -> Deal:
    cards = cards_of(setup.deck)
    rng.shuffle(cards)
    size = setup.rules.deal
    hands = []
    for seat in range(setup.players):
        hand = 0
        for c in cards[seat * size : (seat + 1) * size]:
            hand |= 1 << c
        hands.append(hand)
    return Deal.of(dealer, hands, cards[setup.players * size :], rules=setup.rules)
