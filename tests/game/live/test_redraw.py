"""What keeps live tables cheap: after a change, a table's connections in one process share
one render job (the table read once, the partial rendered once per seat, each connection
getting its own seat's); and after a person's move the bots' timetable looks at the table
at once only when a bot is to act."""

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async

from game import selectors
from game.engine import rules
from game.engine.cards import card_code, cards_of
from game.live import bot_runner, events, redraw, store
from game.models import Seat, Table
from game.players.identity import SeatOwner
from game.services import play
from tests.game.live.test_consumers import (
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
    rendered, public_parts = [], []
    real_page, real_public = selectors.page_for, selectors.public_page

    def counting_page(*, public, match, seat):
        rendered.append(seat.number)
        return real_page(public=public, match=match, seat=seat)

    def counting_public(**kwargs):
        public_parts.append(kwargs["table"].pk)
        return real_public(**kwargs)

    monkeypatch.setattr(selectors, "page_for", counting_page)
    monkeypatch.setattr(selectors, "public_page", counting_public)

    # three connections hear of one change: two tabs of the first seat and the second seat
    pages = await asyncio.gather(
        redraw.after_change(table.pk, first),
        redraw.after_change(table.pk, second),
        redraw.after_change(table.pk, first),
    )

    assert sorted(rendered) == [0, 2]  # once per seat
    assert public_parts == [table.pk]  # the public part once, for both seats
    assert pages[0] == pages[2]
    assert await sync_to_async(_hand)(table.pk, 0) <= set(CARD_ATTR.findall(pages[0]))
    assert await sync_to_async(_hand)(table.pk, 2) <= set(CARD_ATTR.findall(pages[1]))
    assert store._owners[table.pk].job is None  # the job closed when it started


async def test_a_job_that_has_started_is_not_joined(monkeypatch):
    """A caller that arrives once the job is reading gets a job of its own: the first may
    have read the table before the change that caller heard of."""
    table, session = await sync_to_async(_guest_with_table)()
    first, second = await sync_to_async(_owners)(table, session)
    started, release = asyncio.Event(), asyncio.Event()
    jobs = []
    real = redraw._render_job
    loop = asyncio.get_running_loop()

    def held(table_id, job):
        result = real(table_id, job)
        jobs.append(sorted(map(id, job.waiting)))
        loop.call_soon_threadsafe(started.set)
        asyncio.run_coroutine_threadsafe(release.wait(), loop).result(timeout=10)
        return result

    monkeypatch.setattr(redraw, "_render_job", held)

    early = asyncio.ensure_future(redraw.after_change(table.pk, first))
    await asyncio.wait_for(started.wait(), 10)
    late = asyncio.ensure_future(redraw.after_change(table.pk, second))
    release.set()
    await asyncio.wait_for(asyncio.gather(early, late), 10)

    assert jobs == [[id(first)], [id(second)]]


async def test_a_table_that_is_gone_renders_nothing():
    table, session = await sync_to_async(_guest_with_table)()
    first, _ = await sync_to_async(_owners)(table, session)
    await sync_to_async(Table.objects.filter(pk=table.pk).delete)()

    assert await redraw.after_change(table.pk, first) is None


class _Timetable:
    def __init__(self) -> None:
        self.wakes: list[tuple[int, float | None]] = []

    def wake(self, table_id: int, at: float | None = None) -> None:
        self.wakes.append((table_id, at))


@pytest.fixture
def timetable(monkeypatch):
    """A production timetable whose wakes are recorded instead of looked at."""
    runner = bot_runner.Runner(pace_s=0, away_after_s=45, think=None, synchronous=True)
    recorded = _Timetable()
    monkeypatch.setattr(runner, "wake", recorded.wake)
    previous = bot_runner.use(runner)
    yield recorded
    bot_runner.use(previous)


def test_a_bot_to_act_next_is_looked_at_at_once(timetable):
    bot_runner.heard(events.TableChanged(7, events.Next.BOT))

    assert timetable.wakes == [(7, None)]


def test_a_person_here_to_act_next_is_looked_at_only_when_they_would_count_as_away(timetable):
    bot_runner.heard(events.TableChanged(7, events.Next.PERSON))

    [(table_id, at)] = timetable.wakes
    assert table_id == 7 and at == pytest.approx(time.monotonic() + 45, abs=5)


def test_a_change_with_nobody_to_act_wakes_nobody_and_an_opened_table_is_looked_at(timetable):
    bot_runner.heard(events.TableChanged(7, events.Next.NOBODY))
    assert timetable.wakes == []

    bot_runner.heard(events.TableOpened(7))
    assert timetable.wakes == [(7, None)]


def _table_a_person_is_to_act_at() -> Table:
    table = play.table_create_vs_bots(
        owner=SeatOwner(session_key="the-host"),
        players=4,
        teams=[[0, 2], [1, 3]],
        bot_levels=["greedy"] * 3,
    )
    mover = store.match_for_table(table).current_player()
    Seat.objects.filter(table=table, number=mover).update(bot_level=None, session_key="the-mover")
    return table


@pytest.mark.parametrize(
    "next_seat, expected",
    [
        ({"bot_level": "greedy"}, events.Next.BOT),
        (
            {"bot_level": None, "session_key": "a-person-away", "away_since": "2026-01-01T00:00Z"},
            events.Next.BOT,
        ),
        ({"bot_level": None, "session_key": "a-person-here"}, events.Next.PERSON),
    ],
    ids=["a bot", "a person a bot stands in for", "a person who is here"],
)
def test_a_stored_move_announces_who_acts_next(timetable, next_seat, expected):
    table = _table_a_person_is_to_act_at()
    match = store.match_for_table(table)
    mover = match.current_player()
    action = match.legal_actions()[0]
    after = match.apply(action, mover)
    if after.current_player() == mover:
        pytest.skip("the mover acts again: the auction's last bidder leads")
    Seat.objects.filter(table=table, number=after.current_player()).update(**next_seat)
    owner = SeatOwner(session_key="the-mover")
    heard = []
    events.listen(heard.append)
    try:
        play.table_play(table_id=table.pk, seat_owner=owner, action=action)
    finally:
        events.unlisten(heard.append)

    [change] = heard
    assert (change.table_id, change.next) == (table.pk, expected)
    # the rows the move left, for this process's redraws of it
    assert store.stored_rows(change.table_id, change.version)[0].moves == 1


@pytest.mark.usefixtures("quiet_timetable")  # the table stands at the move
def test_a_redraw_of_a_move_stored_here_reads_nothing(django_assert_num_queries):
    table = _table_a_person_is_to_act_at()
    match = store.match_for_table(table)
    heard = []
    events.listen(heard.append)
    try:
        play.table_play(
            table_id=table.pk,
            seat_owner=SeatOwner(session_key="the-mover"),
            action=match.legal_actions()[0],
        )
    finally:
        events.unlisten(heard.append)
    owner = SeatOwner(session_key="the-host")
    here = redraw._Job(loop=None, waiting={owner}, versions=[heard[0].version])
    # a change that is no move stored here, and carries none
    elsewhere = redraw._Job(loop=None, waiting={owner}, versions=[None])

    # on the event loop itself: no hop to the database thread, which it never needs
    on_the_loop = redraw._Job(loop=None, waiting={owner}, versions=[heard[0].version])
    with django_assert_num_queries(0):
        drawn_on_the_loop = redraw._render_here(table.pk, on_the_loop)[owner]
    with django_assert_num_queries(0):
        drawn_here = redraw._render_job(table.pk, here)[owner]
    assert redraw._render_here(table.pk, elsewhere) is None  # the database is needed
    with django_assert_num_queries(1):  # the table and its seats; the match is cached
        drawn_from_the_database = redraw._render_job(table.pk, elsewhere)[owner]

    assert drawn_on_the_loop == drawn_here == drawn_from_the_database


def _move_stored_elsewhere(table: Table, monkeypatch) -> tuple[events.TableChanged, str]:
    """Play the mover's first legal action as another process would have stored it:
    nothing it left is kept here. The change announced, and the code of the action."""
    match = store.match_for_table(table)
    action = match.legal_actions()[0]
    heard = []
    events.listen(heard.append)
    with monkeypatch.context() as elsewhere:
        elsewhere.setattr(store, "_keep_move", lambda table, seats, match: None)
        try:
            play.table_play(
                table_id=table.pk, seat_owner=SeatOwner(session_key="the-mover"), action=action
            )
        finally:
            events.unlisten(heard.append)
    [change] = heard
    return change, rules.action_code(action)


@pytest.mark.usefixtures("quiet_timetable")  # the table stands at the move
def test_a_plain_move_stored_elsewhere_is_redrawn_from_its_announcement_without_a_query(
    monkeypatch, django_assert_num_queries
):
    table = _table_a_person_is_to_act_at()
    rows = store.read_rows(table.pk)  # this process drew the table as it stood
    store.match_for_table(rows[0], fresh=True)
    change, code = _move_stored_elsewhere(table, monkeypatch)
    # the move as every seat saw it made, where it was made: no hand travels with it
    assert change.move == events.PublicMove(0, 0, 0, change.move.seat, code, (False,) * 4)
    heard = events.PublicMove.heard(list(change.move))  # as the layer delivers it
    owner = SeatOwner(session_key="the-host")

    job = redraw._Job(loop=None, waiting={owner}, versions=[change.version])
    job.moves.append(heard)
    with django_assert_num_queries(0):  # on the event loop: no hop to the database thread
        drawn = redraw._render_here(table.pk, job)[owner]
    # the next move's service here finds the match the announcement made
    assert store.kept_match(Table.objects.get(pk=table.pk)) is not None
    read = redraw._Job(loop=None, waiting={owner}, versions=[None])
    assert drawn == redraw._render_job(table.pk, read)[owner]


@pytest.mark.parametrize(
    "heard",
    [
        lambda move: move._replace(before=move.before + 1),
        lambda move: move._replace(away=(True,) * len(move.away)),
        lambda move: move._replace(index=move.index + 1),
        lambda move: None,
    ],
    ids=["a move missed before it", "the seats changed", "another place", "no move"],
)
@pytest.mark.usefixtures("quiet_timetable")
def test_a_move_stored_elsewhere_that_does_not_follow_what_is_kept_here_is_read(monkeypatch, heard):
    table = _table_a_person_is_to_act_at()
    rows = store.read_rows(table.pk)
    store.match_for_table(rows[0], fresh=True)
    change, _ = _move_stored_elsewhere(table, monkeypatch)
    owner = SeatOwner(session_key="the-host")
    job = redraw._Job(loop=None, waiting={owner}, versions=[change.version])
    job.moves.append(heard(change.move))

    assert redraw._render_here(table.pk, job) is None  # the database is needed
    drawn = redraw._render_job(table.pk, job)[owner]
    read = redraw._Job(loop=None, waiting={owner}, versions=[None])
    assert drawn == redraw._render_job(table.pk, read)[owner]


@pytest.mark.usefixtures("quiet_timetable")
def test_a_moves_group_message_carries_only_that_move_and_never_a_hand(monkeypatch):
    table = _table_a_person_is_to_act_at()
    for n in range(4):
        Seat.objects.filter(table=table, number=n).update(bot_level=None, session_key=f"p-{n}")
    sent = []
    monkeypatch.setattr(events, "_broadcast", lambda layer, group, message: sent.append(message))
    rounds_ended = 0
    while rounds_ended < 1:
        match = store.match_for_table(table)
        action = match.legal_actions()[-1]
        owner = SeatOwner(session_key=f"p-{match.current_player()}")
        play.table_play(table_id=table.pk, seat_owner=owner, action=action)
        message = sent.pop()
        after = _truth(table.pk)
        if len(after.rounds) > len(match.rounds) or after.is_terminal():
            rounds_ended += 1
            assert message["move"] is None  # a deal follows: its hands are read, never sent
            continue
        assert set(message) == {"type", "table", "version", "move"}
        before, round_, index, seat, code, away = message["move"]
        assert (round_, index, seat) == (
            len(match.rounds) - 1,
            len(match.round.history),
            match.current_player(),
        )
        assert code == rules.action_code(action)
        held = {card_code(c) for hand in after.round.hands for c in cards_of(hand)}
        assert code not in held
