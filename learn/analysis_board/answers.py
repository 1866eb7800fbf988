"""The analysis board's answers, worked out from a board alone: pure, no Django.

Two answers, each a plain JSON-ready dict so the task queue can store it and a page can
draw it again without thinking twice:

- ``expert_answer``: for the seat asking, when it is to act, the expert's choice (the one a
  live table makes with the same options and seed) and every legal option priced by the
  trainer's analysis (``learn.core.analysis.price``), so the page explains it in the
  trainer's words. Where that pricing is the live expert's own search (a full-deck table,
  any auction: ``ExpertBot.chooses_from_detailed``) one search gives both, the choice
  taken from it as ``ExpertBot.choose`` takes it; in the house rules' card play the live
  choice (``game.bots.choose_once``) is searched apart, without the points. Only the
  seat's ``SeatView`` goes in: the other hands, given or not, never reach the expert.
  Its key and its seed are the view's own (``view_key``), so two boards that differ only
  in what the seat cannot see share one answer, and a hand typed in on one board never
  changes another's.
- ``exact_answer``: every card known, the exact table at the first lead
  (``board.opening_table``) and, in card play, every legal card's exact value
  (``board.card_values``). Its key is the whole board's notation.

``BoardPosition`` is the trainer's ``AnalysedPosition`` over a board, so the trainer's
presenters (option rows, explanations) draw the expert's answer unchanged.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from random import Random
from typing import Any

from game.bots import choose_once
from game.bots.expert import ExpertBot
from game.engine import board_notation
from game.engine.board import (
    Board,
    BoardError,
    Replayed,
    card_values,
    hand_unknown,
    opening_table,
    replay,
)
from game.engine.rules import action_code
from game.engine.state import MatchState
from game.engine.view import SeatView
from learn.core.analysis import described, price
from learn.core.positions import AnalysedPosition, Option

# bumped whenever the answers' shape or the solver's meaning changes: cached answers of an
# older version are worked out again
EXACT_VERSION = "exact-1"


def expert_version(options: dict[str, Any]) -> str:
    """The expert's name, version and budget: answers of another expert are not reused."""
    budget = ",".join(f"{name}={options[name]}" for name in sorted(options))
    return f"expert-{ExpertBot.version}[{budget}]"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def view_key(view: SeatView, options: dict[str, Any]) -> str:
    """The expert answer's key: everything the seat sees (its own hand, the table, the
    actions, the scores), and the expert's version and budget."""
    return _digest(f"{view!r}|{expert_version(options)}")


def exact_key(notation: str) -> str:
    """The exact answer's key: the whole board as written, every hand in it."""
    return _digest(f"{notation}|{EXACT_VERSION}")


def seed_of(view: SeatView) -> int:
    """The expert's seed on this board: the view's, so the same view gets the same answer."""
    return int(_digest(repr(view))[:16], 16)


def seat_view(replayed: Replayed) -> SeatView:
    """What the seat asking sees on the board, and nothing more."""
    return replayed.state.view_for(replayed.board.seat)


# --- The expert, from the seat's view ------------------------------------------------------


def expert_view(replayed: Replayed) -> SeatView:
    """The view the expert answers for: the seat's own, where the board knows its hand;
    BoardError in words where it cannot (past a fill it is not given: ``hand_unknown``)."""
    unknown = hand_unknown(replayed)
    if unknown:
        raise BoardError("fill", unknown)
    return seat_view(replayed)


def expert_answer(view: SeatView, options: dict[str, Any]) -> dict[str, Any]:
    """The expert's choice for ``view`` and every legal option priced, as data. ``options``
    are the expert's budget (``ExpertBot``'s ``budget_ms`` and ``max_deals``)."""
    legal = view.legal_actions()
    if not legal:
        raise BoardError("actions", _not_to_act(view))
    seed = seed_of(view)
    analyst = ExpertBot(**options)
    rng = Random(seed)
    if analyst.chooses_from_detailed(view):
        # one search serves both: the pricing is the live table's own search (same
        # deals, same seed), and its choice is taken from it as the live table takes it
        analysis, priced = price(view, analyst, rng)
        choice = analyst.choice_from(view, legal, analysis, rng)
    else:
        # house card play: the live choice is searched without the points the pricing
        # shows, so it is made as the live table makes it, then the options are priced
        choice = choose_once("expert", view, legal, seed, options)
        analysis, priced = price(view, analyst, rng)
    assessment = described(view, analysis, priced, analyst, rng)
    return {
        "choice": action_code(choice),
        "phase": assessment.phase,
        "options": [option.to_json() for option in assessment.options],
        "themes": list(assessment.themes),
        "deals": assessment.deals,
        "line": [[seat, code] for seat, code in assessment.line],
        "line_hands": [list(hand) for hand in assessment.line_hands],
    }


def _not_to_act(view: SeatView) -> str:
    if view.to_act is None:
        return "the round is over: nobody is to act"
    return (
        f"seat {view.to_act} is to act, not seat {view.seat}: the expert answers for the "
        "seat asking when it is its turn"
    )


@dataclass(frozen=True, eq=False)
class BoardPosition(AnalysedPosition):
    """The expert's answer on a board as a trainer position: its view is the board's
    (match scores included), so the trainer's explanations and option rows read it as
    they read a position of the bank."""

    replayed: Replayed | None = None

    @cached_property
    def _match(self) -> MatchState:
        state = self.replayed.state
        return MatchState(state.setup, self.replayed.board.dealer, (state,))


def board_position(replayed: Replayed, answer: dict[str, Any]) -> BoardPosition:
    """The stored expert answer for ``replayed`` as a ``BoardPosition``."""
    return BoardPosition(
        record={"players": replayed.board.players},
        seat=replayed.board.seat,
        phase=answer["phase"],
        options=tuple(Option.from_json(item) for item in answer["options"]),
        themes=tuple(answer["themes"]),
        deals=answer["deals"],
        line=tuple((seat, code) for seat, code in answer["line"]),
        line_hands=tuple(tuple(hand) for hand in answer["line_hands"]),
        replayed=replayed,
    )


# --- Every card known: the exact table --------------------------------------------------------


def exact_answer(board: Board) -> dict[str, Any]:
    """The exact table at the first lead and each legal card's exact value now, as far as
    they apply to the board's moment; where one does not, the reason in words."""
    table: list[dict[str, Any]] = []
    cards: dict[str, int] = {}
    table_note = cards_note = ""
    try:
        table = [{"lead": row.lead, "points": list(row.points)} for row in opening_table(board)]
    except BoardError as error:
        table_note = error.reason
    try:
        cards = card_values(board)
    except BoardError as error:
        cards_note = error.reason
    state = replay(board).state
    return {
        "table": table,
        "table_note": table_note,
        "cards": cards,
        "cards_note": cards_note,
        "to_play": state.current_player(),
    }


# --- A board from a moment of a match: the "Analyse" links -------------------------------------


def notation_at(match: MatchState, seat: int) -> str:
    """The board of the current round of ``match`` as ``seat`` saw it: the table, the
    dealer, the score before the round, the seat's own hand as dealt, its fill once drawn
    and every action so far. No other hand goes in: the link shows nobody a card the seat
    did not see."""
    state = match.round
    hands = tuple(hand if s == seat else None for s, hand in enumerate(state.deal.hands))
    board = Board(
        rules=state.setup.rules,
        teams=state.setup.teams,
        dealer=state.dealer,
        scores=tuple(state.scores),
        seat=seat,
        hands=hands,
        actions=tuple((None, action) for _, action in state.seated_history()),
        fill=state.fills[seat] or None,
    )
    return board_notation.write(board)


def read(notation: str) -> Replayed:
    """The board a notation names, replayed; BoardError in words for any that cannot be."""
    return replay(board_notation.read(notation))
