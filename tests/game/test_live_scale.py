"""What keeps live tables cheap: after a change, a table's connections in one process share
one render job (the table read once, the partial rendered once per seat, each connection
getting its own seat's); and after a person's move the bots' timetable looks at the table
at once only when a bot is to act."""

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async

from game import bot_runner, consumers, live, selectors
from game.engine.cards import card_code, cards_of
from game.models import Seat, Table
from game.selectors import SeatOwner
from tests.game.test_consumers import (
    CARD_ATTR,
    _guest_with_table,
    _second_guest_in_seat,
    _truth,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("release_sync_thread_connections"),
]


def _owners(table: Table, first_session: str) -> tuple[SeatOwner, SeatOwner]:
    from django.contrib.sessions.backends.db import SessionStore

    second_session = _second_guest_in_seat(table, 2)
    first, second = (SessionStore(session_key=key) for key in (first_session, second_session))
    return SeatOwner(session_key=first["guest_token"]), SeatOwner(session_key=second["guest_token"])


def _hand(table_id: int, seat: int) -> set[str]:
    return {card_code(c) for c in cards_of(_truth(table_id).round.hands[seat])}


async def test_connections_asking_together_share_one_job_and_get_their_own_seat(monkeypatch):
    table, session = await sync_to_async(_guest_with_table)()
    first, second = await sync_to_async(_owners)(table, session)
    rendered = []
    real = selectors.table_page_context

    def counting(*, table, seat_owner, match=None):
        rendered.append(seat_owner)
        return real(table=table, seat_owner=seat_owner, match=match)

    monkeypatch.setattr(selectors, "table_page_context", counting)

    # three connections hear of one change: two tabs of the first seat and the second seat
    pages = await asyncio.gather(
        consumers.render_after_change(table.pk, first),
        consumers.render_after_change(table.pk, second),
        consumers.render_after_change(table.pk, first),
    )

    assert sorted(map(id, rendered)) == sorted(map(id, [first, second]))  # once per seat
    assert pages[0] == pages[2]
    assert await sync_to_async(_hand)(table.pk, 0) <= set(CARD_ATTR.findall(pages[0]))
    assert await sync_to_async(_hand)(table.pk, 2) <= set(CARD_ATTR.findall(pages[1]))
    assert not consumers._queued  # the job closed when it started


async def test_a_job_that_has_started_is_not_joined(monkeypatch):
    """A caller that arrives once the job is reading gets a job of its own: the first may
    have read the table before the change that caller heard of."""
    table, session = await sync_to_async(_guest_with_table)()
    first, second = await sync_to_async(_owners)(table, session)
    started, release = asyncio.Event(), asyncio.Event()
    jobs = []
    real = consumers._render_job
    loop = asyncio.get_running_loop()

    def held(table_id, job):
        result = real(table_id, job)
        jobs.append(sorted(map(id, job.waiting)))
        loop.call_soon_threadsafe(started.set)
        asyncio.run_coroutine_threadsafe(release.wait(), loop).result(timeout=10)
        return result

    monkeypatch.setattr(consumers, "_render_job", held)

    early = asyncio.ensure_future(consumers.render_after_change(table.pk, first))
    await asyncio.wait_for(started.wait(), 10)
    late = asyncio.ensure_future(consumers.render_after_change(table.pk, second))
    release.set()
    await asyncio.wait_for(asyncio.gather(early, late), 10)

    assert jobs == [[id(first)], [id(second)]]


async def test_a_table_that_is_gone_renders_nothing():
    table, session = await sync_to_async(_guest_with_table)()
    first, _ = await sync_to_async(_owners)(table, session)
    await sync_to_async(Table.objects.filter(pk=table.pk).delete)()

    assert await consumers.render_after_change(table.pk, first) is None


class _Timetable:
    def __init__(self) -> None:
        self.wakes: list[tuple[int, float | None]] = []

    def wake(self, table_id: int, at: float | None = None) -> None:
        self.wakes.append((table_id, at))


@pytest.fixture
def timetable(monkeypatch, settings):
    """The background timetable, recording its wakes; bots not inline."""
    settings.SMEAR_BOTS_INLINE = False
    settings.SMEAR_AWAY_AFTER_S = 45
    recorded = _Timetable()
    monkeypatch.setattr(bot_runner, "runner", lambda: recorded)
    monkeypatch.setattr(bot_runner, "wake", recorded.wake)
    return recorded


def _table_with(timetable: _Timetable, seat_2: dict) -> Table:
    table, _ = _guest_with_table()
    Seat.objects.filter(table=table, number=2).update(**seat_2)
    timetable.wakes.clear()  # the page that made the table woke it
    return table


@pytest.mark.parametrize(
    "seat_2",
    [
        {"bot_level": "greedy"},
        {"bot_level": None, "session_key": "a-person-away", "away_since": "2026-01-01T00:00Z"},
    ],
    ids=["a bot", "a person a bot stands in for"],
)
def test_a_bot_to_act_next_is_woken_at_once(timetable, seat_2):
    table = _table_with(timetable, seat_2)

    live.wake_bots_after_move(table_id=table.pk, next_seat=2)

    assert timetable.wakes == [(table.pk, None)]


def test_a_person_here_to_act_next_is_looked_at_only_when_they_would_count_as_away(timetable):
    table = _table_with(timetable, {"bot_level": None, "session_key": "a-person-here"})

    live.wake_bots_after_move(table_id=table.pk, next_seat=2)

    [(table_id, at)] = timetable.wakes
    assert table_id == table.pk and at == pytest.approx(time.monotonic() + 45, abs=5)


def test_a_finished_match_wakes_nobody(timetable):
    table = _table_with(timetable, {"bot_level": "greedy"})

    live.wake_bots_after_move(table_id=table.pk, next_seat=None)

    assert timetable.wakes == []
