"""The true state of a round and of a match, by concern:

- ``setup``: ``MatchSetup`` (seats, units, rules, target), ``Deal`` (the chance event),
  ``shuffle_deal``, ``IllegalAction``;
- ``house_round``: ``RoundState``, a round under the house rules, and ``RoundResult``;
- ``full_deck_round``: ``FullDeckRound``, a round at a full-deck table (naming trump, the
  exchange), which ``RoundState(setup, deal)`` gives where the table plays the full deck;
- ``match``: ``MatchState``, the rounds of a match.

Import them from here. States are immutable: ``apply`` returns a new state and leaves the
old one as it was, so an illegal action changes nothing. The deal is the only chance
event (with the pack's order, so a fill is no second one); a deal plus its actions
replays a round exactly, and ``MatchState.steps()`` lists a whole match as one list of
deals and actions that ``MatchState.from_steps`` replays. ``step(action)`` is ``apply``
with the public events the move made (``game.engine.events``).
"""

from .full_deck_round import FullDeckRound, exchange_order
from .house_round import RoundResult, RoundState
from .match import MatchState
from .setup import Deal, IllegalAction, MatchSetup, shuffle_deal

__all__ = [
    "Deal",
    "FullDeckRound",
    "IllegalAction",
    "MatchSetup",
    "MatchState",
    "RoundResult",
    "RoundState",
    "exchange_order",
    "shuffle_deal",
]
