"""The raw-socket floods of issue 38 for bench/abuse.py: what one connection may cost the
server (slow heads, big heads, big bodies), the bodies of issue 49 held under the limit
(spooled bodies), and the floods of log-ins and code guesses.

Each runs against 127.0.0.1 only, bounded in count and time, and returns counts; the
caller prints them beside what the server process held (``ServerWatch``).
"""

from __future__ import annotations

import asyncio
import http.client
import os
import random
import re
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def loopback(n: int) -> str:
    """The n-th of many loopback addresses (127.0.10.1 on): each a visitor of its own."""
    return f"127.0.{10 + n // 250}.{1 + n % 250}"


@dataclass
class ServerWatch:
    """The server process's open files and memory, and its temporary folder's size,
    sampled every 0.2 s while the block runs (peak) and at its end."""

    pid: int
    tmp: Path
    fds: list[int] = field(default_factory=list)
    rss_mb: list[float] = field(default_factory=list)
    tmp_mb: list[float] = field(default_factory=list)

    def sample(self) -> None:
        try:
            self.fds.append(len(os.listdir(f"/proc/{self.pid}/fd")))
            status = Path(f"/proc/{self.pid}/status").read_text()
            self.rss_mb.append(int(re.search(r"VmRSS:\s+(\d+)", status)[1]) / 1024)
        except OSError:
            return
        # a spooled upload is unlinked as it is made: count the files the server holds open
        size = 0
        folder = str(self.tmp)
        for fd in os.listdir(f"/proc/{self.pid}/fd"):
            try:
                if os.readlink(f"/proc/{self.pid}/fd/{fd}").startswith(folder):
                    size += os.stat(f"/proc/{self.pid}/fd/{fd}").st_size
            except OSError:
                pass
        self.tmp_mb.append(size / 2**20)

    async def watch(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await asyncio.to_thread(self.sample)
            try:
                await asyncio.wait_for(stop.wait(), 0.2)
            except TimeoutError:
                pass
        await asyncio.to_thread(self.sample)

    def line(self) -> str:
        if not self.fds:
            return "server: not sampled"
        return (
            f"server held: open files peak {max(self.fds)}, at the end {self.fds[-1]}; "
            f"memory peak {max(self.rss_mb):.0f} MB, at the end {self.rss_mb[-1]:.0f} MB; "
            f"temporary files peak {max(self.tmp_mb):.1f} MB, at the end {self.tmp_mb[-1]:.1f} MB"
        )


async def watched(watch: ServerWatch, flood):
    stop = asyncio.Event()
    watcher = asyncio.create_task(watch.watch(stop))
    try:
        return await flood
    finally:
        stop.set()
        await watcher


def status_of(answer: bytes) -> int | None:
    match = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
    return int(match[1]) if match else None


async def slow_heads(host: str, port: int, *, connections: int, addresses: int, seconds: float):
    """``connections`` connections from ``addresses`` addresses, each sending a request
    head a line a second and never finishing it, for ``seconds``: how many the server
    refused at the door, cut off (and after how long), and still held at the end."""
    outcome = {"refused": 0, "cut": [], "held": 0, "failed": 0, "answers": {}}
    opening = asyncio.Semaphore(200)

    async def one(n: int) -> None:
        began = time.monotonic()
        try:
            async with opening:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection(host, port, local_addr=(loopback(n % addresses), 0)),
                    10,
                )
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            while time.monotonic() - began < seconds:
                try:
                    data = await asyncio.wait_for(reader.read(4096), 1.0)
                except TimeoutError:
                    writer.write(b"X-Slow: 1\r\n")
                    await writer.drain()
                    continue
                code = status_of(data)
                outcome["answers"][code] = outcome["answers"].get(code, 0) + 1
                if code == 429:
                    outcome["refused"] += 1
                else:
                    outcome["cut"].append(time.monotonic() - began)
                break
            else:
                outcome["held"] += 1
            writer.close()
        except (OSError, TimeoutError):
            if time.monotonic() - began >= seconds:
                outcome["held"] += 1
            else:
                outcome["cut"].append(time.monotonic() - began)

    await asyncio.gather(*(one(n) for n in range(connections)))
    return outcome


def _exchange(host: str, port: int, source: str, parts, *, read_timeout: float = 30) -> int | None:
    """Send ``parts`` (stopping when the server closes), then read its answer's status."""
    import socket

    with socket.create_connection((host, port), timeout=30, source_address=(source, 0)) as s:
        try:
            for part in parts:
                s.sendall(part)
        except OSError:
            pass
        s.settimeout(read_timeout)
        answer = b""
        try:
            while len(answer) < 64 and (chunk := s.recv(4096)):
                answer += chunk
        except OSError:
            pass
        return status_of(answer)


def big_heads(host: str, port: int, *, connections: int, megabytes: int) -> dict:
    """Each connection sends a head of ``megabytes`` MB in 8 KiB lines, or until cut off."""

    def parts():
        yield b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        line = b"X-Big: " + b"a" * 8180 + b"\r\n"
        for _ in range(megabytes * 128):
            yield line
        yield b"\r\n"

    answers: dict = {}
    for n in range(connections):
        code = _exchange(host, port, loopback(1000 + n), parts())
        answers[code] = answers.get(code, 0) + 1
    return answers


def big_bodies(host: str, port: int, *, connections: int, megabytes: int) -> dict:
    """Each connection posts a body declared as 2 GiB, sending ``megabytes`` MB of it at
    most, or until the server answers or closes."""

    def parts():
        yield (
            b"POST /donate/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2147483648\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n\r\n"
        )
        chunk = b"a" * 2**20
        for _ in range(megabytes):
            yield chunk

    answers: dict = {}
    for n in range(connections):
        code = _exchange(host, port, loopback(2000 + n), parts(), read_timeout=5)
        answers[code] = answers.get(code, 0) + 1
    return answers


async def spooled_bodies(
    host: str,
    port: int,
    *,
    connections: int,
    addresses: int,
    chunk_bytes: int,
    seconds: float,
    path: str = "/donate/",
) -> dict:
    """``connections`` connections from ``addresses`` addresses, each posting a chunked
    body of one ``chunk_bytes`` chunk and no last chunk, then waiting ``seconds`` for an
    answer: the answers (a refusal, or the body timeout's 408), and how many were still
    held, unanswered, at the end. A body under the server's limit is held to its body
    timeout; what it holds meanwhile (a temporary file, or memory) is the caller's
    ``ServerWatch``'s to see."""
    outcome: dict = {"answers": {}, "held": 0, "failed": 0}
    opening = asyncio.Semaphore(100)
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding: chunked\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n\r\n"
    ).encode()
    chunk = b"%x\r\n" % chunk_bytes + b"a" * chunk_bytes + b"\r\n"

    async def one(n: int) -> None:
        began = time.monotonic()
        try:
            async with opening:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection(
                        host, port, local_addr=(loopback(3000 + n % addresses), 0)
                    ),
                    10,
                )
                writer.write(head + chunk)  # and never the last chunk
                try:
                    await asyncio.wait_for(writer.drain(), 10)
                except (OSError, TimeoutError):
                    pass  # refused midway: its answer is read below
        except (OSError, TimeoutError):
            outcome["failed"] += 1
            return
        try:
            left = max(0.1, seconds - (time.monotonic() - began))
            data = await asyncio.wait_for(reader.read(64), left)
            code = status_of(data) if data else "closed"
            outcome["answers"][code] = outcome["answers"].get(code, 0) + 1
        except TimeoutError:
            outcome["held"] += 1
        except OSError:
            outcome["answers"]["reset"] = outcome["answers"].get("reset", 0) + 1
        finally:
            writer.close()

    await asyncio.gather(*(one(n) for n in range(connections)))
    return outcome


class Browser:
    """A cookie-keeping client from one source address (http.client: urllib cannot
    choose the address it connects from), on one kept-alive connection as a browser (or
    a guesser who knows the connection pace) would."""

    def __init__(self, host: str, port: int, source: str) -> None:
        self.host, self.port, self.source = host, port, source
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, fields: dict | None = None):
        for attempt in range(2):
            try:
                return self._request(method, path, fields)
            except (OSError, http.client.HTTPException):
                self.connection = None  # closed by the server meanwhile: once more anew
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def _request(self, method: str, path: str, fields: dict | None):
        if self.connection is None:
            self.connection = http.client.HTTPConnection(
                self.host, self.port, timeout=30, source_address=(self.source, 0)
            )
        connection = self.connection
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if fields is not None:
            body = urllib.parse.urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"http://{self.host}:{self.port}{path}"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode(errors="replace")
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        if response.will_close:
            self.connection = None
        return response.status, text

    def form(self, path: str, fields: dict) -> tuple[int, str]:
        status, page = self.request("GET", path)
        token = CSRF_FIELD.search(page)
        if token is None:
            return status, page
        return self.request("POST", path, {**fields, "csrfmiddlewaretoken": token[1]})

    def log_in(self, username: str, password: str) -> bool:
        self.form("/accounts/login/", {"login": username, "password": password})
        status, page = self.request("GET", "/accounts/profile/")
        return status == 200 and "Log out" in page


def login_flood(host: str, port: int, *, username: str, password: str, tries: int) -> dict:
    """``tries`` wrong passwords for ``username`` from one address, then the owner's
    right one from another address, and the flooder's own right one."""
    flooder = Browser(host, port, "127.0.0.1")
    answers: dict = {}
    for n in range(tries):
        status, _ = flooder.form("/accounts/login/", {"login": username, "password": f"g{n}"})
        answers[status] = answers.get(status, 0) + 1
    owner_in = Browser(host, port, "127.0.0.3").log_in(username, password)
    flooder_in = Browser(host, port, "127.0.0.1").log_in(username, password)
    return {"answers": answers, "owner_in": owner_in, "flooder_in": flooder_in}


def code_guesses(
    host: str, port: int, *, lookups: int, joins: int, username: str, password: str
) -> dict:
    """``lookups`` table pages by random codes and ``joins`` sheet joins by random codes,
    from one address (not the log-in flood's): the answers, and how many found anything."""
    alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
    rng = random.Random(38)
    guesser = Browser(host, port, "127.0.0.4")
    pages: dict = {}
    for _ in range(lookups):
        code = "".join(rng.choice(alphabet) for _ in range(6))
        status, _ = guesser.request("GET", f"/table/{code}/")
        pages[status] = pages.get(status, 0) + 1
    member = Browser(host, port, "127.0.0.4")
    if not member.log_in(username, password):
        raise RuntimeError("the guesser could not log in")
    sheets: dict = {}
    hits = 0
    for _ in range(joins):
        code = "".join(rng.choice(alphabet) for _ in range(6))
        status, page = member.form("/sheets/join/", {"code": code})
        label = 429 if status == 429 else ("found" if status == 302 else "no such sheet")
        hits += status == 302
        sheets[label] = sheets.get(label, 0) + 1
    return {"pages": pages, "joins": sheets, "hits": hits + pages.get(200, 0)}
