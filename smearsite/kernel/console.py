"""A management command's output as a plain text stream, for a progress bar.

Django's ``OutputWrapper`` (a command's ``self.stdout`` and ``self.stderr``) ends every
``write`` with a newline unless told ``ending=""``; a progress bar redraws its line with
carriage returns, so it writes through this, which tells it so.
"""

from __future__ import annotations

from django.core.management.base import OutputWrapper


class Unended:
    """``output`` written as given, with no line end added."""

    def __init__(self, output: OutputWrapper) -> None:
        self.output = output

    def write(self, text: str) -> None:
        self.output.write(text, ending="")

    def flush(self) -> None:
        self.output.flush()
