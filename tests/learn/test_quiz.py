"""The rules quizzes, one per game: each question has one right answer, worked out from the
game's rules by the engine."""

import pytest

from game.engine import cards, rules, variants
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


# --- A quiz per game ----------------------------------------------------------------------

GAMES = tuple(variants.PRESETS)


def test_every_game_has_a_quiz_of_distinct_questions():
    assert tuple(quiz.QUIZZES) == GAMES
    for game, found in quiz.QUIZZES.items():
        assert found.preset == game and len(found.questions) >= 5
        assert len(found.by_slug) == len(found.questions)
        for question in found.questions:
            keys = [key for key, _ in question.choices]
            assert len(keys) == len(set(keys)) >= 2
            assert keys.count(question.answer) == 1


@pytest.mark.parametrize("game", GAMES)
def test_every_answer_of_every_quiz_is_graded(game):
    for question in quiz.QUIZZES[game].questions:
        for key, _ in question.choices:
            feedback = quiz.check(question.slug, key, game=game)
            assert feedback.right == (key == question.answer)
            assert feedback.text.endswith(question.why)
            assert feedback.text.startswith("Right." if feedback.right else "Not quite: ")


def answers(table: variants.Rules) -> dict[str, str]:
    return {q.slug: q.answer for q in quiz.quiz_of(table).questions}


@pytest.mark.parametrize("game", GAMES)
def test_each_quizs_answers_are_its_games_rules(game):
    table = variants.PRESETS[game]
    found = answers(table)
    bid = min(table.max_bid, table.min_bid + 2)
    assert found["hand"] == str(table.deal)
    assert found["points"] == str(table.point_count)
    assert found["trump"] == ("bid" if table.names_trump else "lead")
    assert found["all-pass"] == ("dealer" if table.dealer_must_open else "redeal")
    assert found["set"] == str(-bid)
    assert found["low"] == ("two" if table.high_low == "ace_two" else "dealt")
    assert found["going-out"] == ("stop" if table.non_bidders_capped else "win")
    assert found["follow"] == "yes"  # no game here bars a trump while holding the suit led
    assert ("exchange" in found) == (table.exchange != "none")
    assert found.get("exchange", "none") == table.exchange
    assert ("jick" in found) == table.jick
    assert ("deck" in found) == table.is_house


def test_the_discard_question_is_answered_by_each_exchanges_rule():
    assert answers(variants.CLASSIC)["discard-two"] == "more"  # it protects no point card
    assert answers(variants.SIX_HANDED)["discard-two"] == "never"
    assert answers(variants.SEVEN_POINT)["discard-two"] == "never"
    assert "discard-two" not in answers(variants.HOUSE)


def test_a_quiz_follows_its_games_options():
    schmier = variants.CLASSIC.with_options(follow="schmier", target=11, jokers=1)
    found = quiz.quiz_of(schmier)
    assert answers(schmier)["follow"] == "no"
    assert "11" in found.by_slug["going-out"].text
    assert answers(schmier)["points"] == "5"  # high, low, jack, the joker and game
    assert answers(schmier)["joker"] == "between"
    assert "jick" not in answers(schmier)


def test_an_unknown_game_has_no_quiz():
    with pytest.raises(KeyError):
        quiz.check("hand", "6", game="no-such-game")
