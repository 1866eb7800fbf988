"""What every page of a table is made of: seats, sides, plays and tricks named as the page
says them, and a seat's own hand (``SeatHand``, which the trainer's positions share)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from game.card_chooser import CardChooser, card_chooser
from game.engine import notation, rules
from game.engine.view import PublicView, SeatView


@dataclass(frozen=True)
class SeatInfo:
    number: int
    name: str
    bot_level: str | None
    unit: int
    is_turn: bool
    is_dealer: bool
    stand_in: bool = False  # a bot is playing for this person while they are away
    is_you: bool = False
    said: str | None = None  # what the seat said in this round's auction, last
    cards_left: int = 0
    side: str | None = None  # its unit's letter ("A"), where some unit has partners


@dataclass(frozen=True)
class UnitInfo:
    index: int
    names: str
    score: int
    members: tuple[int, ...]
    is_yours: bool = False
    side: str | None = None  # the unit's letter ("A"), where some unit has partners


@dataclass(frozen=True)
class Play:
    seat: int
    name: str
    code: str


@dataclass(frozen=True)
class Trick:
    number: int  # from 0
    plays: tuple[Play, ...]
    winner: str | None  # None while the trick is being played


def bid_codes(legal: tuple[str, ...]) -> tuple[str, ...]:
    """The auction's buttons among a seat's legal action codes: pass and the bids."""
    return tuple(code for code in legal if code == "pass" or code.startswith("bid:"))


def unit_names(names: dict[int, str], members) -> str:
    return " & ".join(names[s] for s in members)


def side_letters(teams) -> tuple[str, ...] | None:
    """Each unit's letter, "A" on, where some unit has partners (the seats show it);
    None at a cutthroat table, where a seat's name says its side."""
    if all(len(members) == 1 for members in teams):
        return None
    return tuple(chr(ord("A") + unit) for unit in range(len(teams)))


# --- Pieces of any view, with each seat named as the page says it --------------------------


def plays(seq, names: dict[int, str]) -> tuple[Play, ...]:
    """(seat, card) pairs as the page shows them."""
    return tuple(Play(s, names[s], notation.card(c)) for s, c in seq)


def tricks(view: PublicView, names: dict[int, str]) -> tuple[Trick, ...]:
    """The round's finished tricks with their winners (the round's ``TrickWon`` events),
    then the current one if begun."""
    done = tuple(
        Trick(number=won.number, plays=plays(won.plays, names), winner=names[won.seat])
        for won in view.tricks_won
    )
    if not view.current_trick:
        return done
    return (*done, Trick(len(done), plays(view.current_trick, names), None))


def units(view: PublicView, names: dict[int, str], scores) -> tuple[UnitInfo, ...]:
    letters = side_letters(view.teams)
    return tuple(
        UnitInfo(
            u,
            unit_names(names, members),
            scores[u],
            members,
            side=None if letters is None else letters[u],
        )
        for u, members in enumerate(view.teams)
    )


def trump_words(view: PublicView) -> tuple[str | None, str | None]:
    """Trump's suit letter and name, once the opening lead has set it."""
    if view.trump is None:
        return None, None
    return notation.suit_letter(view.trump), notation.suit_name(view.trump)


def bid_label(code: str) -> str:
    """A bid button's words: ``Pass``, ``Bid 3``."""
    return notation.said(notation.parse_action(code)).capitalize()


def mark_yours(units: tuple[UnitInfo, ...], seat: int) -> tuple[UnitInfo, ...]:
    return tuple(replace(unit, is_yours=True) if seat in unit.members else unit for unit in units)


def auction(view: PublicView, names: dict[int, str]) -> tuple[tuple[str, str], ...]:
    return tuple((names[s], notation.said(a)) for s, a in view.auction)


class SeatHand:
    """What a seat's own view adds to a page, for any page holding it as ``view``: the
    hand, the legal actions, the bid buttons. The trainer's positions share it."""

    view: SeatView

    @property
    def seat(self) -> int:
        return self.view.seat

    @cached_property
    def legal(self) -> tuple[str, ...]:
        """This seat's legal action codes (empty when not its turn)."""
        return tuple(notation.action(a) for a in self.view.legal)

    @property
    def my_turn(self) -> bool:
        return bool(self.view.legal)

    @cached_property
    def hand(self) -> tuple[tuple[str, bool], ...]:
        """(card code, playable)."""
        legal = set(self.view.legal)
        return tuple((notation.card(c), c in legal) for c in self.view.hand_cards)

    @property
    def bids(self) -> tuple[str, ...]:
        return bid_codes(self.legal)

    @property
    def bid_choices(self) -> tuple[tuple[str, str], ...]:
        """(code, words) for each bid button."""
        return tuple((code, bid_label(code)) for code in self.bids)

    @cached_property
    def trump_choices(self) -> tuple[tuple[str, str, str], ...]:
        """(code, suit name, suit letter) for each suit the bidder may name, when naming."""
        return tuple(
            (
                notation.action(a),
                notation.suit_name(rules.named_suit(a)),
                notation.suit_letter(rules.named_suit(a)),
            )
            for a in self.view.legal
            if rules.is_trump_action(a)
        )

    @cached_property
    def discard(self) -> CardChooser | None:
        """The discard this seat must make now, as the cards to tap, or None."""
        rule = self.view.discard_rule
        if rule is None:
            return None
        return card_chooser(rule, self.view.hand)

    @cached_property
    def own_exchange(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """What this seat alone may see of its exchange: (words, card codes)."""
        view = self.view
        shown = []
        if view.fill:
            took = view.seat == view.dealer and view.rules.exchange != "discard_to_six"
            shown.append(
                ("The pack you took" if took else "Dealt to you", notation.cards(view.fill))
            )
        if view.discard:
            shown.append(("You discarded", notation.cards(view.discard)))
        return tuple(shown)
