"""Django settings for the Smear site: one file, configured from the environment.

Every variable is listed with a comment in ``.env.example`` and in docs/configuration.md.
The parsing lives in ``smearsite/env.py`` so that it can be tested on its own.
"""

import os
from pathlib import Path

import csp.constants

from smearsite import env

BASE_DIR = Path(__file__).resolve().parent.parent

# --- Core -------------------------------------------------------------------------

DEBUG = env.env_bool(os.environ, "DEBUG", default=True)
SECRET_KEY = env.secret_key(os.environ, debug=DEBUG)
ALLOWED_HOSTS = env.env_list(os.environ, "ALLOWED_HOSTS", env.DEFAULT_ALLOWED_HOSTS)
SITE_URL = env.site_url(os.environ)

# A proxy that terminates TLS forwards POSTs whose Origin is the public URL.
CSRF_TRUSTED_ORIGINS = [SITE_URL]

# --- Security: HTTPS, cookies, headers ----------------------------------------------

# Production is DEBUG off with a public https:// SITE_URL, TLS terminated by a proxy in
# front of the server. DEBUG off with an http:// SITE_URL is a plain-http install (a LAN
# without certificates): secure cookies or an HTTPS redirect would lock everyone out.
HTTPS_ONLY = not DEBUG and SITE_URL.startswith("https://")
SESSION_COOKIE_SECURE = HTTPS_ONLY
CSRF_COOKIE_SECURE = HTTPS_ONLY
SECURE_SSL_REDIRECT = env.env_bool(os.environ, "SECURE_SSL_REDIRECT", default=HTTPS_ONLY)
SECURE_HSTS_SECONDS = env.env_int(
    os.environ, "SECURE_HSTS_SECONDS", default=365 * 24 * 3600 if HTTPS_ONLY else 0
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.env_bool(
    os.environ, "SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True
)
SECURE_HSTS_PRELOAD = env.env_bool(os.environ, "SECURE_HSTS_PRELOAD", default=True)
# Reverse proxies we run in front of the server: they set X-Forwarded-Proto (so a request
# that reached the proxy over TLS counts as secure) and X-Forwarded-For (so rate limits
# count the client's address, not the proxy's). With none, both headers are ignored. 0
# unless told: a server reached directly that trusted them would take a made-up address
# per request from anyone (the server says at start which it does: smearsite.server.serve).
TRUSTED_PROXY_COUNT = env.env_int(os.environ, "TRUSTED_PROXY_COUNT", default=0)
if TRUSTED_PROXY_COUNT:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT
# a load balancer's liveness probe talks plain HTTP straight to the server
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# --- Content-Security-Policy (django-csp) and Permissions-Policy ---------------------
# scripts, styles, images and sockets from the site itself only: no inline script or
# style, no eval (templates use classes, data attributes and files in static/). Forms
# post to the site only (the donate page adds Stripe's checkout, where it redirects).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.constants.SELF],
        "script-src": [csp.constants.SELF],
        "style-src": [csp.constants.SELF],
        "img-src": [csp.constants.SELF, "data:"],
        "font-src": [csp.constants.SELF],
        # 'self' covers the site's own ws:// and wss:// (CSP level 3)
        "connect-src": [csp.constants.SELF],
        "form-action": [csp.constants.SELF],
        "frame-ancestors": [csp.constants.NONE],
        "object-src": [csp.constants.NONE],
        "base-uri": [csp.constants.SELF],
    }
}
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
        "browsing-topics",
    )
}

# --- Applications -----------------------------------------------------------------

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # accounts: sign-up, log-in, password change and reset, log-in rate limits
    "allauth",
    "allauth.account",
    "channels",
    "django_htmx",
    "template_partials",
    # the task queue: reviews of rounds run in `manage.py db_worker`, stored in the database
    "django_tasks",
    "django_tasks_db",
    "game",
    "donations",
    "scoresheet",
    "learn",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # right after SecurityMiddleware, before anything that does work per request
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "smearsite.guards.middleware.PermissionsPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # last: its process_exception comes first (a page load on a lost connection, again)
    "smearsite.guards.lost_connection.AnswerAgainMiddleware",
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
CACHES = env.cache_config(os.environ)
# background work (learn.round_review.tasks) goes into the database: no broker to run
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

# --- Bots at live tables (game.live.bot_runner) ----------------------------------------------
# a background timetable moves them after a human pace, thinking in worker processes
SMEAR_BOT_PACE_MS = env.env_int(os.environ, "SMEAR_BOT_PACE_MS", default=900)
SMEAR_BOT_PROCESSES = env.env_int(os.environ, "SMEAR_BOT_PROCESSES", default=1)
# how far below the server's CPU priority the bots think (os.nice): people's moves first
SMEAR_BOT_NICENESS = env.env_int(os.environ, "SMEAR_BOT_NICENESS", default=10)
# a person who lets their turn run this long is played by a bot until they return
SMEAR_AWAY_AFTER_S = env.env_int(os.environ, "SMEAR_AWAY_AFTER_S", default=45)
# once every person at a table has been away this long, its bots stop until one returns
SMEAR_ABANDONED_AFTER_S = env.env_int(os.environ, "SMEAR_ABANDONED_AFTER_S", default=120)
# how long a finished trick stays on the table, its winning card marked, before it goes
SMEAR_TRICK_HOLD_MS = env.env_int(os.environ, "SMEAR_TRICK_HOLD_MS", default=1200)
# the analysis board's expert (learn.analysis_board): its budget per answer, as an
# ExpertBot's options (the tests give it far less, as TEST_BOT_OPTIONS does the bots)
SMEAR_BOARD_EXPERT = {"budget_ms": 800.0, "max_deals": 200}
# new answers one visitor (an address) may ask the board for per hour, and have waiting
SMEAR_BOARD_ANSWERS_PER_HOUR = env.env_int(os.environ, "SMEAR_BOARD_ANSWERS_PER_HOUR", default=60)
# --- Limits that keep the site fair (game.services.limits) ------------------------------
# unfinished tables against bots per person: a new one closes the oldest
SMEAR_BOT_TABLES_PER_PERSON = env.env_int(os.environ, "SMEAR_BOT_TABLES_PER_PERSON", default=3)
# live sockets per server process: a few tabs per session, a household or an office
# behind one address
SMEAR_SOCKETS_PER_SESSION = env.env_int(os.environ, "SMEAR_SOCKETS_PER_SESSION", default=8)
SMEAR_SOCKETS_PER_ADDRESS = env.env_int(os.environ, "SMEAR_SOCKETS_PER_ADDRESS", default=64)
# HTTP requests served at once per session and per address (more wait their turn, on the
# event loop), and how many may wait before the next is refused (smearsite.guards.fair_share)
SMEAR_REQUESTS_AT_ONCE = env.env_int(os.environ, "SMEAR_REQUESTS_AT_ONCE", default=2)
SMEAR_REQUESTS_AT_ONCE_PER_ADDRESS = env.env_int(
    os.environ, "SMEAR_REQUESTS_AT_ONCE_PER_ADDRESS", default=8
)
SMEAR_REQUESTS_WAITING = env.env_int(os.environ, "SMEAR_REQUESTS_WAITING", default=32)
# new connections per client address, paced as they are accepted (smearsite.server.serve; off
# behind proxies, which pace their clients): a burst at once, then so many a second
SMEAR_CONNECTIONS_BURST_PER_ADDRESS = env.env_int(
    os.environ, "SMEAR_CONNECTIONS_BURST_PER_ADDRESS", default=40
)
SMEAR_CONNECTIONS_PER_SECOND_PER_ADDRESS = env.env_int(
    os.environ, "SMEAR_CONNECTIONS_PER_SECOND_PER_ADDRESS", default=20
)
# open connections per client address (off behind proxies, like the pace): sockets and
# pages of a household or an office, never a file descriptor per byte of a flood
SMEAR_CONNECTIONS_OPEN_PER_ADDRESS = env.env_int(
    os.environ, "SMEAR_CONNECTIONS_OPEN_PER_ADDRESS", default=128
)
# connections all addresses together may hold (0: the process's limit of open files less
# a reserve); past it a newcomer takes the place of the one waiting longest for a head
SMEAR_CONNECTIONS_MAX = env.env_int(os.environ, "SMEAR_CONNECTIONS_MAX", default=0)
# a connection has this long to send a request's headers (counted from its opening, or
# from its last response: an idle connection is closed then too), then this long for
# the request's body
SMEAR_HEADER_TIMEOUT_S = env.env_int(os.environ, "SMEAR_HEADER_TIMEOUT_S", default=10)
SMEAR_BODY_TIMEOUT_S = env.env_int(os.environ, "SMEAR_BODY_TIMEOUT_S", default=30)
# the largest request body accepted: a form's, at most ~36 KB (the score sheet's longest
# fields, every character a 4-byte one, percent-encoded), and the Stripe webhook's own,
# larger (its events are a few KiB, but their metadata may reach 25 KB). Refused with
# 413 by the server and by smearsite.guards.body_limit before it is buffered; what is
# accepted is kept in memory (never spooled to a temporary file by the server, nor by
# Django: FILE_UPLOAD_MAX_MEMORY_SIZE), so what bodies in flight hold is bounded by these
SMEAR_MAX_BODY_BYTES = env.env_int(os.environ, "SMEAR_MAX_BODY_BYTES", default=64 * 1024)
SMEAR_MAX_WEBHOOK_BODY_BYTES = env.env_int(
    os.environ, "SMEAR_MAX_WEBHOOK_BODY_BYTES", default=256 * 1024
)
# paths whose bodies may be larger than SMEAR_MAX_BODY_BYTES (a test holds it to the URL)
SMEAR_MAX_BODY_BYTES_BY_PATH = {"/donate/stripe/webhook/": SMEAR_MAX_WEBHOOK_BODY_BYTES}
DATA_UPLOAD_MAX_MEMORY_SIZE = max(SMEAR_MAX_BODY_BYTES, *SMEAR_MAX_BODY_BYTES_BY_PATH.values())
FILE_UPLOAD_MAX_MEMORY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE
# the bytes of unfinished bodies all connections together may hold in a server process
# (0: not counted): past it the body waiting longest is shed, never a newcomer's, which
# arrives at once. Without it, thousands of connections each holding a body just under
# its limit held gigabytes (smearsite.server.serve_daphne)
SMEAR_MAX_BODIES_BYTES = env.env_int(os.environ, "SMEAR_MAX_BODIES_BYTES", default=32 * 1024**2)
# codes that match nothing one address, or one session, may look up in ten minutes;
# then every code lookup of theirs is answered 429 (smearsite.kernel.code_guard)
SMEAR_CODE_MISSES = env.env_int(os.environ, "SMEAR_CODE_MISSES", default=20)
# a table in play whose people have all been away this long is closed (prune_tables)
SMEAR_DESERTED_AFTER_S = env.env_int(os.environ, "SMEAR_DESERTED_AFTER_S", default=86400)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Accounts (django-allauth) -----------------------------------------------------

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
# login_required sends guests here with ?next=, and they come back after logging in
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "game:home"
ACCOUNT_LOGOUT_REDIRECT_URL = "game:home"
# a username to log in; an email address only if the player wants password resets
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Smear] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if HTTPS_ONLY else "http"
ACCOUNT_ADAPTER = "game.players.accounts.AccountAdapter"
ACCOUNT_USER_DISPLAY = "game.players.accounts.user_display"
ACCOUNT_FORMS = {"signup": "game.players.forms.SignupForm"}
# Password guessing (game.players.accounts): only failed log-ins are counted, at most 10 a
# minute from one address and 5 in 5 minutes for one username from one address (the "key"
# is username and address), so no stranger, from however many addresses, can lock the
# owner out. allauth's own count is off: its key is the username alone. The counts live in
# CACHES (shared when REDIS_URL is set).
ACCOUNT_RATE_LIMITS = {
    "login_failed": None,
    "login_failure": "10/m/ip,5/5m/key",
}

# --- Email --------------------------------------------------------------------------

_email = env.email_config(os.environ, site_url=SITE_URL)
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
DEFAULT_FROM_EMAIL = _email["DEFAULT_FROM_EMAIL"]
SERVER_EMAIL = _email["SERVER_EMAIL"]
if "EMAIL_HOST" in _email:
    EMAIL_HOST = _email["EMAIL_HOST"]
    EMAIL_PORT = _email["EMAIL_PORT"]
    EMAIL_HOST_USER = _email["EMAIL_HOST_USER"]
    EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"]
    EMAIL_USE_TLS = _email["EMAIL_USE_TLS"]
    EMAIL_USE_SSL = _email["EMAIL_USE_SSL"]
    EMAIL_TIMEOUT = _email["EMAIL_TIMEOUT"]

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
# In DEBUG whitenoise serves straight from the finders (no collectstatic under the server).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# --- Payments (donations through Stripe Checkout) ----------------------------------

# Without both keys the donate page says donations are not set up.
STRIPE_SECRET_KEY = os.environ.get("STRIPE_SECRET_KEY", "")
STRIPE_WEBHOOK_SECRET = os.environ.get("STRIPE_WEBHOOK_SECRET", "")
STRIPE_CURRENCY = os.environ.get("STRIPE_CURRENCY", "").strip().lower() or "cad"
# Unset: Stripe's own API. Tests point it at a local fake Stripe server.
STRIPE_API_BASE = os.environ.get("STRIPE_API_BASE", "").strip().rstrip("/")

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
        # the Stripe library logs every request at INFO; its warnings are enough
        "stripe": {"level": "WARNING"},
    },
}
