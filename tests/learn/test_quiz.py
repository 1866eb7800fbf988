"""The rules quiz's questions: each has one right answer, said in the engine's numbers."""

import pytest

from game.engine import cards, rules
from learn import quiz


def test_every_question_offers_its_answer_once_among_distinct_choices():
    assert len(quiz.QUESTIONS) >= 5
    for question in quiz.QUESTIONS:
        keys = [key for key, _ in question.choices]
        assert len(keys) == len(set(keys)) >= 2
        assert keys.count(question.answer) == 1


def test_a_right_answer_is_praised_and_a_wrong_one_is_told_the_right_one():
    right = quiz.check("hand", str(cards.HAND_SIZE))
    assert right.right and right.text.startswith("Right.")
    wrong = quiz.check("set", "2")
    assert not wrong.right
    assert wrong.text.startswith("Not quite: \u22123.")
    assert "loses the amount bid" in wrong.text


def test_the_quiz_takes_its_numbers_from_the_engine():
    deck = quiz.QUESTIONS_BY_SLUG["deck"]
    assert deck.answer == cards.LOW_RANK[4]
    assert f"from {rules.MIN_BID} to {rules.MAX_BID}" in quiz.QUESTIONS_BY_SLUG["set"].why


def test_an_answer_the_question_does_not_offer_is_refused():
    with pytest.raises(quiz.UnknownAnswer):
        quiz.check("trump", "spades")
    with pytest.raises(KeyError):
        quiz.check("no-such-question", "yes")
