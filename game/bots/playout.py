"""A sampled full-deck position played to the end of the round by greedy's rules.

Early in a round at a full-deck table the exact search cannot solve enough deals within
a live budget (six tricks of four seats, in Python), so the expert prices its cards by
playing each sampled deal out instead: every seat plays greedy's card (``basic``), seeing
the cards in play as the search does. A card that does better than greedy's own choice
over the same deals is the better card: a rollout improves on the policy it plays.
"""

from __future__ import annotations

from game.engine.cards import cards_of
from game.engine.rules import legal_cards_full, round_points_full, trick_winner_full
from game.engine.solver import Position

from .basic import family_play


class _Seat:
    """What greedy's card play reads of a view, for one seat of a sampled deal."""

    __slots__ = ("current_trick", "players", "trump", "trumps", "unit", "unit_of", "unseen")

    def __init__(self, position: Position, seat: int, trick: tuple, unseen: int):
        self.trumps = position.trumps
        self.trump = position.trump
        self.players = position.players
        self.unit_of = position.unit_of
        self.unit = position.unit_of[seat]
        self.current_trick = trick
        self.unseen = unseen


def play_out(position: Position) -> tuple[int, ...]:
    """Each unit's points once every seat has played greedy's cards to the round's end."""
    table, trumps = position.table, position.trumps
    hands = list(position.hands)
    units = max(position.unit_of) + 1
    captured = list(position.taken or (0,) * units)
    leader, trick = position.leader, list(position.trick)
    players = position.players
    in_play = 0
    for hand in hands:
        in_play |= hand
    while hands[(leader + len(trick)) % players]:
        seat = (leader + len(trick)) % players
        led = trick[0] if trick else -1
        legal = cards_of(legal_cards_full(hands[seat], led, trumps, table.follow))
        if len(legal) == 1:
            card = legal[0]
        else:
            seated = tuple(((leader + i) % players, c) for i, c in enumerate(trick))
            unseen = in_play & ~hands[seat]
            card = family_play(_Seat(position, seat, seated, unseen), legal)
        hands[seat] &= ~(1 << card)
        in_play &= ~(1 << card)
        trick.append(card)
        if len(trick) == players:
            leader = (leader + trick_winner_full(tuple(trick), trumps)) % players
            won = 0
            for c in trick:
                won |= 1 << c
            captured[position.unit_of[leader]] |= won
            trick = []
    dealt = enumerate(position.dealt)
    plays = tuple((seat, card) for seat, kept in dealt for card in cards_of(kept))
    points = round_points_full(
        names=table.points,
        trumps=trumps,
        ace_two=table.high_low == "ace_two",
        plays=plays,
        captured=tuple(captured),
        unit_of=position.unit_of,
    )
    return points.raw(units)
