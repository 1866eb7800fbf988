"""Environment -> settings: the parsing helpers on fake environments, then the real module."""

import importlib.util
import os
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from smearsite import env

REPO = Path(__file__).resolve().parents[2]


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


def test_blank_database_url_counts_as_absent(tmp_path):
    assert env.database_config({"DATABASE_URL": "  "}, base_dir=tmp_path)["ENGINE"].endswith(
        "sqlite3"
    )


def test_postgres_database_url_is_parsed(tmp_path):
    config = env.database_config(
        {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/smear"}, base_dir=tmp_path
    )

    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert config["NAME"] == "smear"
    assert config["USER"] == "postgres"
    assert config["HOST"] == "127.0.0.1"
    assert int(config["PORT"]) == 5432
    assert config["CONN_MAX_AGE"] == 0


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

    assert layers["default"]["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert layers["default"]["CONFIG"] == {"hosts": ["redis://127.0.0.1:6379/0"]}


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
    assert env.secret_key({"SECRET_KEY": "k" * 50}, debug=False) == "k" * 50


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

    assert module.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert module.CHANNEL_LAYERS["default"]["BACKEND"] == "channels_redis.core.RedisChannelLayer"


def test_production_settings_require_a_secret_key(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        load_settings(monkeypatch, DEBUG="false")


def test_production_settings_use_hashed_compressed_static_files(monkeypatch):
    module = load_settings(
        monkeypatch, DEBUG="false", SECRET_KEY="x" * 50, SITE_URL="https://smear.example"
    )

    assert module.DEBUG is False
    assert module.STORAGES["staticfiles"]["BACKEND"] == (
        "whitenoise.storage.CompressedManifestStaticFilesStorage"
    )
    assert module.WHITENOISE_USE_FINDERS is False
    assert module.SESSION_COOKIE_SECURE and module.CSRF_COOKIE_SECURE
    assert module.CSRF_TRUSTED_ORIGINS == ["https://smear.example"]


def test_installed_apps_order_and_asgi_application():
    assert settings.INSTALLED_APPS[0] == "daphne"
    assert settings.INSTALLED_APPS.index("channels") > settings.INSTALLED_APPS.index(
        "django.contrib.staticfiles"
    )
    assert settings.INSTALLED_APPS[-4:] == ["channels", "django_htmx", "template_partials", "game"]
    assert settings.ASGI_APPLICATION == "smearsite.asgi.application"
    assert "django_htmx.middleware.HtmxMiddleware" in settings.MIDDLEWARE
    assert settings.MIDDLEWARE[1] == "whitenoise.middleware.WhiteNoiseMiddleware"


def test_running_settings_follow_this_processes_environment():
    """The suite runs once on defaults and once on PostgreSQL + Redis (.ci/run)."""
    engine = settings.DATABASES["default"]["ENGINE"]
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]

    if os.environ.get("DATABASE_URL"):
        assert engine == "django.db.backends.postgresql"
    else:
        assert engine == "django.db.backends.sqlite3"
    if os.environ.get("REDIS_URL"):
        assert backend == "channels_redis.core.RedisChannelLayer"
    else:
        assert backend == "channels.layers.InMemoryChannelLayer"
