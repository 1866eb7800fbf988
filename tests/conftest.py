import copy
import uuid

import pytest


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
