"""The README's path of one card is the code's: a move played over a socket calls the ten
functions the README names ("The path of one card"), each one, in the README's order."""

import functools
import importlib
import inspect
import json
import re
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings

from game.engine.rules import action_code
from tests.game.live.test_consumers import _guest_with_table, _truth, connected, drain

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("release_sync_thread_connections"),
]

STEP = re.compile(r"^\d+\. \*\*`([\w.]+)`\*\*", re.M)


def readme_path() -> list[str]:
    """The functions the README's "The path of one card" names, in its order."""
    readme = (Path(settings.BASE_DIR) / "README.md").read_text()
    section = readme.split("## The path of one card", 1)[1].split("\n## ", 1)[0]
    return STEP.findall(section)


def holder_of(dotted: str) -> tuple[object, str]:
    """The module or class that holds the function ``dotted`` names, and its name there."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            holder = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:-1]:
            holder = getattr(holder, name)
        return holder, parts[-1]
    raise AssertionError(f"{dotted}: no such module")


def recording(function, name: str, calls: list[str]):
    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def heard(*args, **kwargs):
            calls.append(name)
            return await function(*args, **kwargs)

        return heard

    @functools.wraps(function)
    def called(*args, **kwargs):
        calls.append(name)
        return function(*args, **kwargs)

    return called


def test_the_readme_names_at_most_ten_functions_and_each_exists():
    path = readme_path()

    assert 5 <= len(path) <= 10, path
    for dotted in path:
        holder, name = holder_of(dotted)
        assert callable(getattr(holder, name)), dotted


async def test_a_card_played_over_a_socket_calls_the_readmes_functions_in_its_order(monkeypatch):
    path = readme_path()
    calls: list[str] = []
    for dotted in path:
        holder, name = holder_of(dotted)
        monkeypatch.setattr(holder, name, recording(getattr(holder, name), dotted, calls))
    table, session = await sync_to_async(_guest_with_table)()
    socket = await connected(table.code, session)
    try:
        await drain(socket)
        match = await sync_to_async(_truth)(table.pk)
        calls.clear()

        move = {"action": action_code(match.legal_actions()[0]), "index": len(match.round.history)}
        await socket.send_to(text_data=json.dumps(move))
        heard = await drain(socket)
    finally:
        await socket.disconnect()

    assert heard
    first_calls = list(dict.fromkeys(calls))  # each function where the path first reaches it
    assert first_calls[: len(path)] == path
