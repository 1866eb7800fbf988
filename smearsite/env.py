"""Turn environment variables into Django settings values.

Every function takes the environment as a plain mapping so that tests can pass a
fake dict instead of patching ``os.environ``. ``settings.py`` calls them with
``os.environ``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

DEV_SECRET_KEY = "django-insecure-dev-only-never-use-in-production"

DEFAULT_ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]
DEFAULT_SITE_URL = "http://127.0.0.1:8000"

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_bool(environ: Mapping[str, str], name: str, default: bool) -> bool:
    """Read a yes/no variable; an unrecognised value is an error, not a silent default."""
    raw = environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r}: expected one of {sorted(_TRUE | _FALSE)}")


def env_list(environ: Mapping[str, str], name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list; blank items are dropped."""
    raw = environ.get(name, "").strip()
    if not raw:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


# Django's own bar for a production key (check --deploy, security.W009)
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_UNIQUE_CHARACTERS = 5
INSECURE_PREFIX = "django-insecure-"


def secret_key(environ: Mapping[str, str], *, debug: bool) -> str:
    """SECRET_KEY from the environment; the insecure fallback exists only for DEBUG, and
    with DEBUG off a key anyone could guess is refused (it signs sessions and reset links)."""
    key = environ.get("SECRET_KEY", "").strip()
    if debug:
        return key or DEV_SECRET_KEY
    if not key:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    if (
        len(key) < SECRET_KEY_MIN_LENGTH
        or len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
        or key.startswith(INSECURE_PREFIX)
    ):
        raise ImproperlyConfigured(
            f"SECRET_KEY is too weak for DEBUG off: use at least {SECRET_KEY_MIN_LENGTH} "
            "characters of many kinds, not starting with 'django-insecure-', e.g. "
            'python -c "import secrets; print(secrets.token_urlsafe(50))"'
        )
    return key


def database_config(environ: Mapping[str, str], *, base_dir: Path) -> dict[str, Any]:
    """DATABASES["default"]: DATABASE_URL when set, else a SQLite file in the repo root."""
    url = environ.get("DATABASE_URL", "").strip()
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": base_dir / "db.sqlite3",
            "OPTIONS": SQLITE_OPTIONS,
            "CONN_MAX_AGE": SQLITE_CONN_MAX_AGE,
        }
    config = dict(dj_database_url.parse(url, conn_max_age=0, conn_health_checks=True))
    if config["ENGINE"] == "django.db.backends.postgresql":
        # Under ASGI each call may run in another thread, so persistent connections
        # (CONN_MAX_AGE) would pile up; a pool hands connections back instead of opening
        # one per call, which was most of a live move's database time.
        pooled = env_bool(environ, "DATABASE_POOL", True)
        config.setdefault("OPTIONS", {})["pool"] = pooled
        # A connection the server dropped (a restart, pg_terminate_backend) is found out
        # before a request uses it. With the pool, the backend checks each connection it
        # takes and takes the next at once when one fails (smearsite/kernel/postgres);
        # Django's health check would be psycopg_pool's, which pauses 1, 2, 4 s after
        # each dead one. Without the pool, Django checks a connection it kept.
        config["CONN_HEALTH_CHECKS"] = not pooled
        config["ENGINE"] = "smearsite.kernel.postgres"
    elif config["ENGINE"] == "django.db.backends.sqlite3":
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
        config["CONN_MAX_AGE"] = SQLITE_CONN_MAX_AGE
    return config


# The bots' timetable threads and the websocket thread write at once: a write transaction
# takes its lock up front (no "database is locked" half way), and WAL lets reads go on
# while one writes.
# Opening a SQLite connection (and its pragmas) was a fifth of a live move's time, since
# every database call under ASGI closed its connection. A file needs no server, so a kept
# connection costs nothing; a thread that ends takes its connection with it.
SQLITE_CONN_MAX_AGE = 600
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}


def channel_layers_config(environ: Mapping[str, str]) -> dict[str, Any]:
    """CHANNEL_LAYERS: Redis when REDIS_URL is set (shared by all processes), else in-memory."""
    url = environ.get("REDIS_URL", "").strip()
    if not url:
        # one process only: groups are not shared between server processes
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # Redis Pub/Sub: a group message is one PUBLISH, pushed once to each process that has
    # a member of the group, which hands it to its own members. The list-based layer
    # (channels_redis.core) costs four round trips per message per member, a third of a
    # live move's server time. What Pub/Sub gives up: a process that is disconnected
    # from Redis misses what is published meanwhile (its connections show the table as it
    # stood until the next change, or until they reconnect and are drawn afresh).
    database = urlsplit(url).path.strip("/") or "0"
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                # redis-py 8 reads with a 5 s socket timeout: an idle subscriber's read
                # must not fail and drop its connection
                "hosts": [{"address": url, "socket_timeout": None}],
                # Pub/Sub channels ignore the database number: the prefix keeps the sites
                # that share one Redis server on different databases apart
                "prefix": f"smear{database}:",
            },
        }
    }


def site_url(environ: Mapping[str, str]) -> str:
    """The public base URL of the site, without a trailing slash."""
    return (environ.get("SITE_URL", "").strip() or DEFAULT_SITE_URL).rstrip("/")


def env_int(environ: Mapping[str, str], name: str, default: int) -> int:
    """Read a whole number of at least 0; anything else is an error, not a silent default."""
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a whole number") from None
    if value < 0:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected 0 or more")
    return value


LOCMEM = "django.core.cache.backends.locmem.LocMemCache"
REDIS_WITH_FALLBACK = "smearsite.kernel.fallback_cache.RedisWithLocalFallback"
# a Redis that does not answer must not hold a request: the cache then counts locally
CACHE_REDIS_TIMEOUT_S = 0.5


def cache_config(environ: Mapping[str, str]) -> dict[str, Any]:
    """CACHES: Redis when REDIS_URL is set, else an in-process memory cache.

    The log-in rate limits are counted in the default cache, so they hold across every
    server process only when it is shared, i.e. on Redis. While Redis cannot be reached
    each process counts in memory (``smearsite.kernel.fallback_cache``).
    """
    url = environ.get("REDIS_URL", "").strip()
    if not url:
        return {"default": {"BACKEND": LOCMEM}}
    return {
        "default": {
            "BACKEND": REDIS_WITH_FALLBACK,
            "LOCATION": url,
            "OPTIONS": {
                "socket_connect_timeout": CACHE_REDIS_TIMEOUT_S,
                "socket_timeout": CACHE_REDIS_TIMEOUT_S,
            },
            # the channel layer may share this Redis database: keep our keys apart
            "KEY_PREFIX": "smear",
        },
    }


def email_config(environ: Mapping[str, str], *, site_url: str) -> dict[str, Any]:
    """The EMAIL_* settings: SMTP when EMAIL_HOST is set, else printed to the console.

    Password-reset and address-confirmation emails are the only mail the site sends.
    """
    host = urlsplit(site_url).hostname or "localhost"
    config: dict[str, Any] = {
        "DEFAULT_FROM_EMAIL": environ.get("DEFAULT_FROM_EMAIL", "").strip()
        or f"Smear <noreply@{host}>",
    }
    config["SERVER_EMAIL"] = config["DEFAULT_FROM_EMAIL"]
    smtp_host = environ.get("EMAIL_HOST", "").strip()
    if not smtp_host:
        config["EMAIL_BACKEND"] = "django.core.mail.backends.console.EmailBackend"
        return config
    use_ssl = env_bool(environ, "EMAIL_USE_SSL", default=False)
    use_tls = env_bool(environ, "EMAIL_USE_TLS", default=not use_ssl)
    if use_ssl and use_tls:
        raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be true.")
    config.update(
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST=smtp_host,
        # 587 is submission with STARTTLS, 465 is implicit TLS, 25 is plain SMTP
        EMAIL_PORT=env_int(environ, "EMAIL_PORT", 465 if use_ssl else 587 if use_tls else 25),
        EMAIL_HOST_USER=environ.get("EMAIL_HOST_USER", "").strip(),
        EMAIL_HOST_PASSWORD=environ.get("EMAIL_HOST_PASSWORD", ""),
        EMAIL_USE_TLS=use_tls,
        EMAIL_USE_SSL=use_ssl,
        # a stuck mail server must not hold a request (and a worker) forever
        EMAIL_TIMEOUT=10,
    )
    return config
