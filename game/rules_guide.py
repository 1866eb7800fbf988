"""What the rules page shows that the engine can compute: the deck per player count and
the legal plays of the worked examples. The page then cannot drift from the rules."""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import cards, notation, rules


@dataclass(frozen=True)
class DeckRow:
    players: int
    low: str  # the lowest rank kept
    in_play: int  # cards in the functional deck, jokers included
    dealt: int
    hidden: int


@dataclass(frozen=True)
class PlayExample:
    trump: str  # suit letter
    led: str  # card code
    hand: tuple[str, ...]
    legal: tuple[str, ...]  # the cards of hand that may be played, in hand order
    why: str

    @property
    def trump_name(self) -> str:
        return notation.suit_name(self.trump)

    @property
    def hand_states(self) -> list[tuple[str, str]]:
        return [(code, "playable" if code in self.legal else "unplayable") for code in self.hand]


def deck_table() -> list[DeckRow]:
    return [
        DeckRow(
            players=players,
            low=low,
            in_play=cards.count(cards.functional_deck(players)),
            dealt=cards.HAND_SIZE * players,
            hidden=cards.hidden_count(players),
        )
        for players, low in sorted(cards.LOW_RANK.items())
    ]


def legal_in_hand(*, hand: tuple[str, ...], led: str, trump: str) -> tuple[str, ...]:
    mask = rules.legal_cards(
        cards.mask_of(cards.parse_card(code) for code in hand),
        cards.parse_card(led),
        cards.SUITS.index(trump),
    )
    return tuple(code for code in hand if mask >> cards.parse_card(code) & 1)


def _example(trump: str, led: str, hand: tuple[str, ...], why: str) -> PlayExample:
    return PlayExample(
        trump=trump,
        led=led,
        hand=hand,
        legal=legal_in_hand(hand=hand, led=led, trump=trump),
        why=why,
    )


def play_examples() -> list[PlayExample]:
    """The four worked examples of the house rules, with the engine's answer."""
    return [
        _example(
            "H",
            "AD",
            ("9D", "10H", "J1", "KS"),
            "Diamonds were led and they are not trump. You hold a diamond, so a plain card "
            "must be that diamond; the trump 10 of hearts and the joker are always allowed. "
            "The king of spades is neither a diamond, nor trump, nor a joker.",
        ),
        _example(
            "H",
            "AH",
            ("9D", "10H", "J1", "KS"),
            "Trump was led. While you hold a trump or a joker you must play one of them: "
            "no throwing away an off-suit card.",
        ),
        _example(
            "D",
            "AD",
            ("JH", "QH", "AH", "10S", "KS", "J2"),
            "Trump (diamonds) was led and you hold no diamond, but the joker counts as a "
            "trump-capable answer, so it is your only legal card.",
        ),
        _example(
            "H",
            "J2",
            ("9D", "10H", "J1", "KS"),
            "A joker was led: it belongs to no suit, so there is nothing to follow and "
            "every card in your hand is legal.",
        ),
    ]
