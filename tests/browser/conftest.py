"""Real-browser tests: Playwright driving Debian's chromium against pytest-django's live server.

Run them on their own (``pytest -m browser``, as ``make test`` does): the sync
Playwright API keeps an event loop running, which the asyncio tests must not share.
Playwright never downloads a browser here; a missing chromium fails under CI=true and
skips otherwise.
"""

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from tests.servers import manage, server_env

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",  # we run as root in CI
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="session")
def browser() -> Browser:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} not found (apt-get install chromium)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    # The sync API runs an event loop in this thread for the whole session, and Django
    # refuses database work in a thread with a running loop unless told it is safe:
    # the test code here is plain synchronous code.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
            )
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(autouse=True)
def _site_for_browsers(request, isolated_cache, fast_password_hashing):
    """Every browser test: its own rate-limit counts, cheap password hashing, and its pages
    closed at its end. A page left open keeps polling (a table every 3 s while its socket
    is down) for codes the next test's database no longer holds, and those misses count
    against 127.0.0.1 in the next test's code guard."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


def watch_csp(page: Page) -> Page:
    """Record on ``page.csp_violations`` every Content-Security-Policy refusal the browser
    reports (an inline script or style, an eval, a source from elsewhere)."""
    page.csp_violations = []
    page.on(
        "console",
        lambda message: (
            page.csp_violations.append(message.text)
            if "Content Security Policy" in message.text
            else None
        ),
    )
    return page


def assert_no_csp_violations(page: Page) -> None:
    assert not page.csp_violations, "\n".join(page.csp_violations)


def _page(browser: Browser, live_server, viewport: dict) -> Page:
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    page = watch_csp(context.new_page())
    page.set_default_timeout(10_000)
    return page


@pytest.fixture
def page(browser, live_server):
    page = _page(browser, live_server, DESKTOP)
    yield page
    page.context.close()
    assert_no_csp_violations(page)


@pytest.fixture
def phone(browser, live_server):
    page = _page(browser, live_server, PHONE)
    yield page
    page.context.close()
    assert_no_csp_violations(page)


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


# --- Against a real server (websockets): tests.servers starts it ---------------------------


def served_env(database, **extra: str | None) -> dict[str, str]:
    """The environment of a server serving the site from a SQLite file of its own, migrated,
    with bots at a quick pace thinking in a thread. Its new connections are not paced: the
    browsers of every player of every test come from 127.0.0.1, each with an empty cache
    (tests/smearsite/server/test_serve.py tests the pace)."""
    env = server_env(
        DATABASE_URL=f"sqlite:///{database}",
        REDIS_URL=None,
        SMEAR_BOT_PACE_MS="150",
        SMEAR_BOT_PROCESSES="0",
        SMEAR_CONNECTIONS_PER_SECOND_PER_ADDRESS="0",
        DJANGO_SETTINGS_MODULE="smearsite.settings",
        **extra,
    )
    manage(["migrate", "--noinput"], env=env)
    return env


def phone_at(browser: Browser, url: str) -> Page:
    """A phone-sized page on ``url`` (a server this test started, not the live server)."""
    context = browser.new_context(viewport=PHONE, base_url=url)
    page = watch_csp(context.new_page())
    page.set_default_timeout(15_000)
    return page


WIDE = {"width": 1366, "height": 900}


def watch(page: Page) -> list[str]:
    """What goes wrong on ``page`` from now on: console errors, uncaught script errors and
    every response of 400 or more, as lines to assert empty."""
    problems: list[str] = []
    page.on(
        "console",
        lambda message: (
            problems.append(f"console: {message.text}") if message.type == "error" else None
        ),
    )
    page.on("pageerror", lambda error: problems.append(f"script: {error}"))
    page.on(
        "response",
        lambda response: (
            problems.append(f"{response.status}: {response.url}")
            if response.status >= 400
            else None
        ),
    )
    return problems
