"""Django settings for the Smear site: one file, configured from the environment.

Every variable is listed with a comment in ``.env.example`` and in the README.
The parsing lives in ``smearsite/env.py`` so that it can be tested on its own.
"""

import os
from pathlib import Path

from smearsite import env

BASE_DIR = Path(__file__).resolve().parent.parent

# --- Core -------------------------------------------------------------------------

DEBUG = env.env_bool(os.environ, "DEBUG", default=True)
SECRET_KEY = env.secret_key(os.environ, debug=DEBUG)
ALLOWED_HOSTS = env.env_list(os.environ, "ALLOWED_HOSTS", env.DEFAULT_ALLOWED_HOSTS)
SITE_URL = env.site_url(os.environ)

# A proxy that terminates TLS forwards POSTs whose Origin is the public URL.
CSRF_TRUSTED_ORIGINS = [SITE_URL]
if not DEBUG and SITE_URL.startswith("https://"):
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# --- Applications -----------------------------------------------------------------

INSTALLED_APPS = [
    # daphne first: it replaces runserver with an ASGI (websocket-capable) server
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "game",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # right after SecurityMiddleware, before anything that does work per request
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "smearsite.urls"
WSGI_APPLICATION = "smearsite.wsgi.application"
ASGI_APPLICATION = "smearsite.asgi.application"

# template_partials wraps these loaders itself (it drops APP_DIRS and sets "loaders").
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Data stores ------------------------------------------------------------------

DATABASES = {"default": env.database_config(os.environ, base_dir=BASE_DIR)}
CHANNEL_LAYERS = env.channel_layers_config(os.environ)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth, i18n -------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-ca"
TIME_ZONE = "America/Regina"
USE_I18N = True
USE_TZ = True

# --- Static files -----------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # hashed, compressed files need collectstatic; only production runs it
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        ),
    },
}
# In DEBUG whitenoise serves straight from the finders (no collectstatic under daphne).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# --- Payments (not used yet: the donations app comes later) -----------------------

STRIPE_SECRET_KEY = os.environ.get("STRIPE_SECRET_KEY", "")
STRIPE_WEBHOOK_SECRET = os.environ.get("STRIPE_WEBHOOK_SECRET", "")
STRIPE_CURRENCY = os.environ.get("STRIPE_CURRENCY", "").strip().lower() or "cad"

# --- Logging ----------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "console": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "console"},
    },
    "root": {"handlers": ["console"], "level": "INFO"},
    "loggers": {
        # request errors (500s) are logged by django.request at ERROR
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
