"""Settings for the server that the score sheet's live-link browser test starts.

That server runs in a process of its own, so it cannot share the test run's database
(in memory under the embedded defaults): it gets a SQLite file of its own instead,
named by SCORESHEET_LIVE_DB, and cheap password hashing.
"""

import os

from smearsite.settings import *  # noqa: F403

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ["SCORESHEET_LIVE_DB"],
    }
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
