"""Full-deck test positions: a round of a family preset played by greedy up to a phase."""

from __future__ import annotations

from random import Random

from game.bots.basic import GreedyBot
from game.engine import record as records
from game.engine.rules import Phase
from game.engine.state import MatchSetup, MatchState
from game.engine.variants import PRESETS
from learn.core.positions import AnalysedPosition, Option, phase_of

FAMILY = ("classic", "six_handed", "seven_point")


def match_at(preset: str, phase: Phase, seed: int = 0) -> MatchState:
    """A match of ``preset`` (its largest partnership layout) stopped at the first
    decision of ``phase``, the seats playing greedy's choices."""
    table = PRESETS[preset]
    players = 6 if preset == "six_handed" else 4
    for attempt in range(50):
        rng = Random(f"{seed}/{attempt}")
        setup = MatchSetup.layouts(players, table)[-1]
        match = MatchState(setup, 0).deal_round(rng)
        while match.current_player() is not None:
            seat = match.current_player()
            view = match.view_for(seat)
            if view.phase is phase:
                return match
            match = match.apply(GreedyBot().choose(view, view.legal_actions(), rng), seat)
    raise AssertionError(f"no {phase} reached at {preset}")


def position_at(match: MatchState, codes: list[str], **fields) -> AnalysedPosition:
    """A position at ``match``'s decision with ``codes`` as its options, best first."""
    seat = match.current_player()
    view = match.view_for(seat)
    options = tuple(
        Option(code=code, value=1.0 - i / 2, value_se=0.1, points=None, made=None, margin_se=0.1)
        for i, code in enumerate(codes)
    )
    return AnalysedPosition(
        record=records.write(match),
        seat=seat,
        phase=phase_of(view),
        options=options,
        themes=fields.pop("themes", ()),
        deals=fields.pop("deals", 40),
        line=((seat, codes[0]),),
        line_hands=(),
        **fields,
    )
