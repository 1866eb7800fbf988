"""Explanations of a full-deck position (classic, six-handed, seven-point), in that game's words.

The same analysis as the house rules' explanations (``learn.core.explain``): each option's mean
change in the match score over deals sampled from the seat's view, every option priced on
the same deals. These tables' analysis plays every choice out (``game.bots.rollouts``,
``game.bots.full_deck``) and keeps no points, bid chances or line, so the words here say
what the seat holds and what the choice keeps or gives up, told with the table's own trumps
(the jick, the jokers), points and exchange. Only the seat's view is read. Pure Python.
"""

from __future__ import annotations

from game.engine import notation
from game.engine.cards import JOKER_1, JOKER_2, RANK_OF, RANKS, cards_of
from game.engine.rules import (
    bid_amount,
    discarded,
    is_bid,
    is_discard,
    is_trump_action,
    named_suit,
    parse_action_code,
    trumps_of,
)
from game.engine.view import SeatView

from .explain import is_equivalent
from .grades import words_for
from .positions import AnalysedPosition, Option

# the most cards a discard's words name one by one: a longer one is told by what it keeps
NAMED_DISCARD = 4


def explain(position: AnalysedPosition, chosen_code: str) -> list[str]:
    """A few short paragraphs: why the best option is best, and what the choice costs."""
    chosen = position.option(chosen_code)  # PositionError if it is not a choice here
    view = position.view()
    return [_why_best(position, view), _about_choice(position, view, chosen), _game(view)]


# --- Why the best option is best ------------------------------------------------------


def _why_best(position: AnalysedPosition, view: SeatView) -> str:
    best = position.best
    text = f"{capital(doing(best.code, view))} is best"
    reason = _reason(best.code, view)
    if reason:
        text += f": {reason}"
    return (
        f"{text}. Over {position.deals} deals sampled from what you can see, each choice "
        f"played out to the round's end, it is worth {best.value:+.2f} in match value (how "
        "far it moves your side against the best of the others, in match points)."
    )


def _reason(code: str, view: SeatView) -> str:
    action = parse_action_code(code)
    if is_trump_action(action):
        return _trumps_held(view, named_suit(action))
    if is_discard(action):
        return _kept(view, discarded(action))
    if is_bid(action):
        amount = bid_amount(action)
        return (
            f"it promises {amount} of the {view.rules.point_count} points in play "
            f"({', '.join(notation.point_names(view.rules))})"
        )
    if code == "pass":
        return ""
    return _card_reason(action, view)


def _card_reason(card: int, view: SeatView) -> str:
    trumps = view.trumps
    out = (view.unseen & trumps.cards).bit_count()
    if trumps.strength[card] >= 0 and out:
        return f"a trump, with {out} trump{'s' * (out != 1)} you have not seen still out"
    if RANK_OF[card] == RANKS.index("10"):
        return "the ten counts 10 toward game for the side that takes it"
    return ""


def _trumps_held(view: SeatView, suit: int) -> str:
    """ "you hold 5 of its trumps: the ace, the jick and the low joker" """
    trumps = trumps_of(suit, view.rules.jick, view.rules.jokers)
    held = view.hand & trumps.cards
    points = cards_of(held & trumps.point_cards)
    text = f"with {notation.suit_name(suit)} trump you hold {held.bit_count()} trump"
    text += "s" * (held.bit_count() != 1)
    if points:
        text += f", {listed([trump_card(c, trumps) for c in points])} among them"
    return text


def _kept(view: SeatView, thrown: int) -> str:
    """ "with them gone, you keep all 4 of your trumps and the ace of spades" """
    kept = view.hand & ~thrown
    trumps = view.trumps
    held = kept & trumps.cards
    gone = "it" if thrown.bit_count() == 1 else "them"
    text = f"with {gone} gone, you keep "
    if not held:
        text += "no trump"
    elif held == view.hand & trumps.cards:
        text += f"all {held.bit_count()} of your trumps" if held.bit_count() > 1 else "your trump"
    else:
        text += f"{held.bit_count()} of your {(view.hand & trumps.cards).bit_count()} trumps"
    plain = [c for c in cards_of(kept & ~trumps.cards) if RANKS[RANK_OF[c]] in ("A", "10")]
    if plain:
        text += f" and {listed([_the(c) for c in plain])}"
    return text


# --- What the learner's choice costs ----------------------------------------------------


def _about_choice(position: AnalysedPosition, view: SeatView, chosen: Option) -> str:
    best = position.best
    if chosen.code == best.code:
        if len(position.options) < 2:
            return "It is the only choice."
        second = position.options[1]
        return (
            f"You found it. The next best, {doing(second.code, view)}, is worth "
            f"{position.margin:.2f} match points less{_difference(best, second, view)}."
        )
    gap = best.value - chosen.value
    if is_equivalent(position, chosen.code):
        return (
            f"{capital(doing(chosen.code, view))} is as good as the best within the "
            f"sampling error: {gap:.2f} match points apart."
        )
    rank = [o.code for o in position.options].index(chosen.code) + 1
    return (
        f"{capital(doing(chosen.code, view))} is {words_for(gap)}: it costs about {gap:.2f} "
        f"match points against the best (it ranks {ordinal(rank)} of {len(position.options)})"
        f"{_difference(best, chosen, view)}."
    )


def _difference(best: Option, other: Option, view: SeatView) -> str:
    """What the other choice gives up that the best keeps, where the two differ in cards."""
    first, second = parse_action_code(best.code), parse_action_code(other.code)
    if is_discard(first) and is_discard(second):
        throws = cards_of(discarded(second) & ~discarded(first))
        keeps = cards_of(discarded(first) & ~discarded(second))
        named = [[trump_card(c, view.trumps) for c in cards] for cards in (throws, keeps)]
        return f": it throws {listed(named[0])} and keeps {listed(named[1])}"
    if is_trump_action(first) and is_trump_action(second):
        return f": {_trumps_held(view, named_suit(second))}"
    return ""


def _game(view: SeatView) -> str:
    """The table's game in a sentence: its points and what the exchange asks."""
    table = view.rules
    text = (
        f"{notation.preset_name(table.preset)}: {table.point_count} points in play "
        f"({', '.join(notation.point_names(table))}); bids {table.min_bid} to {table.max_bid}"
    )
    if table.exchange != "none":
        text += f"; {notation.EXCHANGE_SAID[table.exchange]}"
    return text + "."


# --- Words -------------------------------------------------------------------------------


def doing(code: str, view: SeatView) -> str:
    """ "bidding 3", "passing", "naming hearts", "discarding the 9 of clubs", "playing the
    jack of diamonds (the jick)" """
    action = parse_action_code(code)
    if is_trump_action(action):
        return f"naming {notation.suit_name(named_suit(action))}"
    if is_discard(action):
        thrown = discarded(action)
        if thrown.bit_count() > NAMED_DISCARD:
            kept = [trump_card(c, view.trumps) for c in cards_of(view.hand & ~thrown)]
            return f"discarding {thrown.bit_count()} cards, keeping {listed(kept)}"
        return f"discarding {listed([trump_card(c, view.trumps) for c in cards_of(thrown)])}"
    if is_bid(action):
        return f"bidding {bid_amount(action)}"
    if code == "pass":
        return "passing"
    verb = "leading" if not view.current_trick else "playing"
    return f"{verb} {trump_card(action, view.trumps)}"


def trump_card(card: int, trumps) -> str:
    """A card as this table counts it: the jick and the jokers by their names in trump."""
    if trumps is not None and card == trumps.jick:
        return f"{_the(card)} (the jick)"
    if card == JOKER_1:
        return "the high joker"
    if card == JOKER_2:
        return "the low joker"
    return _the(card)


def _the(card: int) -> str:
    if card in (JOKER_1, JOKER_2):
        return "the high joker" if card == JOKER_1 else "the low joker"
    return f"the {notation.card_name(card)}"


def listed(words: list[str]) -> str:
    if len(words) < 2:
        return "".join(words) or "nothing"
    return ", ".join(words[:-1]) + " and " + words[-1]


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]
