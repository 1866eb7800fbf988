import copy
import os
import time
import uuid
from types import SimpleNamespace

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import override_settings
from hypothesis import settings as hypothesis_settings

from game.live import bot_runner
from smearsite.kernel import ratelimit

# Speed is measured in bench/, not here: a busy machine must not fail a property test on
# hypothesis's clock (its default 200 ms deadline per example).
hypothesis_settings.register_profile("smear", deadline=None)
hypothesis_settings.load_profile("smear")


@pytest.fixture(scope="session", autouse=True)
def _channel_groups_of_this_worker():
    """Under pytest-xdist each worker has a test database of its own, so two workers make
    tables with the same ids: on a shared Redis their groups would meet. Each worker's
    groups get a prefix of their own."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    layers = copy.deepcopy(django_settings.CHANNEL_LAYERS)
    config = layers["default"].get("CONFIG", {})
    if not worker or "prefix" not in config:
        yield
        return
    config["prefix"] += f"{worker}:"
    with override_settings(CHANNEL_LAYERS=layers):
        yield


@pytest.fixture
def isolated_cache(settings):
    """A cache namespace of the test's own.

    The log-in rate limits count in the cache; without this, failed log-ins of one test
    (or of an earlier run sharing Redis) would lock out the next test's user.
    """
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches


@pytest.fixture(autouse=True)
def _rate_limits_of_its_own(isolated_cache, monkeypatch):
    """Every test counts its own requests: the site's rate limits (tables started,
    checkouts, log-ins) count per address, and every test client is 127.0.0.1.

    The limits count in fixed windows of a minute; the clock they read stands still, so a
    test's requests never straddle two windows (on a slow machine they did, and twelve
    starts all passed a limit of ten)."""
    started = time.time()
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: started))


@pytest.fixture
def fast_password_hashing(settings):
    """A cheap hasher: these tests are about the flows, not the hashing cost."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# the expert thinks briefly in tests: the moves are under test, not their strength
TEST_BOT_OPTIONS = {"expert": {"budget_ms": 75.0, "max_deals": 16}}


@pytest.fixture(autouse=True)
def bots(settings):
    """The production bots' timetable, driven synchronously: a change stored with a bot to
    act next is answered by the bots inside the request (or socket message) that stored it,
    once its transaction commits, without the pace. A person's turn is never played for
    them unless a test asks for it (tests of game.live.bot_runner build runners of their own)."""
    runner = bot_runner.Runner(
        pace_s=0,
        away_after_s=settings.SMEAR_AWAY_AFTER_S,
        think=None,
        bot_options=TEST_BOT_OPTIONS,
        synchronous=True,
    )
    previous = bot_runner.use(runner)
    yield runner
    bot_runner.use(previous)


class _NobodyListening:
    def heard(self, event) -> None:
        pass


@pytest.fixture
def quiet_timetable():
    """No timetable hears the site's changes: a test of game.live.bot_runner drives its own
    runners, and nothing else moves the bots meanwhile."""
    previous = bot_runner.use(_NobodyListening())
    yield
    bot_runner.use(previous)


def _forget_this_threads_connections() -> None:
    for alias in connections:
        connections[alias].close()  # an in-memory SQLite test database ignores this
        del connections[alias]


@pytest.fixture
async def release_sync_thread_connections():
    """For websocket tests: database_sync_to_async runs in one thread shared by every async
    test, and a connection left open there would be touched by later tests that have no
    database access."""
    yield
    await sync_to_async(_forget_this_threads_connections)()


@pytest.fixture
def make_user(db, fast_password_hashing):
    """A factory of users with a throwaway password, by username."""

    def make(username: str):
        return get_user_model().objects.create_user(username=username, password="not-used-123")

    return make
