"""Settings for the server that the score sheet's live-link browser test starts.

That server runs in a process of its own, so it cannot share the test run's database
(in memory under the embedded defaults): it gets a SQLite file of its own instead,
named by SCORESHEET_LIVE_DB, and cheap password hashing.
"""

import os

from smearsite import env
from smearsite.settings import *  # noqa: F403
from smearsite.settings import BASE_DIR

# the site's own SQLite options (its write transactions take their lock up front), as a
# server on the embedded defaults runs
DATABASES = {
    "default": env.database_config(
        {"DATABASE_URL": f"sqlite:///{os.environ['SCORESHEET_LIVE_DB']}"}, base_dir=BASE_DIR
    )
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
