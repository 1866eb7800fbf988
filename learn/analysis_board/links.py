"""The "Analyse" links: a trainer position or a reviewed decision opened on the analysis
board, as its seat saw it (``answers.notation_at``: its own hand and the actions so far,
no other hand)."""

from __future__ import annotations

from learn.analysis_board.answers import notation_at
from learn.core.positions import AnalysedPosition


def analysis_link(position: AnalysedPosition) -> str:
    """The board's notation for ``position``'s decision."""
    return notation_at(position.match(), position.seat)
