"""Driving the bots' timetable from a test, as the production process would."""

from game.live import bot_runner
from game.models import ActionLog


def bots_answer(table_id: int, max_moves: int | None = None) -> int:
    """Wake the process's timetable until the bots have nothing more to play now (or
    ``max_moves`` are stored); the number of moves stored.

    Outside a transaction (or in a transactional test) one wake settles the table: every
    bot move's announcement asks for the next look. Inside a test's transaction nothing
    commits, so each wake plays at most one move."""
    moves = 0
    while max_moves is None or moves < max_moves:
        before = ActionLog.objects.filter(table_id=table_id).count()
        bot_runner.runner().wake(table_id)
        stored = ActionLog.objects.filter(table_id=table_id).count() - before
        if not stored:
            break
        moves += stored
    return moves
