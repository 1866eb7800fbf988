"""Environment -> settings: the parsing helpers on fake environments, then the real module."""

import importlib.util
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from smearsite import env

REPO = Path(__file__).resolve().parents[2]
# what production accepts: 50 characters or more, of many kinds, not Django's insecure prefix
STRONG_KEY = "kq3V9x-7bLw2Zt0pN8sRj4Hc6mYe1Fu5Da_Go" + "Qi9Xn2Tv7Lk4Wp0"


def load_settings(monkeypatch, **environ: str):
    """Execute smearsite/settings.py afresh under the given environment only."""
    for name in (
        "DEBUG",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "DATABASE_URL",
        "REDIS_URL",
        "SITE_URL",
        "STRIPE_SECRET_KEY",
        "STRIPE_WEBHOOK_SECRET",
        "STRIPE_CURRENCY",
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SECURE_HSTS_PRELOAD",
        "TRUSTED_PROXY_COUNT",
        "EMAIL_HOST",
        "EMAIL_PORT",
        "EMAIL_HOST_USER",
        "EMAIL_HOST_PASSWORD",
        "EMAIL_USE_TLS",
        "EMAIL_USE_SSL",
        "DEFAULT_FROM_EMAIL",
    ):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("settings_probe", REPO / "smearsite/settings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- DATABASE_URL -----------------------------------------------------------------


def test_no_database_url_means_sqlite_file_in_repo_root(tmp_path):
    config = env.database_config({}, base_dir=tmp_path)

    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == tmp_path / "db.sqlite3"
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]
    assert config["CONN_MAX_AGE"] > 0  # kept open: opening one per call was slow


def test_blank_database_url_counts_as_absent(tmp_path):
    assert env.database_config({"DATABASE_URL": "  "}, base_dir=tmp_path)["ENGINE"].endswith(
        "sqlite3"
    )


def test_postgres_database_url_is_parsed(tmp_path):
    config = env.database_config(
        {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/smear"}, base_dir=tmp_path
    )

    # Django's backend, its pool quick after a dropped connection (smearsite/kernel/postgres)
    assert config["ENGINE"] == "smearsite.kernel.postgres"
    assert config["NAME"] == "smear"
    assert config["USER"] == "postgres"
    assert config["HOST"] == "127.0.0.1"
    assert int(config["PORT"]) == 5432
    assert config["CONN_MAX_AGE"] == 0
    assert config["OPTIONS"]["pool"] is True
    # the backend checks each pooled connection itself (Django's check would pause)
    assert config["CONN_HEALTH_CHECKS"] is False


def test_the_postgres_pool_can_be_switched_off(tmp_path):
    config = env.database_config(
        {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/smear", "DATABASE_POOL": "no"},
        base_dir=tmp_path,
    )

    assert config["OPTIONS"]["pool"] is False
    assert config["CONN_HEALTH_CHECKS"] is True


def test_database_url_with_password_keeps_it(tmp_path):
    config = env.database_config(
        {"DATABASE_URL": "postgres://smear:s3cret@db.internal:6543/smear_prod"}, base_dir=tmp_path
    )

    assert (config["USER"], config["PASSWORD"]) == ("smear", "s3cret")
    assert (config["HOST"], int(config["PORT"])) == ("db.internal", 6543)
    assert config["NAME"] == "smear_prod"


# --- REDIS_URL --------------------------------------------------------------------


def test_no_redis_url_means_in_memory_channel_layer():
    layers = env.channel_layers_config({})

    assert layers == {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def test_redis_url_selects_redis_channel_layer_with_that_host():
    layers = env.channel_layers_config({"REDIS_URL": "redis://127.0.0.1:6379/0"})

    assert layers["default"]["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    host = layers["default"]["CONFIG"]["hosts"][0]
    assert host["address"] == "redis://127.0.0.1:6379/0"
    # an idle subscriber's read must not time out and drop its connection
    assert host["socket_timeout"] is None


def test_sites_on_two_databases_of_one_redis_keep_their_channels_apart():
    """Pub/Sub channels ignore the database number: the layer's prefix carries it."""
    first = env.channel_layers_config({"REDIS_URL": "redis://127.0.0.1:6379/7"})
    second = env.channel_layers_config({"REDIS_URL": "redis://127.0.0.1:6379/8"})
    default = env.channel_layers_config({"REDIS_URL": "redis://127.0.0.1:6379"})

    prefixes = {c["default"]["CONFIG"]["prefix"] for c in (first, second, default)}
    assert len(prefixes) == 3


# --- DEBUG, SECRET_KEY, ALLOWED_HOSTS, SITE_URL -----------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("", True), ("1", True), ("true", True), ("Yes", True), ("0", False), ("false", False)],
)
def test_debug_flag_parsing(raw, expected):
    assert env.env_bool({"DEBUG": raw}, "DEBUG", default=True) is expected


def test_unrecognised_boolean_is_an_error_not_a_guess():
    with pytest.raises(ImproperlyConfigured):
        env.env_bool({"DEBUG": "maybe"}, "DEBUG", default=True)


def test_secret_key_falls_back_to_insecure_dev_key_only_in_debug():
    assert env.secret_key({}, debug=True) == env.DEV_SECRET_KEY
    assert "insecure" in env.DEV_SECRET_KEY
    with pytest.raises(ImproperlyConfigured):
        env.secret_key({}, debug=False)
    assert env.secret_key({"SECRET_KEY": STRONG_KEY}, debug=False) == STRONG_KEY


@pytest.mark.parametrize(
    "weak",
    [
        "x",
        "k" * 50,
        "abcd" * 20,
        "django-insecure-" + secrets.token_urlsafe(50),
        "short-but-random",
    ],
    ids=["one-letter", "one-character-repeated", "four-characters", "djangos-insecure", "short"],
)
def test_production_refuses_a_weak_secret_key_and_says_why(weak):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY.*50 characters"):
        env.secret_key({"SECRET_KEY": weak}, debug=False)


def test_debug_accepts_any_secret_key_it_is_given():
    assert env.secret_key({"SECRET_KEY": "x"}, debug=True) == "x"


def test_allowed_hosts_default_and_comma_list():
    assert env.env_list({}, "ALLOWED_HOSTS", env.DEFAULT_ALLOWED_HOSTS) == [
        "localhost",
        "127.0.0.1",
        "[::1]",
        "testserver",
    ]
    assert env.env_list(
        {"ALLOWED_HOSTS": "smear.example, www.smear.example,"},
        "ALLOWED_HOSTS",
        env.DEFAULT_ALLOWED_HOSTS,
    ) == ["smear.example", "www.smear.example"]


def test_site_url_default_and_trailing_slash_dropped():
    assert env.site_url({}) == "http://127.0.0.1:8000"
    assert env.site_url({"SITE_URL": "https://smear.example/"}) == "https://smear.example"


# --- The settings module itself ---------------------------------------------------


def test_settings_module_defaults(monkeypatch):
    module = load_settings(monkeypatch)

    assert module.DEBUG is True
    assert module.SECRET_KEY == env.DEV_SECRET_KEY
    assert module.DATABASES["default"]["NAME"] == REPO / "db.sqlite3"
    assert module.CHANNEL_LAYERS["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    assert module.SITE_URL == "http://127.0.0.1:8000"
    assert module.STRIPE_CURRENCY == "cad"
    assert module.STORAGES["staticfiles"]["BACKEND"].endswith("StaticFilesStorage")
    assert "Manifest" not in module.STORAGES["staticfiles"]["BACKEND"]
    assert module.WHITENOISE_USE_FINDERS is True


def test_settings_module_with_postgres_and_redis(monkeypatch):
    module = load_settings(
        monkeypatch,
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/smear",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )

    assert module.DATABASES["default"]["ENGINE"] == "smearsite.kernel.postgres"
    layer = module.CHANNEL_LAYERS["default"]["BACKEND"]
    assert layer == "channels_redis.pubsub.RedisPubSubChannelLayer"


def test_production_settings_require_a_secret_key(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        load_settings(monkeypatch, DEBUG="false")


def test_production_settings_use_hashed_compressed_static_files(monkeypatch):
    module = load_settings(
        monkeypatch, DEBUG="false", SECRET_KEY=STRONG_KEY, SITE_URL="https://smear.example"
    )

    assert module.DEBUG is False
    assert module.STORAGES["staticfiles"]["BACKEND"] == (
        "whitenoise.storage.CompressedManifestStaticFilesStorage"
    )
    assert module.WHITENOISE_USE_FINDERS is False
    assert module.SESSION_COOKIE_SECURE and module.CSRF_COOKIE_SECURE
    assert module.CSRF_TRUSTED_ORIGINS == ["https://smear.example"]


def test_installed_apps_order_and_asgi_application():
    assert settings.INSTALLED_APPS.index("channels") > settings.INSTALLED_APPS.index(
        "django.contrib.staticfiles"
    )
    apps = settings.INSTALLED_APPS
    # the libraries first, then our own apps
    ours = [apps.index(app) for app in ("game", "donations", "scoresheet")]
    libraries = [apps.index(app) for app in ("channels", "django_htmx", "template_partials")]
    assert max(libraries) < min(ours)
    assert {"allauth", "allauth.account"} <= set(settings.INSTALLED_APPS)
    assert "allauth.account.middleware.AccountMiddleware" in settings.MIDDLEWARE
    assert settings.ASGI_APPLICATION == "smearsite.asgi.application"
    assert "django_htmx.middleware.HtmxMiddleware" in settings.MIDDLEWARE
    assert settings.MIDDLEWARE[1] == "whitenoise.middleware.WhiteNoiseMiddleware"


def test_running_settings_follow_this_processes_environment():
    """The suite runs once on defaults and once on PostgreSQL + Redis (.ci/run)."""
    engine = settings.DATABASES["default"]["ENGINE"]
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]

    if os.environ.get("DATABASE_URL"):
        assert engine == "smearsite.kernel.postgres"
    else:
        assert engine == "django.db.backends.sqlite3"
    if os.environ.get("REDIS_URL"):
        assert backend == "channels_redis.pubsub.RedisPubSubChannelLayer"
    else:
        assert backend == "channels.layers.InMemoryChannelLayer"


# --- Whole numbers, CACHES, email ---------------------------------------------------


def test_env_int_default_value_and_errors():
    assert env.env_int({}, "SECURE_HSTS_SECONDS", 7) == 7
    assert env.env_int({"SECURE_HSTS_SECONDS": " 60 "}, "SECURE_HSTS_SECONDS", 7) == 60
    for bad in ("soon", "-1", "1.5"):
        with pytest.raises(ImproperlyConfigured, match="SECURE_HSTS_SECONDS"):
            env.env_int({"SECURE_HSTS_SECONDS": bad}, "SECURE_HSTS_SECONDS", 7)


def test_no_redis_url_means_a_per_process_memory_cache():
    caches = env.cache_config({})

    assert caches == {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


def test_redis_url_means_a_redis_cache_shared_by_every_process_with_a_local_fallback():
    caches = env.cache_config({"REDIS_URL": "redis://127.0.0.1:6379/0"})

    assert caches["default"]["BACKEND"] == (
        "smearsite.kernel.fallback_cache.RedisWithLocalFallback"
    )
    assert caches["default"]["OPTIONS"]["socket_timeout"] <= 1
    assert caches["default"]["LOCATION"] == "redis://127.0.0.1:6379/0"
    assert caches["default"]["KEY_PREFIX"]


def test_email_goes_to_the_console_by_default_from_the_sites_host():
    config = env.email_config({}, site_url="https://smear.example")

    assert config["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert config["DEFAULT_FROM_EMAIL"] == "Smear <noreply@smear.example>"
    assert "EMAIL_HOST" not in config


def test_email_host_switches_to_smtp_with_starttls_on_587():
    config = env.email_config(
        {
            "EMAIL_HOST": "smtp.example",
            "EMAIL_HOST_USER": "smear",
            "EMAIL_HOST_PASSWORD": "pw",
            "DEFAULT_FROM_EMAIL": "Smear <games@smear.example>",
        },
        site_url="https://smear.example",
    )

    assert config["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (config["EMAIL_HOST"], config["EMAIL_PORT"]) == ("smtp.example", 587)
    assert (config["EMAIL_HOST_USER"], config["EMAIL_HOST_PASSWORD"]) == ("smear", "pw")
    assert config["EMAIL_USE_TLS"] is True and config["EMAIL_USE_SSL"] is False
    assert config["DEFAULT_FROM_EMAIL"] == "Smear <games@smear.example>"
    assert config["EMAIL_TIMEOUT"] > 0


def test_email_implicit_tls_and_plain_smtp_ports():
    ssl = env.email_config({"EMAIL_HOST": "mx", "EMAIL_USE_SSL": "true"}, site_url="http://x")
    plain = env.email_config({"EMAIL_HOST": "mx", "EMAIL_USE_TLS": "false"}, site_url="http://x")
    custom = env.email_config({"EMAIL_HOST": "mx", "EMAIL_PORT": "2525"}, site_url="http://x")

    assert (ssl["EMAIL_PORT"], ssl["EMAIL_USE_SSL"], ssl["EMAIL_USE_TLS"]) == (465, True, False)
    assert (plain["EMAIL_PORT"], plain["EMAIL_USE_TLS"]) == (25, False)
    assert custom["EMAIL_PORT"] == 2525
    with pytest.raises(ImproperlyConfigured, match="both"):
        env.email_config(
            {"EMAIL_HOST": "mx", "EMAIL_USE_SSL": "true", "EMAIL_USE_TLS": "true"},
            site_url="http://x",
        )


def test_settings_module_reads_email_and_cache(monkeypatch):
    module = load_settings(
        monkeypatch, EMAIL_HOST="smtp.example", EMAIL_PORT="2525", REDIS_URL="redis://r:6379/1"
    )

    assert module.EMAIL_BACKEND.endswith("smtp.EmailBackend")
    assert (module.EMAIL_HOST, module.EMAIL_PORT) == ("smtp.example", 2525)
    assert module.CACHES["default"]["LOCATION"] == "redis://r:6379/1"
    assert load_settings(monkeypatch).EMAIL_BACKEND.endswith("console.EmailBackend")


# --- Security when DEBUG is off -----------------------------------------------------


def test_debug_settings_leave_https_to_production(monkeypatch):
    module = load_settings(monkeypatch)

    assert module.SECURE_SSL_REDIRECT is False
    assert module.SECURE_HSTS_SECONDS == 0
    assert module.SESSION_COOKIE_SECURE is False
    assert not hasattr(module, "SECURE_PROXY_SSL_HEADER")


@pytest.mark.parametrize("site_url", ["https://smear.example", "http://smear.lan:8000"])
def test_production_trusts_no_forwarded_header_until_told_how_many_proxies(monkeypatch, site_url):
    # reached directly, a made-up X-Forwarded-For per request would be a new address each
    # time to every limit counted by address
    module = load_settings(monkeypatch, DEBUG="false", SECRET_KEY=STRONG_KEY, SITE_URL=site_url)

    assert module.TRUSTED_PROXY_COUNT == 0
    assert module.ALLAUTH_TRUSTED_PROXY_COUNT == 0
    assert not hasattr(module, "SECURE_PROXY_SSL_HEADER")


def test_production_settings_are_https_only_behind_a_tls_proxy(monkeypatch):
    module = load_settings(
        monkeypatch,
        DEBUG="false",
        SECRET_KEY=STRONG_KEY,
        SITE_URL="https://smear.example",
        TRUSTED_PROXY_COUNT="1",
    )

    assert module.SECURE_SSL_REDIRECT is True
    assert module.SECURE_HSTS_SECONDS == 31_536_000
    assert module.SECURE_HSTS_INCLUDE_SUBDOMAINS and module.SECURE_HSTS_PRELOAD
    assert module.SESSION_COOKIE_SECURE and module.CSRF_COOKIE_SECURE
    assert module.SECURE_PROXY_SSL_HEADER == ("HTTP_X_FORWARDED_PROTO", "https")
    assert module.ALLAUTH_TRUSTED_PROXY_COUNT == 1
    assert module.SECURE_CONTENT_TYPE_NOSNIFF is True
    assert module.SECURE_REFERRER_POLICY == "same-origin"
    assert module.X_FRAME_OPTIONS == "DENY"
    assert module.ACCOUNT_DEFAULT_HTTP_PROTOCOL == "https"
    # the load balancer's plain-HTTP liveness probe is not redirected
    assert module.SECURE_REDIRECT_EXEMPT == [r"^healthz$"]


def test_production_security_settings_can_be_tuned(monkeypatch):
    module = load_settings(
        monkeypatch,
        DEBUG="false",
        SECRET_KEY=STRONG_KEY,
        SITE_URL="https://smear.example",
        SECURE_SSL_REDIRECT="false",
        SECURE_HSTS_SECONDS="3600",
        SECURE_HSTS_PRELOAD="false",
        TRUSTED_PROXY_COUNT="2",
    )

    assert module.SECURE_SSL_REDIRECT is False
    assert module.SECURE_HSTS_SECONDS == 3600
    assert module.SECURE_HSTS_PRELOAD is False
    assert module.ALLAUTH_TRUSTED_PROXY_COUNT == 2


def test_production_over_plain_http_on_a_lan_keeps_working_cookies(monkeypatch):
    module = load_settings(
        monkeypatch, DEBUG="false", SECRET_KEY=STRONG_KEY, SITE_URL="http://smear.lan:8000"
    )

    assert module.SECURE_SSL_REDIRECT is False
    assert module.SECURE_HSTS_SECONDS == 0
    assert module.SESSION_COOKIE_SECURE is False and module.CSRF_COOKIE_SECURE is False
    assert not hasattr(module, "SECURE_PROXY_SSL_HEADER")


def test_check_deploy_is_clean_with_production_settings():
    environ = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "SECURE_", "EMAIL_", "TRUSTED_"))
    }
    environ.update(
        DJANGO_SETTINGS_MODULE="smearsite.settings",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50)[:50],
        SITE_URL="https://smear.example",
        ALLOWED_HOSTS="smear.example",
    )

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=REPO,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_production_https_settings_redirect_http_but_not_the_health_check(monkeypatch, settings):
    production = load_settings(
        monkeypatch,
        DEBUG="false",
        SECRET_KEY=STRONG_KEY,
        SITE_URL="https://smear.example",
        TRUSTED_PROXY_COUNT="1",
    )
    for name in ("SECURE_SSL_REDIRECT", "SECURE_REDIRECT_EXEMPT", "SECURE_PROXY_SSL_HEADER"):
        setattr(settings, name, getattr(production, name))
    for name in ("SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD"):
        setattr(settings, name, getattr(production, name))
    client = Client()

    plain = client.get("/rules/")
    behind_proxy = client.get("/rules/", headers={"x-forwarded-proto": "https"})

    assert plain.status_code == 301 and plain["Location"] == "https://testserver/rules/"
    assert client.get("/healthz").status_code == 200
    assert behind_proxy.status_code == 200
    assert behind_proxy["Strict-Transport-Security"] == (
        "max-age=31536000; includeSubDomains; preload"
    )
    assert behind_proxy["X-Frame-Options"] == "DENY"
    assert behind_proxy["X-Content-Type-Options"] == "nosniff"
    assert behind_proxy["Referrer-Policy"] == "same-origin"
