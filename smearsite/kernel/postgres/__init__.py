"""PostgreSQL for Django (``ENGINE = "smearsite.kernel.postgres"``): Django's own backend,
whose connection pool puts a connection the server dropped aside at once (``base.py``)."""
