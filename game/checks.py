"""System checks: the native search core is built (manage.py check says so if not)."""

from __future__ import annotations

import os

from django.core import checks

from game.engine import solver


@checks.register()
def native_search_core(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """Without the core the bots search in Python: everything works, about 100x slower.
    Under CI=true that is an error: CI must test the core."""
    if solver.native_available():
        return []
    message = "The native search core is not built: bots and the trainer search in Python."
    hint = f"{solver.native_unavailable_reason()}; `make install` builds it (needs g++)."
    if os.environ.get("CI") == "true":
        return [checks.Error(message, hint=hint, id="game.E001")]
    return [checks.Warning(message, hint=hint, id="game.W001")]
