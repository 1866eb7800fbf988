"""What can be tapped next in the round so far, so a phone never types the notation: the
legal calls (bids, pass, the suits for trump), or the cards, at the end of the actions
typed so far. The form's field stays the truth and the server judges what is tapped, as
it judges what is typed: this only offers.

The cards offered never show what the visitor did not give: a seat's legal cards where the
board knows its hand, else every card the board has not placed (given hands, the pack, the
asking seat's fill, the cards already discarded or played).
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import board_notation, notation
from game.engine.board import Replayed, known_hand
from game.engine.cards import CARD_CODES, cards_of
from game.engine.rules import Phase, discarded, is_card, is_discard


@dataclass(frozen=True)
class Call:
    token: str  # as the round so far is typed: b2, p, tS
    label: str  # as a player says it: bid 2, pass, spades


@dataclass(frozen=True)
class NextMoves:
    seat: int | None  # the seat to act, None when the round is over
    says: str  # "Seat 1 to bid"
    calls: tuple[Call, ...] = ()
    cards: tuple[str, ...] = ()  # to play one, or to tap a discard
    discarding: bool = False


def next_moves(replayed: Replayed) -> NextMoves:
    state = replayed.state
    seat = state.current_player()
    phase = state.phase()
    if seat is None:
        return NextMoves(None, "The round is over.")
    if phase in (Phase.AUCTION, Phase.TRUMP):
        calls = tuple(
            Call(board_notation.write_action(a), notation.said(a)) for a in state.legal_actions()
        )
        doing = "to bid" if phase is Phase.AUCTION else "to name trump"
        return NextMoves(seat, f"Seat {seat} {doing}", calls)
    held = known_hand(replayed, seat)
    if phase is Phase.EXCHANGE:
        cards = held if held is not None else _could_hold(replayed, seat)
        return NextMoves(seat, f"Seat {seat} to discard", cards=_codes(cards), discarding=True)
    cards = state.legal_mask() if held is not None else _could_hold(replayed, seat)
    return NextMoves(seat, f"Seat {seat} to play", cards=_codes(cards))


def _could_hold(replayed: Replayed, seat: int) -> int:
    """The cards ``seat`` may hold as far as the board knows: its own dealt cards still in
    hand, where given, and every card the board has not placed."""
    board, state = replayed.board, replayed.state
    placed = sum(hand or 0 for hand in board.hands) | (board.fill or 0)
    placed |= sum(1 << c for c in board.pack or ())
    for _, action in board.actions:
        if is_card(action):
            placed |= 1 << action
        elif is_discard(action):
            placed |= discarded(action)
    dealt = board.hands[seat] or 0
    return state.setup.deck & ~placed | dealt & state.hands[seat]


def _codes(mask: int) -> tuple[str, ...]:
    return tuple(CARD_CODES[c] for c in cards_of(mask))
