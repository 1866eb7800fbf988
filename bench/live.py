"""Live tables over real websockets: move round trips and moves per second at N tables.

    python bench/live.py --bots [--tables 100] [--think 1,3] ...

    python bench/live.py [--tables 25,100,200] [--postgres-redis] [--servers 2]
                         [--duration 30] [--warmup 5] [--think 2,6] [--url URL]
                         [--pg-database smear_bench] [--redis-url redis://.../8]

Every seat of every table is a scripted person (no bots, so no bot is ever timed): one
websocket per seat, all clients in this one asyncio process. A client whose own partial
shows its turn waits a think time drawn uniformly from --think (2-6 s: a person's pace;
--think 0.2,0.5 is a stress test no person plays at), sends a random legal move
with the partial's data-index, and times the round trip from the send until its own
connection receives the partial whose data-round/data-index shows the move stored.

The server (smearsite.server.serve) is started here on a fresh database: the embedded
default (a SQLite file, in-memory channel layer) or, with --postgres-redis, PostgreSQL and
channels-redis (--servers K starts K server processes; seats are spread over them, so a
table's changes cross Redis). With --url the bench plays against a server already running,
creating its tables in the database that DATABASE_URL (in this environment) names: the
server's own.

The servers run with DEBUG off and SMEAR_AWAY_AFTER_S at a day, so no bot ever stands in
for a scripted person (and the tables of an earlier N are left alone).

With --bots each table is one scripted person (thinking 1-3 s unless --think says
otherwise) and three expert bots, from the first bid: the servers' own bot runners play
them, at SMEAR_BOT_PACE_MS. Besides the person's round trip it prints the bots' moves per
second and their lateness as the person sees it: when a bot's move reaches the person,
minus the pace after the move before it reached them (so a bot on time is near 0 ms). An
update that carries several moves at once is counted apart, not timed. "bots" is the CPU
of the servers' bot worker processes.

Moves counted are those sent during the timed window (after the warm-up). CPU columns are
shares of one core over the window: the server processes, this client process, PostgreSQL
and Redis (all their processes on the machine), and the whole machine's busy share of all
its cores, other people's work included. "Server CPU ms/move" is the server processes' CPU
time divided by the moves timed: the cost of one move, whatever else loads the machine.

--profile FILE runs the first server under cProfile (bench/profiled_server.py: every
thread) over the timed window and writes the stats to FILE (pstats; the profiler slows
that server, so read its shares, not the CPU figures of such a run).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import resource
import secrets
import shutil
import signal
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.servers import (  # noqa: E402
    Server,
    child_processes,
    manage,
    seat_guests,
    server_env,
    start_server,
)

PG_SERVER = "postgres://postgres@127.0.0.1:5432"
BENCH_DATABASE = "smear_bench"
REDIS_URL = "redis://127.0.0.1:6379/8"  # the bench's own Redis database: flushed at start
PLAYERS = 4  # two against two: tests.servers.seat_guests
CONNECTS_AT_ONCE = 40
DRAIN_S = 30  # after the window, how long answers to moves sent in it are waited for

SECTION = re.compile(r'<section id="table"[^>]*?data-round="(\d+)" data-index="(\d+)"')
LEGAL = re.compile(r'name="action" value="([^"]+)"')
ALERT = re.compile(r'id="table-error"[^>]*role="alert">')  # shown: no ``hidden``
TICKS = os.sysconf("SC_CLK_TCK")


# --- The database and the servers ---------------------------------------------------------


def fresh_postgres(name: str) -> str:
    import psycopg

    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    return f"{PG_SERVER}/{name}"


def flush_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def setup_django(
    env: dict[str, str],
    names=("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "SMEAR_AWAY_AFTER_S"),
) -> None:
    """This process only writes the tables: the site's settings (``names`` of ``env``) on
    the server's database, and no bots' timetable of its own. (Its timetable would hear
    the tables it makes and race the servers to play their bots, announcing those moves
    to nobody: with the in-memory layer a server's sockets never heard them.)"""
    for name in names:
        if name in env:
            os.environ[name] = env[name]
        else:
            os.environ.pop(name, None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "smearsite.settings"
    import django

    django.setup()
    from game import bot_runner, events

    events.unlisten(bot_runner.heard)


def create_tables(count: int, target: int, rng: random.Random) -> list[tuple[str, list[str]]]:
    """``count`` tables of four guests, each at a random point of its match's first three
    rounds (a page after round 1 carries a summary and a hand history, as in real play):
    (code, session key per seat)."""
    from django.db import transaction

    from game.players.identity import SeatOwner

    tables = []
    with transaction.atomic():
        for _ in range(count):
            tokens = [f"bench-{uuid.uuid4().hex}" for _ in range(PLAYERS)]
            table, sessions = seat_guests(tokens, target=target)
            owners = [SeatOwner(session_key=token) for token in tokens]
            advance(table, owners, rounds=rng.randrange(3), moves=rng.randrange(24), rng=rng)
            tables.append((table.code, sessions))
    return tables


def drop_tables(tables: list[tuple[str, list[str]]]) -> None:
    from game.models import Table

    Table.objects.filter(code__in=[code for code, _ in tables]).delete()


def create_bot_tables(count: int, target: int) -> list[tuple[str, list[str]]]:
    """``count`` tables of one guest and three expert bots, at their first bid."""
    from django.db import transaction

    tables = []
    with transaction.atomic():
        for _ in range(count):
            table, sessions = seat_guests(
                [f"bench-{uuid.uuid4().hex}"], target=target, bot_level="expert"
            )
            tables.append((table.code, sessions))
    return tables


def advance(table, owners: list, *, rounds: int, moves: int, rng: random.Random) -> None:
    """Play random legal moves until ``rounds`` rounds are over and ``moves`` more made."""
    from game import store
    from game.services import play

    while True:
        table.refresh_from_db()
        match = store.match_for_table(table)
        at = (len(match.rounds) - 1, len(match.round.history))
        if match.is_terminal() or at >= (rounds, moves):
            return
        seat = match.current_player()
        action = rng.choice(match.legal_actions())
        play.table_play(table_id=table.pk, seat_owner=owners[seat], action=action)


# --- CPU accounting from /proc ---------------------------------------------------------------


def process_cpu_s(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def cpu_by_command(names: set[str]) -> dict[str, float]:
    """CPU seconds used so far by every live process whose command is one of ``names``."""
    used: Counter = Counter()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            head, tail = (entry / "stat").read_text().rsplit(")", 1)
        except OSError:
            continue
        command = head.split("(", 1)[1]
        if command in names:
            fields = tail.split()
            used[command] += (int(fields[11]) + int(fields[12])) / TICKS
    return dict(used)


def children_cpu_s(parents: list[int]) -> float:
    """CPU seconds used so far by the live child processes of ``parents`` (bot workers)."""
    return sum(
        (int(fields[11]) + int(fields[12])) / TICKS for _, fields in child_processes(set(parents))
    )


def machine_busy_s() -> tuple[float, float]:
    """(busy, total) CPU seconds of all cores since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values) - idle) / TICKS, sum(values) / TICKS


@dataclass
class CpuMeter:
    server_pids: list[int]
    profiled: int | None = None  # the pid of a server under bench/profiled_server.py

    def signal_profiled(self, number: int) -> None:
        if self.profiled is not None:
            os.kill(self.profiled, number)

    def read(self) -> dict[str, float]:
        services = cpu_by_command({"postgres", "redis-server"})
        busy, total = machine_busy_s()
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return {
            "server": sum(process_cpu_s(pid) for pid in self.server_pids),
            "bots": children_cpu_s(self.server_pids),
            "client": usage.ru_utime + usage.ru_stime,
            "postgres": services.get("postgres", 0.0),
            "redis": services.get("redis-server", 0.0),
            "busy": busy,
            "total": total,
            "wall": time.monotonic(),
        }

    @staticmethod
    def shares(start: dict, end: dict) -> dict[str, float]:
        wall = end["wall"] - start["wall"]
        shares = {
            name: (end[name] - start[name]) / wall
            for name in ("server", "bots", "client", "postgres", "redis")
        }
        shares["machine"] = (end["busy"] - start["busy"]) / max(1e-9, end["total"] - start["total"])
        return shares


# --- The scripted people --------------------------------------------------------------------


@dataclass
class Window:
    start: float = float("inf")
    end: float = float("inf")
    going: bool = False  # nobody moves until every seat is connected
    stopping: bool = False

    def holds(self, at: float) -> bool:
        return self.start <= at < self.end


@dataclass
class Results:
    round_trips: list[float] = field(default_factory=list)  # seconds, moves sent in the window
    errors: Counter = field(default_factory=Counter)
    finished_tables: set = field(default_factory=set)
    bot_lateness: list[float] = field(default_factory=list)  # seconds, bot moves in the window
    bot_moves_merged: int = 0  # updates that carried several moves at once
    pending: int = 0  # moves sent and not yet seen stored


class Person:
    """One seat's connection: plays when its own partial shows its turn."""

    def __init__(
        self,
        code: str,
        rng: random.Random,
        think: tuple[float, float],
        bot_pace: float | None = None,
    ) -> None:
        self.code, self.rng, self.think = code, rng, think
        self.bot_pace = bot_pace  # seconds; None: no bots at this table
        self.changed_at = 0.0  # when the last update that moved the table arrived
        self.at: tuple[int, int] | None = None
        self.sent: tuple[tuple[int, int], float] | None = None  # (state sent at, when)
        self.thinking = False
        self.socket = None
        self.turn: tuple[tuple[int, int], list[str]] | None = None  # held until the start

    async def play(self, socket, window: Window, results: Results) -> None:
        self.socket = socket
        try:
            async for message in socket:
                self._heard(message, socket, window, results)
        except Exception as error:  # a dropped connection is counted, not fatal
            if not window.stopping:
                results.errors[f"connection: {type(error).__name__}"] += 1

    def _heard(self, message: str, socket, window: Window, results: Results) -> None:
        found = SECTION.search(message, 0, 600)
        refused = found is None or ALERT.search(message) is not None
        if found is None:
            if self.sent and window.holds(self.sent[1]):
                results.errors["refused (error line)"] += 1
            self._forget(results)
            return
        previous, self.at = self.at, (int(found[1]), int(found[2]))
        if previous is None:
            self.changed_at = time.monotonic()  # the table as it stood when we joined
        own_move = False
        if self.sent is not None:
            sent_at, when = self.sent
            if self.at > sent_at:
                own_move = True
                if window.holds(when):
                    results.round_trips.append(time.monotonic() - when)
                self._forget(results)
            elif refused:
                if window.holds(when):
                    results.errors["refused (table partial)"] += 1
                self._forget(results)
        if previous is not None and self.at > previous:
            self._time_bot(previous, own_move, window, results)
        if "Match over" in message:
            results.finished_tables.add(self.code)
            return
        legal = LEGAL.findall(message)
        self.turn = (self.at, legal) if legal else None
        if legal and window.going:
            self.go(window, results)

    def _time_bot(
        self, previous: tuple[int, int], own_move: bool, window: Window, results: Results
    ) -> None:
        """A move that was not ours reached us: a bot's, due ``bot_pace`` after the last."""
        now = time.monotonic()
        last, self.changed_at = self.changed_at, now
        if self.bot_pace is None or own_move or not window.holds(now):
            return
        round_, index = previous
        if self.at not in ((round_, index + 1), (round_ + 1, 0)):
            results.bot_moves_merged += 1
            return
        results.bot_lateness.append(now - last - self.bot_pace)

    def go(self, window: Window, results: Results) -> None:
        """Think about the move the latest partial offers, then send it."""
        if self.turn and self.sent is None and not self.thinking and not window.stopping:
            self.thinking = True
            at, legal = self.turn
            asyncio.get_running_loop().create_task(
                self._move(self.socket, at, legal, window, results)
            )

    def _forget(self, results: Results) -> None:
        if self.sent is not None:
            self.sent = None
            results.pending -= 1

    async def _move(
        self, socket, at: tuple[int, int], legal: list[str], window: Window, results: Results
    ) -> None:
        try:
            await asyncio.sleep(self.rng.uniform(*self.think))
            if window.stopping:
                return
            self.sent = (at, time.monotonic())
            results.pending += 1
            await socket.send(f'{{"action": "{self.rng.choice(legal)}", "index": {at[1]}}}')
        except Exception as error:
            if not window.stopping:
                results.errors[f"send: {type(error).__name__}"] += 1
        finally:
            self.thinking = False


async def run_tables(
    tables: list[tuple[str, list[str]]],
    servers: list[str],
    args: argparse.Namespace,
    meter: CpuMeter,
) -> dict:
    from websockets.asyncio.client import connect

    window, results = Window(), Results()
    rng = random.Random(args.seed)
    gate = asyncio.Semaphore(CONNECTS_AT_ONCE)
    sockets, tasks, people = [], [], []

    async def join(table: int, code: str, seat: int, session: str) -> None:
        # seats of one table on different servers: its changes cross the channel layer
        base = servers[(table + seat) % len(servers)]
        for attempt in range(3):
            try:
                async with gate:
                    socket = await connect(
                        "ws" + base.removeprefix("http") + f"/ws/table/{code}/",
                        origin=base,
                        additional_headers={"Cookie": f"sessionid={session}"},
                        open_timeout=120,
                        ping_interval=None,  # an overloaded server must not drop idle clients
                        max_queue=None,
                    )
                break
            except Exception as error:
                results.errors[f"connect: {type(error).__name__}"] += 1
                await asyncio.sleep(1 + attempt)
        else:
            return
        sockets.append(socket)
        bot_pace = args.bot_pace_ms / 1000 if args.bots else None
        person = Person(code, random.Random(rng.getrandbits(64)), args.think, bot_pace)
        people.append(person)
        tasks.append(asyncio.create_task(person.play(socket, window, results)))

    began = time.monotonic()
    await asyncio.gather(
        *(
            join(t, code, seat, session)
            for t, (code, sessions) in enumerate(tables)
            for seat, session in enumerate(sessions)
        )
    )
    connected_s = time.monotonic() - began
    window.going = True
    for person in people:
        person.go(window, results)
    window.start = time.monotonic() + args.warmup
    window.end = window.start + args.duration
    await asyncio.sleep(args.warmup)
    meter.signal_profiled(signal.SIGUSR1)  # its profile starts afresh
    # on stderr, for a sampling profiler to attach to the servers over the window
    print(f"timed window: {args.duration:g} s from now", file=sys.stderr, flush=True)
    cpu_start = meter.read()
    await asyncio.sleep(args.duration)
    cpu_end = meter.read()
    meter.signal_profiled(signal.SIGUSR2)  # and is written
    window.stopping = True
    deadline = time.monotonic() + DRAIN_S
    while results.pending > 0 and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    if results.pending > 0:
        results.errors["unanswered"] += results.pending
    for socket in sockets:
        await socket.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "connected_s": connected_s,
        "results": results,
        "cpu": CpuMeter.shares(cpu_start, cpu_end),
    }


# --- Figures --------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


HEADER = (
    f"{'N':>4} {'tables':>6} {'clients':>7} {'moves':>6} {'moves/s':>8} {'p50 ms':>7} "
    f"{'p95 ms':>7} {'max ms':>7} {'errors':>6} | CPU (cores): {'server':>6} {'client':>6} "
    f"{'pg':>5} {'redis':>5} | server CPU ms/move | machine busy"
)


def report(n: int, run: dict, duration: float, people: int = PLAYERS) -> str:
    results, cpu = run["results"], run["cpu"]
    ms = [t * 1000 for t in results.round_trips]
    errors = sum(results.errors.values())
    line = (
        f"{n:>4} {n:>6} {n * people:>7} {len(ms):>6} {len(ms) / duration:>8.1f} "
        f"{percentile(ms, 0.5):>7.0f} {percentile(ms, 0.95):>7.0f} "
        f"{max(ms, default=float('nan')):>7.0f} {errors:>6} | {'':12} "
        f"{cpu['server']:>6.2f} {cpu['client']:>6.2f} {cpu['postgres']:>5.2f} "
        f"{cpu['redis']:>5.2f} | {1000 * cpu['server'] * duration / max(1, len(ms)):>18.1f} "
        f"| {cpu['machine']:>4.0%}"
    )
    notes = [f"connect {run['connected_s']:.1f} s"]
    if results.errors:
        notes.append(", ".join(f"{k}: {v}" for k, v in sorted(results.errors.items())))
    if results.finished_tables:
        notes.append(f"{len(results.finished_tables)} matches ended")
    return line + "\n" + " " * 5 + "; ".join(notes)


def report_bots(run: dict, duration: float) -> str:
    results, cpu = run["results"], run["cpu"]
    late = [t * 1000 for t in results.bot_lateness]
    moves = len(late) + results.bot_moves_merged
    stored = moves + len(results.round_trips)
    return (
        f"     bots: {moves} moves, {moves / duration:.1f}/s; lateness p50 "
        f"{percentile(late, 0.5):.0f} ms, p95 {percentile(late, 0.95):.0f} ms, max "
        f"{max(late, default=float('nan')):.0f} ms ({results.bot_moves_merged} updates carried "
        f"several moves); bot workers {cpu['bots']:.2f} cores; server CPU "
        f"{1000 * cpu['server'] * duration / max(1, stored):.0f} ms per stored move"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="25,100,200", help="comma-separated N")
    parser.add_argument("--postgres-redis", action="store_true")
    parser.add_argument("--servers", type=int, default=1, help="server processes (K>1: Redis)")
    parser.add_argument("--url", help="a running server instead (comma-separate several)")
    parser.add_argument("--duration", type=float, default=30.0, help="timed seconds per N")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--think", help="think time range, seconds (2,6; with --bots 1,3)")
    parser.add_argument(
        "--bots", action="store_true", help="one person and three expert bots per table"
    )
    parser.add_argument("--bot-pace-ms", type=float, default=900.0, help="with --bots")
    parser.add_argument("--target", type=int, default=21, help="points to win a match")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", action="store_true", help="keep the server logs and database")
    parser.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--port", type=int, help="the first server's port (the next: +1, ...)")
    parser.add_argument(
        "--profile", metavar="FILE", help="cProfile the first server over each timed window"
    )
    parser.add_argument(
        "--pg-database", default=BENCH_DATABASE, help="with --postgres-redis: dropped, made anew"
    )
    parser.add_argument("--redis-url", default=REDIS_URL, help="with --postgres-redis: flushed")
    parser.add_argument(
        "--code", type=Path, help="serve this checkout of the site (the code before a change)"
    )
    args = parser.parse_args()
    root = args.code.resolve() if args.code else ROOT
    args.think = tuple(float(v) for v in (args.think or ("1,3" if args.bots else "2,6")).split(","))
    sizes = [int(n) for n in args.tables.split(",")]
    if args.servers > 1 and not args.postgres_redis and not args.url:
        parser.error("--servers above 1 needs --postgres-redis (a shared database and layer)")

    # a plain kill still stops the servers started here (the finally below)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    folder = Path(tempfile.mkdtemp(prefix="smear-bench-live-"))
    servers: list[Server] = []
    if args.url:
        env = server_env()
        urls = args.url.split(",")
        label = f"running server(s) {args.url}"
    else:
        if args.postgres_redis:
            flush_redis(args.redis_url)
            database = fresh_postgres(args.pg_database)
            label = "PostgreSQL + channels-redis"
        else:
            database = f"sqlite:///{folder / 'bench.sqlite3'}"
            label = "embedded default (SQLite file, in-memory channel layer)"
        env = server_env(
            DJANGO_SETTINGS_MODULE="smearsite.settings",
            DATABASE_URL=database,
            REDIS_URL=args.redis_url if args.postgres_redis else None,
            # as in production: DEBUG off (no query log kept per connection)
            DEBUG="false",
            SECRET_KEY=secrets.token_urlsafe(50),
            # nobody counts as away, so no bot ever stands in: bots are not timed, and the
            # tables of an earlier N are not played on by bots while the next N is measured
            SMEAR_AWAY_AFTER_S="86400",
            # every client of the bench comes from 127.0.0.1, as if from one address
            SMEAR_SOCKETS_PER_ADDRESS="100000",
            SMEAR_CONNECTIONS_PER_SECOND_PER_ADDRESS="0",
            SMEAR_CONNECTIONS_OPEN_PER_ADDRESS="0",
            SMEAR_BOT_PACE_MS=f"{args.bot_pace_ms:g}",
            **dict(item.split("=", 1) for item in args.server_env),
        )
        manage(["migrate", "--noinput"], env=env, cwd=root)
        for k in range(args.servers):
            # set-up is not timed: a connection may wait for the server while 800 arrive
            profiled = args.profile and k == 0
            servers.append(
                start_server(
                    env=env,
                    log=folder / f"server-{k}.log",
                    port=args.port + k if args.port else None,
                    launcher=(str(ROOT / "bench" / "profiled_server.py"), args.profile)
                    if profiled
                    else ("-m", "smearsite.server.serve"),
                    cwd=root,
                )
            )
        urls = [server.url for server in servers]
        label += f", {len(servers)} server process{'es' if len(servers) > 1 else ''}"
    setup_django(env)
    meter = CpuMeter([server.process.pid for server in servers])
    meter.profiled = servers[0].process.pid if args.profile and servers else None
    think = f"{args.think[0]:g}-{args.think[1]:g} s"
    print(f"live bench: {label}; think {think}; {args.duration:g} s after {args.warmup:g} s")
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    print(HEADER, flush=True)
    try:
        for n in sizes:
            if args.bots:
                tables = create_bot_tables(n, args.target)
            else:
                tables = create_tables(n, args.target, random.Random(f"{args.seed}-{n}"))
            run = asyncio.run(run_tables(tables, urls, args, meter))
            print(report(n, run, args.duration, people=1 if args.bots else PLAYERS), flush=True)
            if args.bots:
                print(report_bots(run, args.duration), flush=True)
                drop_tables(tables)  # or their bots would play on through the next N
            for server in servers:
                if server.process.poll() is not None:
                    raise RuntimeError(f"the server exited:\n{server.log_text()}")
    finally:
        for server in servers:
            server.stop()
        if args.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    if args.postgres_redis and not args.url and not args.keep:
        _drop_postgres(args.pg_database)


def _drop_postgres(name: str) -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
