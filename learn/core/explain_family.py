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
from game.engine.notation import listed
from game.engine.rules import (
    bid_amount,
    discarded,
    is_bid,
    is_discard,
    is_trump_action,
    named_suit,
    parse_action_code,
    point_roles,
    trick_winner_full,
    trumps_of,
)
from game.engine.view import SeatView

from . import grades
from .explain import MATCH_VALUE, Explanation, verdict_words
from .positions import AnalysedPosition, Option

# the most cards a discard's words name one by one: a longer one is told by what it keeps
NAMED_DISCARD = 4


def explain(position: AnalysedPosition, chosen_code: str) -> list[str]:
    """A few short paragraphs, the player's then the details: ``explained(...).all()``."""
    return explained(position, chosen_code).all()


def explained(position: AnalysedPosition, chosen_code: str) -> Explanation:
    """Why the best option is best and what the choice costs, in the table's words."""
    chosen = position.option(chosen_code)  # PositionError if it is not a choice here
    view = position.view()
    judged = grades.verdict_of(position, chosen_code)
    return Explanation(
        judged,
        (_deciding(position, view, chosen, judged), _game(view)),
        (_figures(position, view, chosen, judged),),
    )


# --- The deciding fact and the verdict ------------------------------------------------------


def _deciding(
    position: AnalysedPosition, view: SeatView, chosen: Option, judged: grades.Verdict
) -> str:
    """What the cards say about the best option and the one set against it (the choice,
    or the next best), then the verdict on the choice."""
    best = position.best
    facts = [_fact(best.code, view)]
    if len(position.options) < 2:
        return " ".join(f for f in [*facts, "It is the only choice."] if f)
    other = chosen if chosen.code != best.code else position.options[1]
    facts.append(_against(best, other, view))
    return " ".join(f for f in [*facts, _verdict_sentence(position, view, chosen, judged)] if f)


def _fact(code: str, view: SeatView) -> str:
    """ "Naming clubs, you hold 4 trumps: ..." the best option's reason, as a sentence."""
    reason = _reason(code, view)
    return f"{capital(doing(code, view))}: {reason}." if reason else ""


def _against(best: Option, other: Option, view: SeatView) -> str:
    """What the other option does differently, in cards: what a discard throws, the
    trumps another suit holds, the capture a card risks."""
    first, second = parse_action_code(best.code), parse_action_code(other.code)
    if is_discard(first) and is_discard(second):
        throws = cards_of(discarded(second) & ~discarded(first))
        keeps = cards_of(discarded(first) & ~discarded(second))
        named = [[trump_card(c, view.trumps) for c in cards] for cards in (throws, keeps)]
        return (
            f"{capital(doing(other.code, view))} throws {listed(named[0])} and keeps "
            f"{listed(named[1])}."
        )
    if is_trump_action(first) and is_trump_action(second):
        return f"{capital(doing(other.code, view))}: {_trumps_held(view, named_suit(second))}."
    if is_bid(first) and is_bid(second):
        amount = bid_amount(second)
        whole = " (every one of them)" if amount == view.rules.point_count else ""
        return f"{capital(doing(other.code, view))} promises {amount}{whole}."
    return _fact(other.code, view)


def _verdict_sentence(
    position: AnalysedPosition, view: SeatView, chosen: Option, judged: grades.Verdict
) -> str:
    if position.phase == "discard":  # a discard's words are long: said once, above
        return verdict_words(judged, "your discard", "the best discard")
    return verdict_words(judged, doing(chosen.code, view), doing(position.best.code, view))


def _figures(
    position: AnalysedPosition, view: SeatView, chosen: Option, judged: grades.Verdict
) -> str:
    """Match value, its standard errors and the deals behind it."""
    best = position.best
    text = (
        f"Over {position.deals} deals sampled from what you can see, each choice played out "
        f"to the round's end, {doing(best.code, view)} is worth "
        f"{grades.points(best.value, signed=True)} in match value"
    )
    if chosen.code != best.code:
        rank = [o.code for o in position.options].index(chosen.code) + 1
        text += (
            f" and {doing(chosen.code, view)} {grades.points(chosen.value, signed=True)}, "
            f"{ordinal(rank)} of {len(position.options)}"
        )
    elif len(position.options) > 1:
        second = position.options[1]
        text += (
            f"; the next best, {doing(second.code, view)}, "
            f"{grades.points(second.value, signed=True)}"
        )
    text += f". {MATCH_VALUE}"
    if judged.best and len(position.options) > 1:
        second = position.options[1]
        text += (
            f" The best leads the next by {grades.points(position.margin)} match points "
            f"(standard error {grades.points(second.margin_error(best))})."
        )
    elif judged.tie:
        text += " The two show the same match value: they are level."
    elif judged.noise:
        text += (
            f" They are {grades.points(judged.cost)} match points apart (standard error "
            f"{grades.points(judged.error)}): within {grades.Z:g} standard errors, a "
            "difference chance alone could make."
        )
    elif not judged.best:
        text += (
            f" The choice costs about {grades.points(judged.cost)} match points (standard "
            f"error {grades.points(judged.error)})"
        )
        step = judged.step
        if judged.thin or step.grade == grades.LEVEL:
            text += "."
        else:
            text += f"; {step.said} costs {grades.points(step.start)} or more."
    if grades.is_thin(position.deals):
        text += (
            f" Only {position.deals} deals were sampled, fewer than the {grades.MIN_DEALS} "
            "a grade needs: take these figures as a rough guide."
        )
    return text


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
            f"({', '.join(notation.point_names(view.rules))}), and a miss costs all {amount}"
        )
    if code == "pass":
        return ""
    return _card_reason(action, view)


def _card_reason(card: int, view: SeatView) -> str:
    capture = capture_words(card, view)
    if capture:
        return capture
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
    if not held:
        return f"with {notation.suit_name(suit)} trump you hold no trump"
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


# --- Captures ------------------------------------------------------------------------------


def capture_words(card: int, view: SeatView) -> str:
    """Whether a card that scores for whoever captures it (the jack, the jick, a joker) can
    be captured if played now, from what the seat can see: the card in this trick that
    outranks it, or how many trumps it has not seen do; said of "it", after the card's
    name ("Leading the high joker: ..."). Empty for any other card."""
    trumps = view.trumps
    if trumps is None or not point_roles(view.rules.points, trumps)[0] >> card & 1:
        return ""
    trick = view.current_trick
    if trick:
        played = [c for _, c in trick]
        winner_seat, winning = trick[trick_winner_full(played, trumps)]
        if trumps.strength[winning] > trumps.strength[card]:
            who = _whose(view, winner_seat)
            their = trump_card(winning, trumps).removeprefix("the ")
            if view.unit_of[winner_seat] == view.unit:
                return f"{who} {their} is winning this trick, so it would score for your side"
            return (
                f"{who} {their} in this trick outranks it, so played now it is captured "
                "unless a later card takes the trick"
            )
    strength = trumps.strength[card]
    above = [c for c in cards_of(view.unseen & trumps.cards) if trumps.strength[c] > strength]
    if above:
        return (
            f"{len(above)} higher trump{'s' * (len(above) != 1)} you have not seen could "
            "capture it, a point to whoever takes it"
        )
    return "no trump you have not seen outranks it: nobody can capture it"


def _whose(view: SeatView, seat: int) -> str:
    if view.unit_of[seat] == view.unit and seat != view.seat:
        return "your partner's"
    return "an opponent's"


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


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]
