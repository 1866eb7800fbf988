"""The tutorial's rules quiz: a few questions, each answered with feedback.

Pure data and one check, like the lessons (``learn.tutorial``): numbers come from the
engine, so the quiz cannot drift from the rules. Nothing is stored or rated.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import cards, rules


@dataclass(frozen=True)
class Question:
    slug: str
    text: str
    choices: tuple[tuple[str, str], ...]  # (key, label)
    answer: str  # the right choice's key
    why: str  # the rule, said whichever choice was made

    def label(self, key: str) -> str:
        return dict(self.choices)[key]


@dataclass(frozen=True)
class Feedback:
    question: Question
    chosen: str
    right: bool

    @property
    def text(self) -> str:
        verdict = (
            "Right." if self.right else f"Not quite: {self.question.label(self.question.answer)}."
        )
        return f"{verdict} {self.question.why}"


class UnknownAnswer(ValueError):
    pass


def _questions() -> tuple[Question, ...]:
    hand, four_low = cards.HAND_SIZE, cards.LOW_RANK[4]
    return (
        Question(
            slug="hand",
            text="How many cards does each player get?",
            choices=(("4", "4"), (str(hand), str(hand)), ("8", "8")),
            answer=str(hand),
            why=f"Everyone gets {hand} cards, whatever the number of players.",
        ),
        Question(
            slug="deck",
            text="At four players, what is the lowest rank in the deck?",
            choices=(("2", "2"), (four_low, four_low), ("7", "7")),
            answer=four_low,
            why=(
                f"The low ranks are dropped so that a few cards are left over: at four "
                f"players every suit starts at the {four_low}."
            ),
        ),
        Question(
            slug="trump",
            text="What sets trump?",
            choices=(
                ("dealer", "The dealer names it"),
                ("lead", "The first card the auction winner leads"),
                ("bid", "The suit said with the highest bid"),
            ),
            answer="lead",
            why="Nobody names trump: the suit of the first card led is trump for the round.",
        ),
        Question(
            slug="follow",
            text=(
                "Hearts are led, hearts are not trump, and you hold a heart. May you play a trump?"
            ),
            choices=(("yes", "Yes"), ("no", "No, you must follow with a heart")),
            answer="yes",
            why=(
                "Trump and the jokers are always allowed; a plain card must follow the "
                "suit led while you hold it."
            ),
        ),
        Question(
            slug="low",
            text="Who scores the Low point?",
            choices=(
                ("dealt", "Whoever was dealt the lowest trump"),
                ("captured", "Whoever captures the lowest trump"),
            ),
            answer="dealt",
            why="Low goes to whoever was dealt the lowest trump in play, whoever captures it.",
        ),
        Question(
            slug="set",
            text="Your side bid 3 and took 2 points. What does it score this round?",
            choices=(("-3", "\u22123"), ("2", "2"), ("0", "0")),
            answer="-3",
            why=(
                "A side that falls short of its bid loses the amount bid; "
                f"bids run from {rules.MIN_BID} to {rules.MAX_BID}."
            ),
        ),
    )


QUESTIONS: tuple[Question, ...] = _questions()
QUESTIONS_BY_SLUG = {question.slug: question for question in QUESTIONS}


def check(slug: str, chosen: str) -> Feedback:
    """The feedback for answering question ``slug`` with ``chosen``. KeyError for an unknown
    question, UnknownAnswer for a choice it does not offer."""
    question = QUESTIONS_BY_SLUG[slug]
    if chosen not in dict(question.choices):
        raise UnknownAnswer(f"{chosen!r} is not one of the answers")
    return Feedback(question, chosen, chosen == question.answer)
