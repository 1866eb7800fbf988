"""The server launcher: daphne with what a connection may cost bounded (``serve``,
``serve_daphne``), and the supervisor that keeps the task worker running beside it
(``supervise``)."""
