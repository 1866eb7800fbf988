"""The table page's tags, ``{% load tables %}``: the library is ``game.live.parts``."""

from game.live.parts import register

__all__ = ["register"]
