"""Bots at a human pace, off the event loop: one timetable thread per server process.

It listens to ``game.live.events`` (registered in ``game.apps``): a stored change with a bot to
act next asks for a look at once; with a person to act, a look when they would count as
gone; an opened page or socket, a look at once (after a restart nothing else would remind
the bots). A look finds whose turn it is:

- a bot, or a bot standing in for a person who is away: it chooses from that seat's view
  in a worker process (so neither the event loop nor the GIL waits on its thinking), and
  the move is stored once the pace since the turn began has passed;
- a person: the table is looked at again when they would count as gone, and then a bot
  plays for them until they return.

Once every person at a table has been away for SMEAR_ABANDONED_AFTER_S, its bots stop:
the table waits, as it stands, for the first of them to come back.

Several processes may look at one table (two servers, or a wake after a restart): a move is
stored only if the table still stands at the turn it was chosen for, so nothing is played
twice and nothing is lost.

Fair to everyone: the workers are handed one choice each at a time (SMEAR_BOT_PROCESSES
of them), from a queue that serves tables with a person here first, then the longest
waiting; a table has at most one choice queued or thinking, and a choice thinks only
until its move is due (``LATE_THINK_S`` at least) and, while others wait behind it, only
its share of one pace, so no table holds a worker for long and the bots stay on time when
many tables play. The workers think at a lower CPU priority than their server and end
with it, however it ends (``game.live.workers``).
"""

from __future__ import annotations

import heapq
import itertools
import logging
import math
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from game.bots import choose_once
from game.live import db_retry, events, look_due, turns, workers
from game.services import play

logger = logging.getLogger(__name__)

# a bot standing in for an absent person plays at this level
STAND_IN_LEVEL = "expert"
BOT_OPTIONS = {"expert": {"budget_ms": 250.0}}
# a choice whose move is already due (a stand-in, a late look, a busy worker) may still
# think this long: under load a bot answers quickly rather than late
LATE_THINK_S = 0.02
# a person's page is here but has not shown them their turn (its broadcast was lost): look
# again this soon (the page's heartbeat brings the turn within game.live.presence.HEARTBEAT_S)
SHOWN_RECHECK_S = 2.0


@dataclass(frozen=True)
class _Chosen:
    turn_key: tuple[int, int, int]  # round, index, seat
    action: int


class Runner:
    """The timetable: which table to look at when, and the workers that look.

    ``synchronous`` looks in the caller of ``wake`` at once, for every look due by then
    (tests: the table settles before the request that woke it returns); a look due later
    waits for a later wake.
    """

    def __init__(
        self,
        *,
        pace_s: float,
        away_after_s: float,
        think: Executor | None,
        bot_options: dict | None = None,
        synchronous: bool = False,
        think_slots: int = 1,
    ) -> None:
        self.pace_s = pace_s
        self.away_after_s = away_after_s
        self.bot_options = BOT_OPTIONS if bot_options is None else bot_options
        self.synchronous = synchronous
        self._think = think  # None: think in the looking thread (tests)
        self._due: dict[int, float] = {}  # table id -> time.monotonic() to look at it
        self._busy: set[int] = set()
        self._chosen: dict[int, _Chosen] = {}
        self._thinking: dict[int, tuple[int, int, int]] = {}  # table id -> turn being thought
        # choices waiting for a worker: (rank, order, table id, level, turn), rank 0 where a
        # person is here; at most think_slots are handed to the workers at once
        self._waiting: list[tuple] = []
        self._order = itertools.count()
        self._think_slots = max(think_slots, 1)
        self._in_flight = 0
        self._stopped = False  # the process is ending: no more looks or choices
        self._lock = threading.Condition()
        self._looking = (
            None
            if synchronous
            else ThreadPoolExecutor(max_workers=4, thread_name_prefix="bot-look")
        )
        self._thread: threading.Thread | None = None
        self._sleeping_until = -math.inf  # when the timetable thread wakes by itself
        self._draining = False

    def heard(self, event: events.TableChanged | events.TableOpened) -> None:
        """A listener of ``game.live.events``."""
        if isinstance(event, events.TableOpened) or event.next is events.Next.BOT:
            self.wake(event.table_id)
        elif event.next is events.Next.PERSON:
            # the timetable keeps a table's earliest wake: an earlier one still comes first
            self.wake(event.table_id, at=time.monotonic() + self.away_after_s)

    def wake(self, table_id: int, at: float | None = None) -> None:
        at = time.monotonic() if at is None else at
        with self._lock:
            if table_id not in self._due or at < self._due[table_id]:
                self._due[table_id] = at
            if self.synchronous:
                if self._draining:  # a wake from inside a look: the drain below takes it
                    return
                self._draining = True
            else:
                if self._thread is None:
                    self._thread = threading.Thread(
                        target=self._run, name="bot-timetable", daemon=True
                    )
                    self._thread.start()
                # a look due after the timetable's next wake-up waits for it: at a table of
                # people every move asks for one such look, and 500 tables make many
                if at < self._sleeping_until:
                    self._lock.notify()
                return
        try:
            self._drain()
        finally:
            self._draining = False

    def stop(self) -> None:
        """End the timetable thread and wait for the looks in flight (the thinking pool
        is its owner's to shut down)."""
        with self._lock:
            self._stopped = True
            self._lock.notify()
            thread = self._thread
        if thread is not None:
            thread.join()
        if self._looking is not None:
            self._looking.shutdown(wait=True)

    def _drain(self) -> None:
        while True:
            with self._lock:
                now = time.monotonic()
                ready = [t for t, at in self._due.items() if at <= now]
                for table_id in ready:
                    del self._due[table_id]
            if not ready:
                return
            for table_id in ready:
                again = self.look(table_id)
                if again is not None:
                    self.wake(table_id, again)

    def _run(self) -> None:
        while True:
            with self._lock:
                if self._stopped:  # read under the lock: stop's notify is never missed
                    return
                now = time.monotonic()
                ready = [t for t, at in self._due.items() if at <= now and t not in self._busy]
                if not ready:
                    waiting = [at for t, at in self._due.items() if t not in self._busy]
                    self._sleeping_until = min(waiting) if waiting else math.inf
                    self._lock.wait(timeout=self._sleeping_until - now if waiting else None)
                    self._sleeping_until = -math.inf
                    continue
                for table_id in ready:
                    del self._due[table_id]
                    self._busy.add(table_id)
            for table_id in ready:
                try:
                    self._looking.submit(self._look_safely, table_id)
                except RuntimeError:  # the interpreter is shutting down
                    self._stopped = True
                    return

    def _look_safely(self, table_id: int) -> None:
        again: float | None = time.monotonic() + 5.0  # after an unexpected error, retry
        close_old_connections()
        try:
            again = db_retry.once_more(self.look)(table_id)
            if again is not None:  # the next look, where any process finds it
                look_due.schedule(table_id, look_due.due_in(again - time.monotonic()))
        except Exception:
            logger.exception("looking at table %s", table_id)
        finally:
            close_old_connections()
            with self._lock:
                self._busy.discard(table_id)
                self._lock.notify()
        if again is not None:
            self.wake(table_id, again)

    def look(self, table_id: int) -> float | None:
        """Move for the table if a bot is due to; when to look again (monotonic), or None.

        After a stored move it is None: the move's announcement asks for the next look."""
        turn = turns.table_turn(table_id=table_id)
        if turn is None or turn.abandoned:
            self._chosen.pop(table_id, None)
            look_due.schedule(table_id, None)  # until a change (a return) asks again
            return None
        waited = (timezone.now() - turn.since).total_seconds()
        level = turn.bot_level or (STAND_IN_LEVEL if turn.away else None)
        if level is None:
            # a person: their countdown runs from when their page showed them the turn
            if turn.countdown_from is None:
                return time.monotonic() + SHOWN_RECHECK_S
            counted = (timezone.now() - turn.countdown_from).total_seconds()
            if counted < self.away_after_s:
                return time.monotonic() + self.away_after_s - counted
        chosen = self._chosen.get(table_id)
        if chosen is None or chosen.turn_key != turn.key:
            if self._think is not None:
                self._think_about(table_id, level or STAND_IN_LEVEL, turn)
                return None  # the choice's arrival wakes the table
            chosen = _Chosen(turn.key, choose_once(*self._choice(level or STAND_IN_LEVEL, turn)))
            self._chosen[table_id] = chosen
            waited = (timezone.now() - turn.since).total_seconds()
        if waited < self.pace_s:
            return time.monotonic() + self.pace_s - waited
        del self._chosen[table_id]
        if play.table_play_for_turn(table_id=table_id, turn=turn, action=chosen.action):
            return None
        return time.monotonic()  # the table moved on meanwhile: look at where it is now

    def _choice(self, level: str, turn: turns.Turn, behind: int = 0) -> tuple:
        """choose_once's arguments, thought out by the time the move is due. Under load a bot
        thinks less, so that bots stay on time: a choice that waited in the queue has less
        time left, and with ``behind`` choices still waiting for the workers each thinks
        its share of one pace, so that the last of them is handed out before its own move
        is due."""
        now = time.time()
        due = turn.since.timestamp() + self.pace_s
        share = self.pace_s * self._think_slots / (behind + self._think_slots)
        think_until = max(min(due, now + share), now + LATE_THINK_S)
        seed = random.SystemRandom().getrandbits(64)
        return (level, turn.view, turn.legal, seed, self.bot_options.get(level, {}), think_until)

    def _think_about(self, table_id: int, level: str, turn: turns.Turn) -> None:
        """Queue the choice for a worker, without waiting: the looking threads stay free to
        store the moves of tables whose bots have already chosen."""
        with self._lock:
            if self._thinking.get(table_id) == turn.key:
                return
            self._thinking[table_id] = turn.key
            rank = 0 if turn.someone_here else 1
            heapq.heappush(self._waiting, (rank, next(self._order), table_id, level, turn))
        self._hand_out()

    def _hand_out(self) -> None:
        """Give the workers the first waiting choices, while a worker is free."""
        while True:
            with self._lock:
                if self._stopped or self._in_flight >= self._think_slots or not self._waiting:
                    return
                _, _, table_id, level, turn = heapq.heappop(self._waiting)
                if self._thinking.get(table_id) != turn.key:
                    continue  # a later turn of that table asked meanwhile
                self._in_flight += 1
                behind = len(self._waiting)
            try:
                future = self._think.submit(choose_once, *self._choice(level, turn, behind))
            except RuntimeError:  # the pool is shut down: the process is ending
                with self._lock:
                    self._stopped = True
                    self._in_flight -= 1
                return
            future.add_done_callback(
                lambda done, table_id=table_id, key=turn.key: self._thought(table_id, key, done)
            )

    def _thought(self, table_id: int, turn_key: tuple[int, int, int], done: Future) -> None:
        with self._lock:
            self._in_flight -= 1
            if self._thinking.get(table_id) == turn_key:
                del self._thinking[table_id]
        self._hand_out()
        if done.cancelled() or self._stopped:
            return
        try:
            action = done.result()
        except Exception:
            logger.exception("a bot thinking at table %s", table_id)
            self.wake(table_id, time.monotonic() + 5.0)
            return
        self._chosen[table_id] = _Chosen(turn_key, action)
        self.wake(table_id)


_runner: Runner | None = None
_runner_lock = threading.Lock()
_claiming: int | None = None  # the process whose claims thread runs


def keep_time() -> None:
    """Start this server process's claims of overdue tables (``game.live.look_due``): a
    table whose process died is looked at here within a few seconds."""
    global _claiming
    with _runner_lock:
        if _claiming == os.getpid():
            return
        _claiming = os.getpid()
    threading.Thread(target=_claim_overdue, name="bot-claims", daemon=True).start()


def _claim_overdue() -> None:
    while True:
        time.sleep(look_due.CLAIM_EVERY_S)
        close_old_connections()
        try:
            claimed = look_due.claim_overdue()
        except Exception:
            logger.exception("claiming overdue tables")
            continue
        finally:
            close_old_connections()
        for table_id in claimed:
            logger.info("table %s was overdue: looked at here", table_id)
            runner().wake(table_id)


def heard(event: events.TableChanged | events.TableOpened) -> None:
    """The process's timetable hears of a change (registered by ``game.apps``)."""
    runner().heard(event)


def use(replacement: Runner | None) -> Runner | None:
    """Make ``replacement`` the process's timetable (None: the next need builds one from
    the settings); the one it replaces."""
    global _runner
    with _runner_lock:
        previous, _runner = _runner, replacement
    return previous


def runner() -> Runner:
    global _runner
    with _runner_lock:
        if _runner is None:
            processes = settings.SMEAR_BOT_PROCESSES
            think = (
                ProcessPoolExecutor(
                    processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=workers.start,
                    initargs=(os.getpid(), settings.SMEAR_BOT_NICENESS),
                )
                if processes
                else None
            )
            _runner = Runner(
                pace_s=settings.SMEAR_BOT_PACE_MS / 1000,
                away_after_s=settings.SMEAR_AWAY_AFTER_S,
                think=think,
                think_slots=processes,
            )
        return _runner
