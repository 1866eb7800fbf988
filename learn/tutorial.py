"""The newcomers' tutorial as data: six short lessons, each ending in a few practice
positions from the bank, shown in the same viewer as the trainer and never rated.

Numbers in the text come from the engine (``game.engine``), as the rules page does, so
the lessons cannot drift from the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import cards, rules
from game.rules_guide import DeckRow, PlayExample, deck_table, play_examples

PRACTICE_PER_LESSON = 3
# tutorial positions aim low: a newcomer meets the easiest positions of the bank first
TUTORIAL_TARGET = 900.0


@dataclass(frozen=True)
class Lesson:
    slug: str
    title: str
    paragraphs: tuple[str, ...]
    phase: str | None = None  # the practice positions' phase; None for any
    themes: tuple[str, ...] = ()  # the practice positions have one of these, when any exist
    max_tricks: int | None = None  # at most this many tricks done: 0 is early in the round
    barred: bool = False  # some card in the hand may not be played (and is shown faded)
    deck: bool = False  # show the functional deck per player count
    examples: bool = False  # show the rules' worked examples of legal plays

    @property
    def deck_rows(self) -> list[DeckRow]:
        return deck_table() if self.deck else []

    @property
    def play_examples(self) -> list[PlayExample]:
        return play_examples()[:2] if self.examples else []


def _lessons() -> tuple[Lesson, ...]:
    hand = cards.HAND_SIZE
    low_bid, high_bid = rules.MIN_BID, rules.MAX_BID
    target = rules.DEFAULT_TARGET
    return (
        Lesson(
            slug="deck",
            title="The deck",
            paragraphs=(
                f"Smear is played by {cards.MIN_PLAYERS} to {cards.MAX_PLAYERS} players. "
                "Four players, two teams of partners sitting across from each other, is "
                "the classic game; with an odd number everyone usually plays alone.",
                f"Everyone gets {hand} cards. Cards rank 2 (low) up to ace (high), and two "
                "jokers belong to no suit. The game drops the low ranks so that about two "
                "cards are left over after the deal: those hidden cards lie face down and "
                "nobody plays them.",
                "So the lowest card of a suit depends on the table: at four players it is "
                "the 9, at eight the 3. That card matters: the lowest trump dealt scores a "
                "point, Low, for whoever was dealt it. The practice positions ask you to "
                "play a card where the deck's lowest trump is in question.",
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
                "A round has up to six points: High (the highest trump dealt, to whoever "
                "takes it), Low (the lowest trump dealt, to whoever was dealt it), Jack "
                "(the jack of trump, to whoever takes it), one for each joker taken, and "
                "Game.",
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
            phase="auction",
            themes=("match-score",),  # a bid where the match score changes its worth
        ),
    )


LESSONS: tuple[Lesson, ...] = _lessons()
LESSONS_BY_SLUG = {lesson.slug: lesson for lesson in LESSONS}


def lesson_after(slug: str) -> Lesson | None:
    index = next(i for i, lesson in enumerate(LESSONS) if lesson.slug == slug)
    return LESSONS[index + 1] if index + 1 < len(LESSONS) else None
