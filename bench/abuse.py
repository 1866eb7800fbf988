"""One visitor who asks for a lot: the floods of issue 17, replayed against a real server.

    python bench/abuse.py [--port 8200] [--tables 500] [--sockets 3000] [--checkouts 200]
                          [--concurrency 8] [--keep]
                          [--only slow,heads,bodies,spooled,logins,codes]
                          [--code PATH]
                          [--postgres smear_harden --redis-url redis://127.0.0.1:6379/4]

Starts the site's server on a fresh SQLite file, or with --postgres a PostgreSQL database of that
name (dropped and made anew) and Redis (flushed) for the cache and channel layer
(DEBUG off, SMEAR_BOT_PROCESSES=1, the bots' usual
900 ms pace) with a local fake Stripe (tests/donations/fake_stripe.py), and seats one
normal person at a table of three expert bots, connected over a websocket and playing
(thinking 1-3 s). Then, one after another, one flooding guest (one session cookie):

- posts "Play bots now" --tables times: prints the tables that guest holds in play after,
  and watches --aftermath seconds more (the flood's tables' bots may play on for nobody);
- opens --sockets websockets to one table (100 at once, each held): prints how many the
  server held open and how many it refused;
- posts the donate form --checkouts times: prints the Checkout Sessions created at
  (fake) Stripe and the pending donations stored;

then the floods of issue 38 (``bench/floods.py``), each printing what the server process
held meanwhile (open files, memory, temporary files: peak and at the end):

- slow heads: --slow-connections connections from --slow-addresses loopback addresses,
  each sending a request head a line a second and never finishing it, for --slow-seconds;
- big heads: --big-heads connections each sending a head of --head-mb MB;
- big bodies: --big-bodies posts each declaring 2 GiB and sending up to --body-mb MB;
- spooled bodies: --spooled connections from --spooled-addresses addresses, each posting
  one chunk of --spooled-bytes bytes (a list: one run each) and no last chunk to
  --spooled-path, waiting up to --spooled-seconds: what the server held meanwhile
  (temporary files, memory);
- log-ins: --logins wrong passwords for one account from one address, then its owner's
  right one from another address;
- codes: --guesses table pages and --joins sheet joins by random codes from one address.

``--only`` runs only the named floods (tables, sockets, checkouts, slow, heads, bodies,
spooled, logins, codes). ``--code PATH`` serves another checkout of the site (its own manage.py
and server, this virtualenv): the same floods against the code before a change.

During each flood a probe, a process of its own connecting from another address
(127.0.0.2: a newcomer, not the flooder), asks for ``GET /`` every 100 ms (p50/p95
printed), and the
normal person's bots are timed: each bot move as it reaches the person, minus the pace
after the move before it (near 0 ms is on time; see bench/live.py). Counts are exact;
times depend on the machine's other load, printed with them.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import http.cookiejar
import multiprocessing
import os
import random
import re
import resource
import secrets
import shutil
import statistics
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import floods  # noqa: E402
from bench.live import (  # noqa: E402
    Person,
    Results,
    Window,
    create_bot_tables,
    flush_redis,
    fresh_postgres,
    percentile,
    setup_django,
)
from tests.donations.fake_stripe import SECRET_KEY, WEBHOOK_SECRET, FakeStripe  # noqa: E402
from tests.servers import manage, server_env, start_server  # noqa: E402

CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
ATTEMPT_FIELD = re.compile(r'name="attempt" value="([^"]+)"')
PLAY_FORM = {"players": "4", "layout": "2v2", "bot_1": "expert", "bot_2": "expert"}
PLAY_FORM["bot_3"] = "expert"
SOCKETS_AT_ONCE = 100
PROBE_ADDRESS = "127.0.0.2"
FLOODS = (
    "tables",
    "sockets",
    "checkouts",
    "slow",
    "heads",
    "bodies",
    "spooled",
    "logins",
    "codes",
)
BOT_PACE_S = 0.9


class Visitor:
    """A browser: one cookie jar, so one session (and one guest) however many requests."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def get(self, path: str) -> str:
        """The page, once the server lets this address connect again (after a flood, its
        new connections are paced: smearsite.server.serve)."""
        for _ in range(30):
            try:
                with self.opener.open(self.base + path, timeout=30) as response:
                    return response.read().decode()
            except urllib.error.HTTPError as error:
                if error.code != 429:
                    raise
                time.sleep(float(error.headers.get("Retry-After", 1)))
        raise RuntimeError(f"{path} answered 429 for 30 tries")

    def post(self, path: str, fields: dict[str, str]) -> int:
        data = urllib.parse.urlencode(fields).encode()
        request = urllib.request.Request(
            self.base + path, data=data, headers={"Referer": self.base + path}
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.jar if c.name == name), "")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a 302/303 is the answer counted, not followed


class Probe:
    """``GET /`` every 100 ms from a process of its own: the latency a newcomer sees. (A
    thread in this process would wait for the flood's own clients here, which hold this
    interpreter's lock for most of the time, and time them as the server's delay.)"""

    def __init__(self, base: str) -> None:
        self.base, self.times, self.failures = base, [], 0
        context = multiprocessing.get_context("spawn")
        self._stop, self._ready = context.Event(), context.Event()
        self._results, sending = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_probe_loop, args=(base, self._stop, self._ready, sending), daemon=True
        )

    def __enter__(self) -> Probe:
        """Once the probe has asked once: a flood refused at the door can end in a fraction
        of a second, sooner than a new process starts."""
        self._process.start()
        if not self._ready.wait(60):
            raise RuntimeError("the probe did not start")
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self.times, self.failures = self._results.recv()
        self._process.join()

    def line(self) -> str:
        ms = [t * 1000 for t in self.times]
        return (
            f"GET / p50 {percentile(ms, 0.5):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms "
            f"({len(ms)} probes, {self.failures} failed)"
        )


def _probe_loop(base: str, stop, ready, results) -> None:
    times, failures = [], 0
    address = urllib.parse.urlsplit(base)
    _newcomer_get(address.hostname, address.port)  # a warm-up, not timed
    ready.set()
    while not stop.is_set():
        began = time.monotonic()
        try:
            _newcomer_get(address.hostname, address.port)
        except OSError:
            failures += 1
        else:
            times.append(time.monotonic() - began)
        stop.wait(max(0.0, 0.1 - (time.monotonic() - began)))
    results.send((times, failures))


def _newcomer_get(host: str, port: int) -> None:
    """``GET /`` on a new connection from another address than the flood's (127.0.0.1): a
    newcomer is someone else, whom the server paces apart from the flood
    (smearsite.server.serve)."""
    connection = http.client.HTTPConnection(
        host, port, timeout=10, source_address=(PROBE_ADDRESS, 0)
    )
    try:
        connection.request("GET", "/")
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise OSError(f"GET / answered {response.status}")
    finally:
        connection.close()


def lateness_line(results: Results, since: int) -> str:
    late = [t * 1000 for t in results.bot_lateness[since:]]
    if not late:
        return "normal person's bots: no bot move reached them"
    return (
        f"normal person's bots: {len(late)} moves, lateness p50 {percentile(late, 0.5):.0f} ms, "
        f"p95 {percentile(late, 0.95):.0f} ms, max {max(late):.0f} ms"
    )


def tables_held(session_key: str) -> tuple[int, int]:
    """(tables in play, all tables) where the flooding guest sits."""
    from django.contrib.sessions.backends.db import SessionStore

    from game.models import Table
    from game.players.identity import GUEST_TOKEN

    token = SessionStore(session_key=session_key).get(GUEST_TOKEN)
    mine = Table.objects.filter(seats__session_key=token).distinct()
    return mine.filter(status=Table.Status.PLAYING).count(), mine.count()


def flood_tables(visitor: Visitor, count: int, concurrency: int) -> dict:
    token = CSRF_FIELD.search(visitor.get("/play/"))[1]
    fields = {**PLAY_FORM, "csrfmiddlewaretoken": token}
    answers = [visitor.post("/play/", fields)]  # the first makes the guest (and the session)
    with ThreadPoolExecutor(concurrency) as pool:
        answers += pool.map(lambda _: visitor.post("/play/", fields), range(count - 1))
    playing, total = tables_held(visitor.cookie("sessionid"))
    return {"answers": answers, "playing": playing, "total": total}


async def flood_sockets(base: str, code: str, session: str, attempts: int) -> dict:
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    held, refused, paced, failed = [], 0, 0, 0
    gate = asyncio.Semaphore(SOCKETS_AT_ONCE)

    async def attempt() -> None:
        nonlocal refused, paced, failed
        async with gate:
            try:
                socket = await connect(
                    "ws" + base.removeprefix("http") + f"/ws/table/{code}/",
                    origin=base,
                    additional_headers={"Cookie": f"sessionid={session}"},
                    open_timeout=30,
                    ping_interval=None,
                )
            except InvalidStatus as error:
                if error.response.status_code != 429:
                    raise
                paced += 1
                return
            except Exception:
                failed += 1
                return
            try:
                first = await asyncio.wait_for(socket.recv(), timeout=30)
            except Exception:
                first = ""
            if '<section id="table"' in first:
                held.append(socket)  # counted at the end if the server kept it open
                return
            refused += 1
            await socket.close()

    await asyncio.gather(*(attempt() for _ in range(attempts)))
    still_open = sum(1 for socket in held if socket.state.name == "OPEN")
    for socket in held:
        await socket.close()
    return {"held": still_open, "refused": refused, "paced": paced, "failed": failed}


def flood_checkouts(visitor: Visitor, fake: FakeStripe, count: int, concurrency: int) -> dict:
    from donations.models import Donation

    page = visitor.get("/donate/")
    token = CSRF_FIELD.search(page)[1]

    def post(n: int) -> int:
        fields = {"amount": "10", "attempt": uuid.uuid4().hex, "csrfmiddlewaretoken": token}
        return visitor.post("/donate/", fields)

    answers = [post(0)]  # the first makes the session: one visitor, one session
    with ThreadPoolExecutor(concurrency) as pool:
        answers += pool.map(post, range(1, count))
    return {
        "answers": answers,
        "sessions": len(fake.session_creations),
        "pending": Donation.objects.filter(status="pending").count(),
    }


def machine_load() -> str:
    return "load average " + " ".join(f"{v:.1f}" for v in os.getloadavg())


async def main_async(args: argparse.Namespace, base: str, fake: FakeStripe, server) -> None:
    from websockets.asyncio.client import connect

    [(code, [session])] = await asyncio.to_thread(create_bot_tables, 1, 21)
    window, results = Window(), Results()
    window.going, window.start = True, time.monotonic()
    person = Person(code, random.Random(1), (1.0, 3.0), bot_pace=BOT_PACE_S)
    socket = await connect(
        "ws" + base.removeprefix("http") + f"/ws/table/{code}/",
        origin=base,
        additional_headers={"Cookie": f"sessionid={session}"},
        ping_interval=None,
    )
    person.changed_at = time.monotonic()
    playing = asyncio.create_task(person.play(socket, window, results))
    await asyncio.sleep(5)  # the normal table settles into play
    print(f"quiet: {lateness_line(results, 0)}")

    flooder = Visitor(base)
    if "tables" in args.only:
        since = len(results.bot_lateness)
        with Probe(base) as probe:
            began = time.monotonic()
            tables = await asyncio.to_thread(flood_tables, flooder, args.tables, args.concurrency)
            took = time.monotonic() - began
        print(
            f"\ntables: {args.tables} posts of 'Play bots now' in {took:.1f} s by one guest: "
            f"{tables['playing']} in play, {tables['total']} made "
            f"(answers {sorted(set(tables['answers']))}); {machine_load()}"
        )
        print(f"  {probe.line()}\n  {lateness_line(results, since)}")
        since = len(results.bot_lateness)
        with Probe(base) as probe:
            await asyncio.sleep(args.aftermath)  # the flood's tables' bots play on, or not
        print(
            f"  the {args.aftermath:g} s after: {probe.line()}\n  {lateness_line(results, since)}"
        )

    if "sockets" in args.only:
        from game.models import Table

        target = await asyncio.to_thread(
            lambda: (
                Table.objects.filter(status=Table.Status.PLAYING, code__gt="")
                .exclude(code=code)
                .values_list("code", flat=True)
                .first()
            )
        )
        if target is None:
            [(target, _)] = await asyncio.to_thread(create_bot_tables, 1, 21)
        if not flooder.cookie("sessionid"):
            flooder.get("/play/")
        since = len(results.bot_lateness)
        with Probe(base) as probe:
            began = time.monotonic()
            sockets = await flood_sockets(base, target, flooder.cookie("sessionid"), args.sockets)
            took = time.monotonic() - began
        print(
            f"\nsockets: {args.sockets} attempts at one table by that guest in {took:.1f} s: "
            f"{sockets['held']} held, {sockets['refused']} refused in words, "
            f"{sockets['paced']} answered 429 as they connected (too many new connections), "
            f"{sockets['failed']} failed to connect; {machine_load()}"
        )
        print(f"  {probe.line()}\n  {lateness_line(results, since)}")

    if "checkouts" in args.only:
        since = len(results.bot_lateness)
        with Probe(base) as probe:
            began = time.monotonic()
            checkouts = await asyncio.to_thread(
                flood_checkouts, Visitor(base), fake, args.checkouts, args.concurrency
            )
            took = time.monotonic() - began
        counts = statistics.multimode(checkouts["answers"])
        print(
            f"\ncheckouts: {args.checkouts} donate posts by one visitor in {took:.1f} s: "
            f"{checkouts['sessions']} Checkout Sessions created, {checkouts['pending']} pending "
            f"donations (answers: {sorted(set(checkouts['answers']))}, most {counts}); "
            f"{machine_load()}"
        )
        print(f"  {probe.line()}\n  {lateness_line(results, since)}")

    await connection_floods(args, base, server, results)
    window.stopping = True
    await socket.close()
    await playing
    print(
        f"\nnormal person: {len(results.round_trips)} own moves, round trip p50 "
        f"{percentile([t * 1000 for t in results.round_trips], 0.5):.0f} ms; "
        f"errors {dict(results.errors) or 'none'}"
    )


OWNER, GUESSER, PASSWORD = "owner", "guesser", "prairie-owner-passphrase-38"


def make_accounts() -> None:
    from django.contrib.auth import get_user_model

    for name in (OWNER, GUESSER):
        get_user_model().objects.create_user(name, password=PASSWORD)


async def connection_floods(args, base: str, server, results: Results) -> None:
    host, port = "127.0.0.1", server.port
    watch_tmp = Path(server.env_tmp)

    async def run(name: str, flood):
        since = len(results.bot_lateness)
        watch = floods.ServerWatch(server.process.pid, watch_tmp)
        with Probe(base) as probe:
            began = time.monotonic()
            outcome = await floods.watched(watch, flood)
            took = time.monotonic() - began
        return (
            outcome,
            took,
            f"  {watch.line()}\n  {probe.line()}\n  " + lateness_line(results, since),
        )

    if "slow" in args.only:
        outcome, took, lines = await run(
            "slow",
            floods.slow_heads(
                host,
                port,
                connections=args.slow_connections,
                addresses=args.slow_addresses,
                seconds=args.slow_seconds,
            ),
        )
        cut = outcome["cut"]
        cut_line = (
            f"cut off after p50 {percentile(cut, 0.5):.1f} s, max {max(cut):.1f} s"
            if cut
            else "none cut off"
        )
        print(
            f"\nslow heads: {args.slow_connections} connections from {args.slow_addresses} "
            f"addresses, a header line a second for up to {args.slow_seconds:g} s "
            f"({took:.0f} s): {outcome['refused']} answered 429 at the door, {len(cut)} "
            f"{cut_line}, {outcome['held']} still open at the end "
            f"(answers {outcome['answers']}); {machine_load()}\n{lines}"
        )
    if "heads" in args.only:
        outcome, took, lines = await run(
            "heads",
            asyncio.to_thread(
                floods.big_heads, host, port, connections=args.big_heads, megabytes=args.head_mb
            ),
        )
        print(
            f"\nbig heads: {args.big_heads} connections, a head of {args.head_mb} MB each "
            f"({took:.1f} s): answers {outcome}; {machine_load()}\n{lines}"
        )
    if "bodies" in args.only:
        outcome, took, lines = await run(
            "bodies",
            asyncio.to_thread(
                floods.big_bodies, host, port, connections=args.big_bodies, megabytes=args.body_mb
            ),
        )
        print(
            f"\nbig bodies: {args.big_bodies} posts declaring 2 GiB, up to {args.body_mb} MB "
            f"sent each ({took:.1f} s): answers {outcome}; {machine_load()}\n{lines}"
        )
    if "spooled" in args.only:
        for chunk_bytes in args.spooled_bytes:
            outcome, took, lines = await run(
                "spooled",
                floods.spooled_bodies(
                    host,
                    port,
                    connections=args.spooled,
                    addresses=args.spooled_addresses,
                    chunk_bytes=chunk_bytes,
                    seconds=args.spooled_seconds,
                    path=args.spooled_path,
                ),
            )
            print(
                f"\nspooled bodies: {args.spooled} connections from {args.spooled_addresses} "
                f"addresses to {args.spooled_path}, each one chunk of {chunk_bytes:,} bytes "
                "and no last chunk, "
                f"waiting up to {args.spooled_seconds:g} s ({took:.1f} s): answers "
                f"{outcome['answers']}, {outcome['held']} held unanswered, "
                f"{outcome['failed']} failed to connect; {machine_load()}\n{lines}"
            )
    if "logins" in args.only:
        outcome, took, lines = await run(
            "logins",
            asyncio.to_thread(
                floods.login_flood,
                host,
                port,
                username=OWNER,
                password=PASSWORD,
                tries=args.logins,
            ),
        )
        print(
            f"\nlog-ins: {args.logins} wrong passwords for one account from one address "
            f"({took:.1f} s): answers {outcome['answers']}; then the owner from another "
            f"address logged in: {'yes' if outcome['owner_in'] else 'NO'}; the flooder with "
            f"the right password: {'yes' if outcome['flooder_in'] else 'no'}; "
            f"{machine_load()}\n{lines}"
        )
    if "codes" in args.only:
        outcome, took, lines = await run(
            "codes",
            asyncio.to_thread(
                floods.code_guesses,
                host,
                port,
                lookups=args.guesses,
                joins=args.joins,
                username=GUESSER,
                password=PASSWORD,
            ),
        )
        print(
            f"\ncodes: {args.guesses} table pages and {args.joins} sheet joins by random codes "
            f"from one address ({took:.1f} s): pages {outcome['pages']}, joins "
            f"{outcome['joins']}, found {outcome['hits']}; {machine_load()}\n{lines}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8200)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--sockets", type=int, default=3000)
    parser.add_argument("--checkouts", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=8, help="HTTP requests at once")
    parser.add_argument(
        "--aftermath", type=float, default=20.0, help="seconds watched after the tables flood"
    )
    parser.add_argument("--keep", action="store_true", help="keep the server log and database")
    parser.add_argument("--only", default=",".join(FLOODS), help="the floods to run")
    parser.add_argument("--code", type=Path, help="serve this checkout of the site instead")
    parser.add_argument("--slow-connections", type=int, default=2000)
    parser.add_argument("--slow-addresses", type=int, default=100)
    parser.add_argument("--slow-seconds", type=float, default=25.0)
    parser.add_argument(
        "--server-files",
        type=int,
        help="lower the server's limit of open files to this (prlimit) once it has started",
    )
    parser.add_argument("--big-heads", type=int, default=8)
    parser.add_argument("--head-mb", type=int, default=16)
    parser.add_argument("--big-bodies", type=int, default=4)
    parser.add_argument("--body-mb", type=int, default=256)
    parser.add_argument("--spooled", type=int, default=300)
    parser.add_argument("--spooled-addresses", type=int, default=10)
    parser.add_argument(
        "--spooled-bytes",
        type=lambda text: [int(size) for size in text.split(",")],
        default=[1_000_000, 60_000],
        help="each connection's one chunk, in bytes; several (a,b) run one after another",
    )
    parser.add_argument("--spooled-seconds", type=float, default=15.0)
    parser.add_argument("--spooled-path", default="/donate/", help="where the bodies go")
    parser.add_argument("--logins", type=int, default=100)
    parser.add_argument("--guesses", type=int, default=300)
    parser.add_argument("--joins", type=int, default=100)
    parser.add_argument("--postgres", metavar="NAME", help="a PostgreSQL database, made anew")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/4", help="with --postgres")
    args = parser.parse_args()
    args.only = set(args.only.split(","))
    if args.only - set(FLOODS):
        parser.error(f"--only: choose among {', '.join(FLOODS)}")
    root = args.code.resolve() if args.code else ROOT
    folder = Path(tempfile.mkdtemp(prefix="smear-bench-abuse-"))
    (folder / "tmp").mkdir()
    database, redis_url = f"sqlite:///{folder / 'abuse.sqlite3'}", None
    if args.postgres:
        database, redis_url = fresh_postgres(args.postgres), args.redis_url
        flush_redis(redis_url)
    with FakeStripe() as fake:
        env = server_env(
            DJANGO_SETTINGS_MODULE="smearsite.settings",
            DATABASE_URL=database,
            REDIS_URL=redis_url,
            DEBUG="false",
            SECRET_KEY=secrets.token_urlsafe(50),
            ALLOWED_HOSTS="127.0.0.1,localhost",
            SITE_URL=f"http://127.0.0.1:{args.port}",
            SMEAR_BOT_PACE_MS=f"{BOT_PACE_S * 1000:g}",
            SMEAR_BOT_PROCESSES="1",
            STRIPE_SECRET_KEY=SECRET_KEY,
            STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET,
            STRIPE_API_BASE=fake.url,
            # the server's temporary files, measured by the floods
            TMPDIR=str(folder / "tmp"),
        )
        manage(["migrate", "--noinput"], env=env, cwd=root)
        manage(["collectstatic", "--noinput", "-v0"], env=env, cwd=root)
        setup_django(
            env, names=("DATABASE_URL", "SECRET_KEY", "DEBUG", "STRIPE_API_BASE", "REDIS_URL")
        )
        make_accounts()
        server = start_server(env=env, log=folder / "server.log", port=args.port, cwd=root)
        server.env_tmp = str(folder / "tmp")
        if args.server_files:
            _, hard = resource.prlimit(server.process.pid, resource.RLIMIT_NOFILE)
            resource.prlimit(server.process.pid, resource.RLIMIT_NOFILE, (args.server_files, hard))
        try:
            stores = "PostgreSQL + Redis" if args.postgres else "SQLite file"
            files = resource.prlimit(server.process.pid, resource.RLIMIT_NOFILE)[0]
            print(
                f"server {server.url} ({stores}, 1 bot worker, code at {root}, "
                f"{files} open files at most); {machine_load()}"
            )
            asyncio.run(main_async(args, server.url, fake, server))
        finally:
            server.stop()
            if args.keep:
                print(f"kept {folder}")
            else:
                shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
