"""The analysis board's words: how long answers take at a table size."""

import pytest

from learn.analysis_board.presenters import time_taken


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (0.4, "At six players the solver has taken under a second here lately."),
        (1.2, "At six players the solver has taken about a second here lately."),
        (2.6, "At six players the solver has taken about 3 seconds here lately."),
        (200, "At six players the solver has taken about 3 minutes here lately."),
    ],
)
def test_how_long_answers_took_is_said_in_seconds_or_minutes(seconds, words):
    assert time_taken("the solver", 6, seconds) == words


def test_before_any_answer_at_a_size_nothing_is_said_about_time():
    assert time_taken("the expert", 4, None) == ""
