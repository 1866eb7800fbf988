"""The newcomers' tutorial as data: short lessons for each game the site plays, each
ending in a few practice positions of that game from the bank, shown in the same viewer
as the trainer and never rated.

Every lesson names its game (a preset of ``game.engine.variants``). Its words and numbers
come from that game's rules value (the cards dealt, the bids, what counts as trump, the
points in play, the exchange, the target), as the rules page does (``game.rules_guide``),
so the lessons cannot drift from the rules. The house rules teach the whole game in six
lessons; each full-deck game teaches what it plays differently: naming trump, its
exchange, the jick and the jokers where it has them, ace and two, and going out.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import cards, notation, rules, variants
from game.engine.notation import listed
from game.rules_guide import (
    DeckRow,
    DiscardExample,
    PlayExample,
    PointLine,
    TrumpRank,
    deal_rows,
    deck_table,
    discard_examples,
    play_examples,
    point_lines,
    trump_order,
)

PRACTICE_PER_LESSON = 3
# tutorial positions aim low: a newcomer meets the easiest positions of the bank first
TUTORIAL_TARGET = 900.0
# the hand every game plays its tricks with, after any exchange
PLAYED_HAND = cards.HAND_SIZE
# the suit the lessons' examples name trump, as the rules page does
EXAMPLE_TRUMP = "S"


@dataclass(frozen=True)
class Lesson:
    slug: str
    title: str
    paragraphs: tuple[str, ...]
    preset: str = "house"  # the game the lesson teaches, and whose positions it practises
    phase: str | None = None  # the practice positions' phase; None for any
    themes: tuple[str, ...] = ()  # the practice positions have one of these, when any exist
    max_tricks: int | None = None  # at most this many tricks done: 0 is early in the round
    barred: bool = False  # some card in the hand may not be played (and is shown faded)
    deck: bool = False  # show the functional deck per player count
    examples: bool = False  # show the rules' worked examples of legal plays
    trumps: bool = False  # show the game's trumps, highest first
    points: bool = False  # show the game's points, each in words
    discards: bool = False  # show the game's worked discards
    practice: str = ""  # what the practice positions ask, in a sentence

    @property
    def rules(self) -> variants.Rules:
        return variants.PRESETS[self.preset]

    @property
    def game(self) -> str:
        return notation.preset_name(self.preset)

    @property
    def deck_rows(self) -> list[DeckRow]:
        return deck_table() if self.deck else []

    @property
    def play_examples(self) -> list[PlayExample]:
        return play_examples()[:2] if self.examples else []

    @property
    def trump_order(self) -> tuple[TrumpRank, ...]:
        return trump_order(self.rules, EXAMPLE_TRUMP) if self.trumps else ()

    @property
    def point_lines(self) -> tuple[PointLine, ...]:
        return point_lines(self.rules) if self.points else ()

    @property
    def discard_examples(self) -> tuple[DiscardExample, ...]:
        return discard_examples(self.rules) if self.discards else ()

    @property
    def trump_name(self) -> str:
        return notation.suit_name(EXAMPLE_TRUMP)


# --- Words from a rules value ----------------------------------------------------------

_SPELLED = (
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
)  # fmt: skip


def spelled(n: int) -> str:
    """``nine`` for 9, as a sentence says a small number; larger ones in figures."""
    return _SPELLED[n] if 0 <= n < len(_SPELLED) else str(n)


def points_said(table: variants.Rules) -> str:
    """``High, Low, Jack and Game``: the round's points, as the score sheet names them."""
    return listed(notation.point_names(table))


def jokers_said(table: variants.Rules) -> str:
    return ("", "the joker", "both jokers")[table.jokers]


def trumps_said(table: variants.Rules) -> str:
    """What counts as trump once a suit is named."""
    extras = (["the jick"] if table.jick else []) + ([jokers_said(table)] if table.jokers else [])
    said = "every card of the named suit"
    return said + (f", plus {listed(extras)}" if extras else "")


def point_cards_said(table: variants.Rules) -> str:
    """The cards a protected discard keeps: the ace, jack and two of trumps, the jick and
    the jokers where the table has them (``rules.TrumpSuit.point_cards``)."""
    found = ["the ace, jack and two of trumps"]
    found += ["the jick"] if table.jick else []
    found += [jokers_said(table)] if table.jokers else []
    return listed(found)


def _ranked_next_to(table: variants.Rules, code: str) -> tuple[str, str]:
    """The names of the trumps just above and just below ``code`` (spades trump)."""
    order = trump_order(table, EXAMPLE_TRUMP)
    at = [rank.code for rank in order].index(code)
    return _bare(order[at - 1].name), _bare(order[at + 1].name)


def _bare(name: str) -> str:
    """``jick`` for ``the jick (jack of clubs)``; a card's name as it is."""
    name = name.removeprefix("the ")
    return name.split(" (")[0]


def _pack_left(table: variants.Rules) -> tuple[int, int]:
    """(players, cards left in the pack after the deal) at the game's largest table."""
    row = deal_rows(table)[-1]
    return row.players, row.left


def _all_pass_said(table: variants.Rules) -> str:
    if table.dealer_must_open:
        return "If everyone before the dealer passes, the dealer must bid."
    return "Everyone may pass; if everyone does, the same dealer deals again."


def _follow_said(table: variants.Rules) -> str:
    if table.follow == "schmier":
        return (
            "In the play you follow the suit led while you can; only with none of it may "
            "you trump, or play any card."
        )
    return (
        "In the play you follow the suit led or play a trump, even when you hold the suit "
        "led; with none of the suit led, any card will do."
    )


# --- The house rules ---------------------------------------------------------------------


def _house_lessons(table: variants.Rules) -> tuple[Lesson, ...]:
    hand = table.deal
    low_bid, high_bid = table.bids
    target = table.target
    return (
        Lesson(
            slug="deck",
            title="The deck",
            paragraphs=(
                f"Smear is played by {cards.MIN_PLAYERS} to {cards.MAX_PLAYERS} players. "
                "Four players, two teams of partners sitting across from each other, is "
                "the classic game; with an odd number everyone usually plays alone.",
                f"Everyone gets {hand} cards. Cards rank 2 (low) up to ace (high), and "
                f"{spelled(table.jokers)} jokers belong to no suit. The game drops the low "
                "ranks so that about two cards are left over after the deal: those hidden "
                "cards lie face down and nobody plays them.",
                "So the lowest card of a suit depends on the table: at four players it is "
                f"the {cards.LOW_RANK[4]}, at eight the {cards.LOW_RANK[8]}. That card "
                "matters: the lowest trump dealt scores a point, Low, for whoever was dealt "
                "it. The practice positions ask you to play a card where the deck's lowest "
                "trump is in question.",
                "In the practice positions you always see what your seat would see at the "
                "table: your own cards and everything played so far, never another hand.",
            ),
            # a card to play where the deck's low card decides the point, never a bid
            themes=("low",),
            deck=True,
        ),
        Lesson(
            slug="auction",
            title="The auction",
            paragraphs=(
                f"After looking at their {hand} cards, players bid once each, starting left "
                f"of the dealer. A bid ({low_bid} to {high_bid}) is how many points your "
                "side promises to take this round. You pass or bid higher than the bid so "
                "far; if everyone passed, the dealer must bid.",
                "The highest bidder leads the first trick and so chooses trump. Bid what "
                "your hand can make: trump strength, the jack and the jokers are what count.",
            ),
            phase="auction",
            themes=("bidding",),
        ),
        Lesson(
            slug="trump",
            title="Trump by the first lead",
            paragraphs=(
                "Nobody names trump. The first card the auction winner leads sets it: its "
                "suit is trump for the whole round. That is why the first card of a round "
                "may not be a joker.",
                "Lead from the suit where you hold the high trumps and the jack, and lead "
                "high: pulling the others' trumps early protects what you hold.",
            ),
            phase="lead",
            max_tricks=0,  # the first lead of the round, the one that sets trump
            themes=("choosing-trump",),
        ),
        Lesson(
            slug="following",
            title="What you may play",
            paragraphs=(
                "Trump and the jokers are always allowed. If a plain suit was led and you "
                "play a plain card, it must follow suit when you can; with none of that "
                "suit any card will do.",
                "If trump was led you must play a trump or a joker while you hold one. A "
                "joker led leaves every card legal. In the practice positions the cards "
                "you may not play are shown faded.",
            ),
            phase="follow",
            barred=True,
            examples=True,
        ),
        Lesson(
            slug="points",
            title="How points are won",
            paragraphs=(
                f"A round has up to {spelled(table.point_count)} points: High (the highest "
                "trump dealt, to whoever takes it), Low (the lowest trump dealt, to whoever "
                "was dealt it), Jack (the jack of trump, to whoever takes it), one for each "
                "joker taken, and Game.",
                "Game goes to the side whose captured cards count the most: 10 counts 10, "
                "jack 1, queen 2, king 3, ace 4. Tens are worth winning tricks for.",
            ),
            themes=("protecting-jack", "tens-for-game", "joker", "low"),
        ),
        Lesson(
            slug="scoring",
            title="How the match is scored",
            paragraphs=(
                "A side that makes its bid scores every point it took; a side that falls "
                "short loses the amount it bid. Scores can go below zero.",
                f"The other sides score what they took but stop at {target - 1}: only the "
                f"bidding side can reach {target}, and reaching it wins the match. So the "
                "score decides how bold to be: near the end, bid to go out, or bid to stop "
                "the side about to win.",
            ),
            # a bid or a card near the end of the match, where the score changes its worth
            themes=("match-score",),
            practice="The match is near its end: the score changes what a bid or a card is worth.",
        ),
    )


# --- The full-deck games -----------------------------------------------------------------


def _stem(table: variants.Rules) -> str:
    return table.preset.replace("_", "-")


def _naming_trump(table: variants.Rules) -> Lesson:
    deal = table.deal
    dealt = f"Each player is dealt {spelled(deal)} cards"
    if deal > PLAYED_HAND:
        dealt += f" and plays the round with {spelled(PLAYED_HAND)} of them"
    jokers = {0: "", 1: " and one joker", 2: " and two jokers"}[table.jokers]
    return Lesson(
        slug=f"{_stem(table)}-trump",
        title="The auction and naming trump",
        preset=table.preset,
        paragraphs=(
            f"This game uses the full pack of 52 cards{jokers}. {dealt}. The deal moves "
            "one seat to the left every round.",
            "The auction goes once round the table, starting on the dealer's left. On your "
            f"turn you pass or bid {table.min_bid} to {table.max_bid}: how many of the "
            f"round's {spelled(table.point_count)} points ({points_said(table)}) your side "
            "promises to take. A bid must beat the one before it. " + _all_pass_said(table),
            "The highest bidder then names trump: any of the four suits, chosen with the "
            f"hand in view. Trump is {trumps_said(table)}. The bidder leads the first trick "
            "with any card, and whoever wins a trick leads the next.",
            _follow_said(table) + " The highest trump wins a trick; with no trump in it, "
            "the highest card of the suit led.",
            "Name the suit where you hold the most trumps and the best of them: the ace "
            "scores High the moment you play it, and the high trumps keep the jack safe.",
        ),
        phase="trump",
        themes=("choosing-trump",),
        practice="You won the auction: name trump for the hand you hold.",
    )


def _discard_to_six(table: variants.Rules) -> Lesson:
    goes = table.deal - PLAYED_HAND
    return Lesson(
        slug=f"{_stem(table)}-discard",
        title=f"Discarding to {spelled(PLAYED_HAND)}",
        preset=table.preset,
        paragraphs=(
            "Once trump is named, every player, the dealer too, discards face down until "
            f"{spelled(PLAYED_HAND)} cards are left: {spelled(goes)} cards each, in turn "
            "from the dealer's left. Nobody sees another player's discard.",
            "You keep every trump you hold. Only a player holding more than "
            f"{spelled(PLAYED_HAND)} trumps throws trumps, down to {spelled(PLAYED_HAND)}, "
            "and then any of them may go, even the ace or the two: this discard protects "
            "no point card.",
            "Beside your trumps, keep the plain cards that can win a trick or count for "
            "Game: an ace, a guarded king, a ten. A lone low card rarely does either.",
        ),
        phase="discard",
        themes=("discarding",),
        discards=True,
        practice="Trump is named: choose your discard by tapping the cards to keep (or "
        "those to throw).",
    )


def _dealers_pack(table: variants.Rules) -> Lesson:
    players, left = _pack_left(table)
    return Lesson(
        slug=f"{_stem(table)}-pack",
        title="The dealer's pack",
        preset=table.preset,
        paragraphs=(
            f"{spelled(players).capitalize()} players are dealt {spelled(table.deal)} cards "
            f"each, and {left} cards are left over: the pack. It lies face down until "
            "trump is named.",
            "Then the dealer alone picks up the pack and discards down to "
            f"{spelled(PLAYED_HAND)}, keeping every point card: {point_cards_said(table)}. "
            "Nobody else discards, and nobody sees the pack or the dealer's discard.",
            f"So the dealer chooses six cards from {table.deal + left}: the dealer's side "
            "can hope for more than its cards show, and the other side should expect the "
            "dealer to hold the trumps it is missing.",
        ),
        phase="discard",
        themes=("discarding",),
        discards=True,
        practice=f"You are the dealer with the pack in hand: tap the {spelled(PLAYED_HAND)} "
        "cards to keep.",
    )


def _fill(table: variants.Rules) -> Lesson:
    players, left = _pack_left(table)
    return Lesson(
        slug=f"{_stem(table)}-fill",
        title="Discarding and the fill",
        preset=table.preset,
        paragraphs=(
            f"Each player is dealt {spelled(table.deal)} cards; the other {left} stay face "
            "down, in order: the pack.",
            "Once trump is named, every player but the dealer, in turn from the dealer's "
            "left, throws every card that is not a trump. A player still holding more than "
            f"{spelled(PLAYED_HAND)} trumps throws trumps down to {spelled(PLAYED_HAND)}, but "
            f"never a point card: {point_cards_said(table)}.",
            "Then, in the same order, each of them is dealt from the top of the pack back "
            f"up to {spelled(PLAYED_HAND)} cards: the fill. Only you see the cards your "
            "fill brings.",
            "The dealer then takes the rest of the pack and discards down to "
            f"{spelled(PLAYED_HAND)}, keeping every point card. That is the exchange's real "
            "choice: which trumps and plain cards to keep beside the point cards.",
        ),
        phase="discard",
        themes=("discarding",),
        discards=True,
        practice="You are the dealer with the rest of the pack: choose your discard by "
        "tapping the cards to keep (or those to throw).",
    )


# the lesson each exchange teaches
_EXCHANGE_LESSON = {
    "discard_to_six": _discard_to_six,
    "dealer_takes_pack": _dealers_pack,
    "discard_and_fill": _fill,
}


def _jick_and_jokers(table: variants.Rules) -> Lesson:
    trump = cards.SUITS.index(EXAMPLE_TRUMP)
    suit = notation.suit_name(EXAMPLE_TRUMP)
    parts, said = [], []
    if table.jick:
        jick = cards.jick_of(trump)
        above, _ = _ranked_next_to(table, cards.card_code(jick))
        parts.append("the jick")
        said.append(
            "The jick is the other jack of the same colour as trump: with "
            f"{suit} trump it is the {notation.card_name(jick)}. It is a trump, ranking "
            f"just under the {above}, and it belongs to the trump suit: it never follows "
            "its printed suit, and it counts 1 toward Game like any jack."
        )
    if table.jokers:
        parts.append(("the joker", "the jokers")[table.jokers - 1])
        first = cards.card_code(cards.JOKER_1)
        last = cards.card_code(cards.JOKER_2 if table.jokers == 2 else cards.JOKER_1)
        above, _ = _ranked_next_to(table, first)
        _, below = _ranked_next_to(table, last)
        if table.jokers == 1:
            said.append(
                "The joker is a trump too, whichever suit is named, ranking under the "
                f"{above} and above the {below}. It counts nothing toward Game."
            )
        else:
            said.append(
                "Both jokers are trumps, whichever suit is named: the high joker beats the "
                f"low joker, and both rank under the {above} and above the {below}. They "
                "count nothing toward Game."
            )
    scored = [name for name in notation.point_names(table) if name not in ("High", "Low")]
    scored = [name for name in scored if name not in ("Jack", "Game")]
    said.append(
        f"Each is a point of its own ({listed(scored)}), to the side that wins the trick it "
        f"falls in, so a round holds {spelled(table.point_count)} points. Like the jack, "
        "they score for whoever wins their trick, not whoever holds them: play them on a "
        "trick your side is winning, or once the higher trumps are gone."
    )
    return Lesson(
        slug=f"{_stem(table)}-jick",
        title=listed(parts).capitalize(),
        preset=table.preset,
        paragraphs=tuple(said),
        themes=("joker",),  # a joker to play, or one in the trick
        trumps=True,
        practice="A joker is in the trick, or is the card to play: choose your card.",
    )


def _ace_and_two(table: variants.Rules) -> Lesson:
    others = [name for name in notation.point_names(table) if name not in ("High", "Low")]
    return Lesson(
        slug=f"{_stem(table)}-points",
        title="Ace and two: the points",
        preset=table.preset,
        paragraphs=(
            f"A round holds {spelled(table.point_count)} points, one each: {points_said(table)}.",
            "High is the ace of trumps and Low the two of trumps. Each scores for the side "
            "of whoever plays it, whoever wins the trick. A card never played (left in the "
            "pack, or discarded) scores for nobody: if nobody holds the two, nobody scores "
            "Low.",
            f"The rest ({listed(others)}) are won in tricks, as the list below says.",
            "The ace is yours the moment you play it: lead it early to pull the others' "
            "trumps and keep your jack from being captured. And count the tens: each is "
            "worth as much toward Game as an ace.",
        ),
        themes=("drawing-trump", "tens-for-game"),  # points won or lost in the play
        points=True,
        practice="A card to play where points are at stake: trumps to draw, or a ten to "
        "win for Game.",
    )


def _going_out(table: variants.Rules) -> Lesson:
    bid = table.min_bid + 1
    lost = -rules.bidder_gain(points=bid - 1, bid=bid)
    target = table.target
    if table.non_bidders_capped:
        out = (
            f"The other sides score what they took but stop at {target - 1}: only the "
            f"bidding side can reach {target}, and reaching it wins the match."
        )
    else:
        out = (
            f"The match is played to {target}, and any side can get there, the bidder "
            f"first: if the bidding side is at or past {target} after a round, it wins, "
            f"even in a round it missed its bid. Otherwise the highest score at or past "
            f"{target} wins; if two sides tie there, play goes on."
        )
    return Lesson(
        slug=f"{_stem(table)}-going-out",
        title="Bidding and going out",
        preset=table.preset,
        paragraphs=(
            "A side that makes its bid scores every point it took; a side that falls short "
            f"loses the amount it bid: bid {bid} and take {bid - 1}, and your side loses "
            f"{lost}. Scores can go below zero. Every other side scores what it took.",
            out,
            "The whole risk sits in the bid. Bid what your hand can make, not what you "
            "hope it is worth: a missed bid costs its whole amount. Near the end the bid "
            "is also how your side goes out first.",
        ),
        phase="auction",
        themes=("bidding",),
        practice="It is your turn in the auction: pass, or bid what your hand can make.",
    )


def _family_lessons(table: variants.Rules) -> tuple[Lesson, ...]:
    found = [_naming_trump(table)]
    if table.exchange in _EXCHANGE_LESSON:
        found.append(_EXCHANGE_LESSON[table.exchange](table))
    if table.jick or table.jokers:
        found.append(_jick_and_jokers(table))
    found += [_ace_and_two(table), _going_out(table)]
    return tuple(found)


def lessons_of(table: variants.Rules) -> tuple[Lesson, ...]:
    return _house_lessons(table) if table.is_house else _family_lessons(table)


# every game's lessons, the house rules first
BY_GAME: dict[str, tuple[Lesson, ...]] = {
    name: lessons_of(table) for name, table in variants.PRESETS.items()
}
LESSONS: tuple[Lesson, ...] = tuple(lesson for found in BY_GAME.values() for lesson in found)
LESSONS_BY_SLUG = {lesson.slug: lesson for lesson in LESSONS}


def games_first(chosen: str | None) -> tuple[str, ...]:
    """Every game with lessons, the chosen one first (the house rules when none is)."""
    first = chosen if chosen in BY_GAME else "house"
    return (first, *(name for name in BY_GAME if name != first))


def lesson_number(lesson: Lesson) -> tuple[int, int]:
    """(its place among its game's lessons, from 1; how many its game has)."""
    own = BY_GAME[lesson.preset]
    return own.index(lesson) + 1, len(own)


def lesson_after(slug: str) -> Lesson | None:
    """The next lesson of the same game, or None after its last."""
    lesson = LESSONS_BY_SLUG[slug]
    number, total = lesson_number(lesson)
    return BY_GAME[lesson.preset][number] if number < total else None
