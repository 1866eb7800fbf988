"""A round as it may be: one seat's view completed by a guess at what it cannot see.

A bot that prices a choice before the tricks by playing it out needs a whole round to
play. ``world`` builds one from the seat's view and a guess at the rest (the cards every
other seat was dealt and the order of the pack), replayed to the seat's decision: the
public auction and trump, and each discard made before the seat's own by a policy the
caller gives (discards are face down, so the view holds only their counts). Nothing of
the true round is read; where the guess cannot give the view that the seat has, there is
no world (None).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from .cards import mask_of
from .rules import Phase, trump_action
from .state import Deal, MatchSetup, RoundState
from .variants import Rules
from .view import SeatView

# a seat about to act in the replay, and what it did: the caller may weigh the guess by it
Observer = Callable[[SeatView, int], None]


def world(
    view: SeatView,
    dealt: Sequence[int],
    pack: Sequence[int],
    discard_for: Callable[[SeatView], int],
    observe: Observer | None = None,
) -> RoundState | None:
    """The round in which every seat was dealt ``dealt`` and the pack lies in ``pack``
    order, at ``view``'s decision (before the first card: the auction, naming trump or the
    exchange). ``observe`` is shown each other seat's public action as it is replayed."""
    if view.plays:
        raise ValueError("a world is built before the first card is played")
    setup = _setup(view.players, view.teams, view.target, view.rules)
    deal = Deal(view.dealer, tuple(dealt), mask_of(pack), tuple(pack))
    state = RoundState(setup, deal, view.scores)
    actions = list(view.auction)
    if view.trump is not None:
        actions.append((view.bidder, trump_action(view.trump)))
    for seat, action in actions:
        if observe is not None and seat != view.seat:
            observe(state.view_for(seat), action)
        state = state.apply(action)
    while state.phase() is Phase.EXCHANGE and state.current_player() != view.seat:
        state = state.apply(discard_for(state.view_for(state.current_player())))
    if state.current_player() != view.seat or not _same_counts(state.view_for(view.seat), view):
        return None
    return state


def _same_counts(mine: SeatView, view: SeatView) -> bool:
    return mine.discard_counts == view.discard_counts and mine.fill_counts == view.fill_counts


@cache
def _setup(players: int, teams: tuple, target: int, rules: Rules) -> MatchSetup:
    return MatchSetup(players, teams, target, rules)
