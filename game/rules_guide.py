"""What the rules page shows that the engine can compute: the deck per player count and
the legal plays of the worked examples; per preset (``preset_guides``) its summary,
seating, points, trump ranking and worked plays and discards. The page then cannot drift
from the rules."""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import cards, notation, rules, variants


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


# --- The Smear family's tables (``shared/spec/variants.md``) ---------------------------
#
# Every fact below is computed from the table's rules value, so a section of the page
# says what the engine plays. Examples name spades (the ranking, the discards) or hearts
# (the follow rules) trump.


@dataclass(frozen=True)
class Seating:
    players: tuple[int, ...]
    said: str  # "two teams of two, partners sitting opposite (2 v 2), or cutthroat"

    @property
    def counts(self) -> str:
        """``2, 3 or 5``"""
        said = [str(n) for n in self.players]
        return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " or " + said[-1]


@dataclass(frozen=True)
class DealRow:
    players: int
    dealt: int  # cards to each seat
    left: int  # the undealt pack


@dataclass(frozen=True)
class TrumpRank:
    code: str
    name: str  # "ace of spades", "jick (jack of clubs)", "high joker"


@dataclass(frozen=True)
class PointLine:
    name: str  # as the score sheet and the table say it (``notation.point_names``)
    said: str


@dataclass(frozen=True)
class FollowExample:
    trump: str
    led: str
    hand: tuple[str, ...]
    trump_any_time: tuple[str, ...]  # the legal cards under each follow rule, in hand order
    schmier: tuple[str, ...]
    why: str

    @property
    def trump_name(self) -> str:
        return notation.suit_name(self.trump)


@dataclass(frozen=True)
class DiscardExample:
    trump: str
    hand: tuple[str, ...]
    dealer: bool
    count: int  # cards to discard
    must_go: tuple[str, ...]
    must_stay: tuple[str, ...]
    choice: tuple[str, ...]  # may go or stay
    why: str

    @property
    def trump_name(self) -> str:
        return notation.suit_name(self.trump)

    @property
    def chosen(self) -> int:
        """How many of ``choice`` go."""
        return self.count - len(self.must_go)

    @property
    def kept(self) -> int:
        """How many of ``choice`` stay."""
        return len(self.choice) - self.chosen


@dataclass(frozen=True)
class PresetGuide:
    rules: variants.Rules
    title: str
    summary: tuple[str, ...]
    seating: tuple[Seating, ...]
    deal_rows: tuple[DealRow, ...]
    points: tuple[PointLine, ...]
    trump_order: tuple[TrumpRank, ...]
    follow_examples: tuple[FollowExample, ...]
    discard_examples: tuple[DiscardExample, ...]
    joker_choices: tuple[int, ...]  # the jokers the table may play as an option

    @property
    def joker_choices_said(self) -> str:
        said = [("none", "one", "two")[n] for n in self.joker_choices]
        return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " or " + said[-1]

    @property
    def anchor(self) -> str:
        """The page's anchor for this preset: ``/rules/#classic``."""
        return self.rules.preset


def _codes(mask: int, order: tuple[str, ...]) -> tuple[str, ...]:
    """The cards of ``mask``, in the order of ``order``."""
    return tuple(code for code in order if mask >> cards.parse_card(code) & 1)


def _mask(codes: tuple[str, ...]) -> int:
    return cards.mask_of(cards.parse_card(code) for code in codes)


def seating(table: variants.Rules) -> tuple[Seating, ...]:
    """Who may sit at the table, grouped by what the seats may do."""
    said: dict[str, list[int]] = {}
    for players in table.players:
        sides = (tuple(range(0, players, 2)), tuple(range(1, players, 2)))
        if table.layouts == "any":
            words = "any teams, or cutthroat (everyone for themselves)"
        elif players >= 4 and players % 2 == 0 and table.allows_layout(players, sides):
            size = players // 2
            where = "sitting opposite" if players == 4 else "seated alternately"
            words = (
                f"two teams of {_number(size)}, partners {where} ({size} v {size}), "
                "or cutthroat (everyone for themselves)"
            )
        else:
            words = "cutthroat, everyone for themselves"
        said.setdefault(words, []).append(players)
    return tuple(Seating(tuple(counts), words) for words, counts in said.items())


def _and(items: list[str]) -> str:
    """``a, b and c``"""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _number(n: int) -> str:
    return ("zero", "one", "two", "three", "four")[n] if n < 5 else str(n)


def deal_rows(table: variants.Rules) -> tuple[DealRow, ...]:
    deck = cards.count(cards.full_deck(table.jokers))
    return tuple(
        DealRow(players=n, dealt=table.deal, left=deck - n * table.deal) for n in table.players
    )


def trump_order(table: variants.Rules, trump: str = "S") -> tuple[TrumpRank, ...]:
    """Every trump of the table, highest first, as the engine ranks them."""
    trumps = rules.trumps_of(cards.SUITS.index(trump), table.jick, table.jokers)
    ranked = sorted(
        (c for c in range(cards.CARD_COUNT) if trumps.strength[c] >= 0),
        key=lambda c: -trumps.strength[c],
    )
    return tuple(TrumpRank(cards.card_code(c), _trump_name(c, trumps, table)) for c in ranked)


def _trump_name(card: int, trumps: rules.TrumpSuit, table: variants.Rules) -> str:
    if card == trumps.jick:
        return f"the jick ({notation.card_name(card)})"
    if card >= cards.JOKER_1:
        if table.jokers == 1:
            return "the joker"
        return "the high joker" if card == cards.JOKER_1 else "the low joker"
    return notation.card_name(card)


_POINT_SAID = {
    ("high", "ace_two"): "the ace of trumps, to the side of whoever plays it. If nobody plays "
    "it (it was not dealt, or it was discarded), nobody scores it.",
    ("low", "ace_two"): "the two of trumps, to the side of whoever plays it, whoever wins the "
    "trick. If nobody plays it, nobody scores it.",
    ("high", "house"): "the highest trump that was dealt, to the side that takes it.",
    ("low", "house"): "the lowest trump in play, to the side that was dealt it.",
    "jack": "the jack of trumps, to the side that wins the trick it falls in.",
    "jick": "the jick, to the side that wins the trick it falls in.",
    "jokers": "the joker, to the side that wins the trick it falls in.",
    "joker_high": "the high joker, to the side that wins the trick it falls in.",
    "joker_low": "the low joker, to the side that wins the trick it falls in.",
}


def _game_said(table: variants.Rules) -> str:
    nothing = _and(["anything lower", *(["the jokers"] if table.jokers else [])])
    return (
        "each side adds up the cards in its own tricks: 10 counts 10, ace 4, king 3, "
        f"queen 2, jack 1{' (the jick too)' if table.jick else ''}, {nothing} nothing. The "
        "side with the highest total scores the point; if two sides tie for it, nobody does."
    )


def point_lines(table: variants.Rules) -> tuple[PointLine, ...]:
    """Each point of a round, named as ``notation.point_names`` names it, in words."""
    kinds = []
    for kind in table.points:
        kinds += [kind] * (table.jokers if kind == "jokers" else 1)
    said = [
        _game_said(table)
        if kind == "game"
        else _POINT_SAID.get((kind, table.high_low)) or _POINT_SAID[kind]
        for kind in kinds
    ]
    return tuple(
        PointLine(name, words)
        for name, words in zip(notation.point_names(table), said, strict=True)
    )


def follow_example(*, trump: str, led: str, hand: tuple[str, ...], table: variants.Rules, why: str):
    trumps = rules.trumps_of(cards.SUITS.index(trump), table.jick, table.jokers)
    held, card_led = _mask(hand), cards.parse_card(led)
    return FollowExample(
        trump=trump,
        led=led,
        hand=hand,
        trump_any_time=_codes(
            rules.legal_cards_full(held, card_led, trumps, "trump_any_time"), hand
        ),
        schmier=_codes(rules.legal_cards_full(held, card_led, trumps, "schmier"), hand),
        why=why,
    )


def follow_examples(table: variants.Rules) -> tuple[FollowExample, ...]:
    """Worked plays under both follow rules, with this table's trumps (hearts trump)."""
    joker = ("J1",) if table.jokers else ()
    jick = ("JD",) if table.jick else ()
    trumping = " or the joker" if joker else ""
    found = [
        follow_example(
            trump="H",
            led="AD",
            hand=("9D", "10H", *joker, "KS"),
            table=table,
            why="Diamonds were led and you hold the 9 of diamonds. Trumping any time, you "
            f"may follow with it or trump with the 10 of hearts{trumping}. Under the Schmier "
            "rule you hold a diamond, so you must play it. The king of spades is neither a "
            "diamond nor a trump.",
        )
    ]
    if table.jick:
        found.append(
            follow_example(
                trump="H",
                led="AD",
                hand=("JD", "10H", "KS", "QC"),
                table=table,
                why="Diamonds were led, but the jack of diamonds is the jick: with hearts "
                "trump it is a heart, not a diamond. You hold no diamond, so every card is "
                "legal under either rule.",
            )
        )
    answers = _and(
        ["the 3 of hearts", *(["the jick"] if jick else []), *(["the joker"] if joker else [])]
    )
    found.append(
        follow_example(
            trump="H",
            led="5H",
            hand=("9D", *jick, "3H", *joker, "KS"),
            table=table,
            why=f"Trump was led. Every trump follows it: here {answers}. While you hold a trump "
            "you must play one, under either rule.",
        )
    )
    return tuple(found)


def discard_example(
    *, trump: str, hand: tuple[str, ...], table: variants.Rules, dealer: bool, why: str
) -> DiscardExample:
    trumps = rules.trumps_of(cards.SUITS.index(trump), table.jick, table.jokers)
    held = _mask(hand)
    rule = rules.discard_rule(table.exchange, held, trumps, dealer=dealer)
    return DiscardExample(
        trump=trump,
        hand=hand,
        dealer=dealer,
        count=rule.count,
        must_go=_codes(rule.must, hand),
        must_stay=_codes(held & ~rule.may, hand),
        choice=_codes(rule.may & ~rule.must, hand),
        why=why,
    )


# the dealer's 23 cards under "dealer takes the pack": 6 dealt and the pack's 17
_DEALER_AND_PACK = (
    "AS", "10S", "4H", "KD", "9C", "J1", "2S", "JC", "8S", "QH", "JH", "7H", "6D", "5D",
    "3D", "KC", "QC", "8C", "5C", "10H", "9D", "4C", "3H",
)  # fmt: skip


def discard_examples(table: variants.Rules) -> tuple[DiscardExample, ...]:
    """Worked discards for this table's exchange (spades trump): which cards must go, must
    stay, or are the seat's choice."""
    if table.exchange == "discard_to_six":
        return (
            discard_example(
                trump="S",
                hand=("AS", "7S", "2S", "KH", "9H", "4D", "QC", "8C", "3C"),
                table=table,
                dealer=False,
                why="You hold three trumps, so all three stay; any three of your other cards go.",
            ),
            discard_example(
                trump="S",
                hand=("AS", "KS", "QS", "JS", "9S", "5S", "2S", "4D", "8C"),
                table=table,
                dealer=False,
                why="You hold seven trumps, so you keep six of them: both plain cards go, "
                "and one trump of your choice, even the ace or the two (this discard "
                "protects no point card).",
            ),
        )
    if table.exchange == "discard_and_fill":
        return (
            discard_example(
                trump="S",
                hand=("AS", "JC", "J2", "7S", "KH", "9H", "4D", "QC", "3C"),
                table=table,
                dealer=False,
                why="Every card that is not a trump goes (the jack of clubs is the jick, a "
                "trump). You keep four trumps and are dealt two from the pack to make six.",
            ),
            discard_example(
                trump="S",
                hand=("AS", "KS", "JS", "JC", "J1", "9S", "2S", "4D", "8C"),
                table=table,
                dealer=False,
                why="Both plain cards go. With seven trumps you throw one more, but never "
                "a point card: the king or the 9 of spades.",
            ),
            discard_example(
                trump="S",
                hand=(
                    "KS",
                    "4S",
                    "JH",
                    "10D",
                    "8D",
                    "6C",
                    "5H",
                    "QH",
                    "2D",
                    "AS",
                    "J2",
                    "3S",
                    "9C",
                    "7D",
                ),  # fmt: skip
                table=table,
                dealer=True,
                why="The dealer, after the fills, takes the last five cards of the pack "
                "and discards down to six, keeping every point card.",
            ),
        )
    if table.exchange == "dealer_takes_pack":
        return (
            discard_example(
                trump="S",
                hand=_DEALER_AND_PACK,
                table=table,
                dealer=True,
                why="The dealer holds six cards and the pack's seventeen and discards "
                "seventeen, keeping every point card.",
            ),
        )
    return ()


def preset_guide(table: variants.Rules) -> PresetGuide:
    return PresetGuide(
        rules=table,
        title=notation.preset_name(table.preset),
        summary=notation.rules_summary(table)[1:],  # the first line is the title
        seating=seating(table),
        deal_rows=deal_rows(table) if not table.is_house else (),
        points=point_lines(table),
        trump_order=trump_order(table) if not table.is_house else (),
        follow_examples=follow_examples(table) if not table.is_house else (),
        discard_examples=discard_examples(table),
        joker_choices=joker_choices(table),
    )


def joker_choices(table: variants.Rules) -> tuple[int, ...]:
    """How many jokers the table may be set to play (none where it takes no such option)."""
    found = []
    for jokers in (0, 1, 2):
        try:
            table.with_options(jokers=jokers)
        except variants.RulesError:
            continue
        found.append(jokers)
    return tuple(found) if len(found) > 1 else ()


def preset_guides() -> tuple[PresetGuide, ...]:
    """One guide per preset, the house rules first."""
    return tuple(preset_guide(table) for table in variants.PRESETS.values())


@dataclass(frozen=True)
class OptionExample:
    """A preset with some options changed: the points and bids the engine then plays."""

    title: str
    options: str
    points: tuple[str, ...]
    bids: tuple[int, int]


def option_examples() -> tuple[OptionExample, ...]:
    changed = (
        (variants.CLASSIC, {"jokers": 1}, "one joker"),
        (variants.CLASSIC, {"jokers": 2, "jick": True}, "both jokers and the jick"),
        (variants.SIX_HANDED, {"jokers": 0, "jick": False}, "no joker and no jick"),
    )
    found = []
    for table, options, said in changed:
        played = table.with_options(**options)
        found.append(
            OptionExample(
                title=notation.preset_name(table.preset),
                options=said,
                points=notation.point_names(played),
                bids=played.bids,
            )
        )
    return tuple(found)
