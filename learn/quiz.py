"""The tutorial's rules quizzes, one per game: a few questions, each answered with feedback.

Pure data and one check, like the lessons (``learn.tutorial``). Every answer is worked out
from the game's rules value by the engine (the cards dealt, the points in play, who may
discard what, which cards may be played, how a round is settled), so a quiz cannot drift
from the rules it asks about. Nothing is stored or rated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from game.engine import cards, notation, rules, variants
from game.rules_guide import legal_in_hand, point_lines, trump_order

from .tutorial import EXAMPLE_TRUMP, PLAYED_HAND, points_said, spelled, trumps_said


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


@dataclass(frozen=True)
class Quiz:
    preset: str
    questions: tuple[Question, ...]

    @property
    def game(self) -> str:
        return notation.preset_name(self.preset)

    @property
    def by_slug(self) -> dict[str, Question]:
        return {question.slug: question for question in self.questions}


class UnknownAnswer(ValueError):
    pass


def _number_choices(values, answer: int) -> tuple[tuple[str, str], ...]:
    found = sorted({*values, answer})
    return tuple((str(n), str(n)) for n in found)


# --- One question each, from a game's rules value (None where the game has no such rule)


def _hand(table: variants.Rules) -> Question:
    deal = table.deal
    if table.is_house:
        why = f"Everyone gets {deal} cards, whatever the number of players."
    elif deal > PLAYED_HAND:
        why = (
            f"Each player is dealt {deal} cards and plays the round with {PLAYED_HAND} of "
            "them once trump is named."
        )
    else:
        why = f"Each player is dealt {deal} cards; the rest of the pack waits for the dealer."
    return Question(
        slug="hand",
        text="How many cards is each player dealt?",
        choices=_number_choices((4, *variants.DEALS), deal),
        answer=str(deal),
        why=why,
    )


def _deck(table: variants.Rules) -> Question | None:
    if not table.is_house:
        return None
    four_low = cards.LOW_RANK[4]
    return Question(
        slug="deck",
        text="At four players, what is the lowest rank in the deck?",
        choices=(("2", "2"), (four_low, four_low), ("7", "7")),
        answer=four_low,
        why=(
            f"The low ranks are dropped so that a few cards are left over: at four "
            f"players every suit starts at the {four_low}."
        ),
    )


def _points(table: variants.Rules) -> Question:
    count = table.point_count
    return Question(
        slug="points",
        text="How many points does one round hold?",
        choices=_number_choices((p.point_count for p in variants.PRESETS.values()), count),
        answer=str(count),
        why=f"A round holds {spelled(count)}: {points_said(table)}.",
    )


def _all_pass(table: variants.Rules) -> Question:
    answer = "dealer" if table.dealer_must_open else "redeal"
    why = (
        "The dealer speaks last and may not pass while nobody has bid."
        if table.dealer_must_open
        else "Everyone may pass; then the round scores nothing and the same dealer deals again."
    )
    return Question(
        slug="all-pass",
        text="Nobody has bid when the auction reaches the dealer. What happens?",
        choices=(
            ("dealer", "The dealer must bid"),
            ("redeal", "The dealer may pass too, and then deals again"),
            ("next", "The next player deals a new round"),
        ),
        answer=answer,
        why=why + f" Bids run from {table.min_bid} to {table.max_bid}.",
    )


def _trump(table: variants.Rules) -> Question:
    if table.names_trump:
        why = f"The highest bidder names a suit after the auction. Trump is {trumps_said(table)}."
    else:
        why = "Nobody names trump: the suit of the first card led is trump for the round."
    return Question(
        slug="trump",
        text="What sets trump?",
        choices=(
            ("dealer", "The dealer names it"),
            ("lead", "The first card the auction winner leads"),
            ("bid", "The highest bidder names a suit after the auction"),
        ),
        answer="bid" if table.names_trump else "lead",
        why=why,
    )


_EXCHANGE_CHOICES = (
    ("none", "Nobody"),
    ("discard_to_six", f"Every player, the dealer too, down to {spelled(PLAYED_HAND)} cards"),
    (
        "discard_and_fill",
        "Every player but the dealer throws the cards that are not trumps and is dealt "
        f"back up to {spelled(PLAYED_HAND)}; the dealer takes the rest of the pack",
    ),
    ("dealer_takes_pack", "Only the dealer, who takes the pack"),
)


def _exchange(table: variants.Rules) -> Question | None:
    if table.exchange == "none":
        return None
    return Question(
        slug="exchange",
        text="Once trump is named, who discards?",
        choices=_EXCHANGE_CHOICES[1:],
        answer=table.exchange,
        why=notation.EXCHANGE_SAID[table.exchange].capitalize() + ".",
    )


# two hands to discard from, spades trump: three trumps, and seven (the two of spades in each)
_FEW_TRUMPS = ("AS", "7S", "2S", "KH", "9H", "4D", "QC", "8C", "3C")
_MANY_TRUMPS = ("AS", "KS", "QS", "JS", "9S", "5S", "2S", "4D", "8C")


def _two_may_go(table: variants.Rules, hand: tuple[str, ...]) -> bool:
    trumps = rules.trumps_of(cards.SUITS.index(EXAMPLE_TRUMP), table.jick, table.jokers)
    held = cards.mask_of(cards.parse_card(code) for code in hand)
    # the one seat whose discard is a choice under every exchange: not the dealer where
    # every seat discards, the dealer where the dealer alone does
    dealer = table.exchange == "dealer_takes_pack"
    rule = rules.discard_rule(table.exchange, held, trumps, dealer=dealer)
    two = cards.two_of(trumps.suit)
    return bool(rule.may >> two & 1)


def _discard_two(table: variants.Rules) -> Question | None:
    if table.exchange == "none":
        return None
    if _two_may_go(table, _FEW_TRUMPS):
        answer = "yes"
    elif _two_may_go(table, _MANY_TRUMPS):
        answer = "more"
    else:
        answer = "never"
    why = {
        "yes": "Any card may go.",
        "more": f"You keep every trump, or {spelled(PLAYED_HAND)} when you hold more; then "
        "any trump may go, even the two: this discard protects no point card.",
        "never": "The two of trumps is a point card, and no discard may throw a point card.",
    }[answer]
    return Question(
        slug="discard-two",
        text="May the two of trumps be among the cards you discard?",
        choices=(
            ("yes", "Yes, like any card"),
            ("more", f"Only when you hold more than {spelled(PLAYED_HAND)} trumps"),
            ("never", "Never"),
        ),
        answer=answer,
        why=why,
    )


def _follow(table: variants.Rules) -> Question:
    # hearts are led and you hold a heart and a trump (spades): may the trump be played?
    hand, led = ("9H", "10S"), "AH"
    if table.is_house:
        legal = legal_in_hand(hand=hand, led=led, trump=EXAMPLE_TRUMP)
        why = (
            "Trump and the jokers are always allowed; a plain card must follow the suit led "
            "while you hold it."
        )
    else:
        trumps = rules.trumps_of(cards.SUITS.index(EXAMPLE_TRUMP), table.jick, table.jokers)
        mask = rules.legal_cards_full(
            cards.mask_of(cards.parse_card(code) for code in hand),
            cards.parse_card(led),
            trumps,
            table.follow,
        )
        legal = tuple(code for code in hand if mask >> cards.parse_card(code) & 1)
        why = f"The rule at this game: {notation.FOLLOW_SAID[table.follow]}."
    return Question(
        slug="follow",
        text="Hearts are led, hearts are not trump, and you hold a heart. May you play a trump?",
        choices=(("yes", "Yes"), ("no", "No, you must follow with a heart")),
        answer="yes" if "10S" in legal else "no",
        why=why,
    )


def _jick(table: variants.Rules) -> Question | None:
    if not table.jick:
        return None
    trump = cards.SUITS.index(EXAMPLE_TRUMP)
    jick = cards.card_code(cards.jick_of(trump))
    order = [rank.code for rank in trump_order(table, EXAMPLE_TRUMP)]
    above = notation.card_name(order[order.index(jick) - 1]) if jick in order else ""
    suit = notation.suit_name(EXAMPLE_TRUMP)
    printed = notation.suit_name(jick[-1])
    return Question(
        slug="jick",
        text=f"{suit.capitalize()} are trump. What is the {notation.card_name(jick)}?",
        choices=(
            ("plain", f"A plain {printed[:-1]}, like any other"),
            ("trump", f"A trump, ranking just under the {above}"),
            ("top", "The highest trump"),
        ),
        answer="trump" if jick in order[1:] else ("top" if jick in order else "plain"),
        why="The jick is the other jack of the trump's colour: a trump of the trump suit, "
        f"never a {printed[:-1]}, and a point to the side that wins its trick.",
    )


def _of_trumps(table: variants.Rules, code: str) -> str:
    """``jick``, ``jack of trumps``, ``10 of trumps``: a trump named whatever the suit."""
    trump = cards.SUITS.index(EXAMPLE_TRUMP)
    if table.jick and code == cards.card_code(cards.jick_of(trump)):
        return "jick"
    return f"{notation.rank_name(code[:-1])} of trumps"


def _joker(table: variants.Rules) -> Question | None:
    if table.is_house or not table.jokers:
        return None
    order = [rank.code for rank in trump_order(table, EXAMPLE_TRUMP)]
    jokers = [at for at, code in enumerate(order) if code in cards.JOKER_CODES.values()]
    first, last = jokers[0], jokers[-1]
    above = _of_trumps(table, order[first - 1]) if first else ""
    below = _of_trumps(table, order[last + 1])
    one = len(jokers) == 1
    return Question(
        slug="joker",
        text=f"Where {'does the joker' if one else 'do the jokers'} rank?",
        choices=(
            ("top", "Above the ace of trumps"),
            ("between", f"Under the {above or 'ace'}, above the {below}"),
            ("none", "Nowhere: a joker belongs to no suit"),
        ),
        answer="between" if first else "top",
        why=(
            f"{'The joker is a trump' if one else 'Both jokers are trumps'}, whichever suit "
            "is named, and a point to the side that wins "
            f"{'its' if one else 'their'} trick."
        ),
    )


def _low(table: variants.Rules) -> Question:
    low = next(line for line in point_lines(table) if line.name == "Low")
    return Question(
        slug="low",
        text="Who scores the Low point?",
        choices=(
            ("dealt", "Whoever was dealt the lowest trump"),
            ("captured", "Whoever captures the lowest trump"),
            ("two", "Whoever plays the two of trumps"),
        ),
        answer="two" if table.high_low == "ace_two" else "dealt",
        why=f"Low is {low.said}",
    )


def _set(table: variants.Rules) -> Question:
    bid = min(table.max_bid, table.min_bid + 2)
    took = bid - 1
    scored = rules.bidder_gain(points=took, bid=bid)
    said = lambda n: f"\u2212{-n}" if n < 0 else str(n)  # noqa: E731 - a minus sign
    return Question(
        slug="set",
        text=f"Your side bid {bid} and took {took} points. What does it score this round?",
        choices=tuple((str(n), said(n)) for n in (scored, took, 0)),
        answer=str(scored),
        why=(
            "A side that falls short of its bid loses the amount bid; "
            f"bids run from {table.min_bid} to {table.max_bid}."
        ),
    )


def _going_out(table: variants.Rules) -> Question:
    target = table.target
    # two sides; yours (0) did not bid, and its points carry it past the target
    settled = rules.settle_round(
        scores=(target - 2, 0),
        raw=(table.min_bid + 1, table.min_bid),
        bidder_unit=1,
        bid=table.min_bid,
        target=target,
        capped=table.non_bidders_capped,
    )
    if settled.winner == 0:
        answer, why = "win", "Any side can go out, the bidder first: nobody else got there."
    else:
        answer = "stop" if settled.match_after[0] == target - 1 else "play"
        why = f"Only the bidding side can reach {target}; the others stop one short."
    return Question(
        slug="going-out",
        text=(
            f"The match is played to {target}. Your side did not bid, and this round's "
            f"points carry it past {target}; the bidding side is far behind. What happens?"
        ),
        choices=(
            ("win", "Your side wins the match"),
            ("stop", f"Your score stops at {target - 1}"),
            ("play", "Play goes on with your score past the target"),
        ),
        answer=answer,
        why=why,
    )


QUESTION_MAKERS: tuple[Callable[[variants.Rules], Question | None], ...] = (
    _hand, _deck, _points, _all_pass, _trump, _exchange, _discard_two, _follow, _jick,
    _joker, _low, _set, _going_out,
)  # fmt: skip


def quiz_of(table: variants.Rules) -> Quiz:
    made = (make(table) for make in QUESTION_MAKERS)
    return Quiz(table.preset, tuple(q for q in made if q is not None))


# one quiz per game, the house rules first
QUIZZES: dict[str, Quiz] = {name: quiz_of(table) for name, table in variants.PRESETS.items()}
QUESTIONS: tuple[Question, ...] = QUIZZES["house"].questions
QUESTIONS_BY_SLUG = QUIZZES["house"].by_slug


def check(slug: str, chosen: str, *, game: str = "house") -> Feedback:
    """The feedback for answering question ``slug`` of ``game``'s quiz with ``chosen``.
    KeyError for an unknown game or question, UnknownAnswer for a choice it does not offer."""
    question = QUIZZES[game].by_slug[slug]
    if chosen not in dict(question.choices):
        raise UnknownAnswer(f"{chosen!r} is not one of the answers")
    return Feedback(question, chosen, chosen == question.answer)
