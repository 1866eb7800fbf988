"""A discard read as a player makes it: the cards tapped to keep, or the cards tapped to
throw (``keep:AS,2S``, ``throw:9H,3C``), or a whole discard as the record writes it
(``discard:9H,3C``). The cards the seat's rule fixes are never tapped: a card that must
stay is kept and a card that must go is thrown, whatever the mode. Anything the rule does
not allow is refused with the reason in words. The live table and the trainer read their
discards here.
"""

from __future__ import annotations

from .cards import card_code, cards_of, parse_card
from .rules import discarded, is_discard, parse_action_code
from .view import SeatView

MODES = ("keep", "throw")
TAPPED = ("keep:", "throw:")  # how a discard chosen by its taps begins


class DiscardRefused(ValueError):
    """A discard the rule does not allow, or an answer that is no discard; the message is
    for a person."""


def discard_chosen(view: SeatView, choice: str) -> int:
    """The cards ``choice`` throws from the seat's hand, as a mask: from the chooser's
    taps (``keep:...``, ``throw:...``) or a whole discard (``discard:...``); a discard
    the seat's rule does not allow raises ``DiscardRefused`` saying why."""
    rule, hand = view.discard_rule, view.hand
    if rule is None:
        raise DiscardRefused("There is no discard to make here.")
    mode, _, listed = choice.partition(":")
    if mode == "discard":
        try:
            action = parse_action_code(choice)
        except ValueError as error:
            raise DiscardRefused(_refused(str(error))) from None
        if not is_discard(action):
            raise DiscardRefused(_refused(f"{choice[:12]!r} is no discard"))
        thrown = discarded(action)
        if not rule.allows(thrown):
            raise DiscardRefused(_refused(rule.why_not(thrown, hand)))
        return thrown
    if mode not in MODES:
        raise DiscardRefused(
            f"{choice[:12]!r} is no discard: tap the cards to keep, or those to throw."
        )
    tapped = _cards(listed)
    if tapped & ~hand:
        raise DiscardRefused(_refused(rule.why_not(tapped, hand)))
    stay = hand & ~rule.may
    if mode == "keep":
        if tapped & rule.must:
            first = card_code(cards_of(tapped & rule.must)[0])
            raise DiscardRefused(_refused(f"{first} must be discarded"))
        kept = tapped | stay
        thrown = hand & ~kept
        keep = hand.bit_count() - rule.count
        if kept.bit_count() != keep:
            raise DiscardRefused(
                _refused(f"keep {keep} card{'s' * (keep != 1)}, not {kept.bit_count()}")
            )
    else:
        if tapped & stay:
            first = card_code(cards_of(tapped & stay)[0])
            raise DiscardRefused(_refused(f"{first} may not be discarded"))
        thrown = tapped | rule.must
    if not rule.allows(thrown):
        raise DiscardRefused(_refused(rule.why_not(thrown, hand)))
    return thrown


def _cards(listed: str) -> int:
    mask = 0
    for code in filter(None, listed.split(",")):
        try:
            card = parse_card(code)
        except ValueError:
            raise DiscardRefused(_refused(f"{code[:4]!r} is not a card")) from None
        if mask >> card & 1:
            raise DiscardRefused(_refused(f"{card_code(card)} is chosen twice"))
        mask |= 1 << card
    return mask


def _refused(why: str) -> str:
    return f"That discard is not allowed: {why}."
