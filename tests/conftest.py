import copy
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.db import connections


@pytest.fixture
def isolated_cache(settings):
    """A cache namespace of the test's own.

    The log-in rate limits count in the cache; without this, failed log-ins of one test
    (or of an earlier run sharing Redis) would lock out the next test's user.
    """
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches


@pytest.fixture
def fast_password_hashing(settings):
    """A cheap hasher: these tests are about the flows, not the hashing cost."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _bots_move_inline(settings):
    """Bots move inside the request that woke them: tests see the table settle at once,
    without the background timetable (tests of game.bot_runner drive it themselves)."""
    settings.SMEAR_BOTS_INLINE = True


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
