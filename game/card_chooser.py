"""What the card chooser is handed (``templates/game/card_chooser.html``,
``static/game/card_chooser.js``): a discard chosen as at the table, by tapping the cards
to keep or the cards to throw. The live table and the trainer draw their discards with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import notation, rules
from game.engine.cards import cards_of


@dataclass(frozen=True)
class ChooserCard:
    code: str
    fixed: str = ""  # "keep": the rule keeps it; "throw": the rule throws it; "": tap it


@dataclass(frozen=True)
class CardChooser:
    """A discard chosen as at the table, by tapping the cards to keep or the cards to throw
    (``templates/game/card_chooser.html``, ``static/game/card_chooser.js``). The cards the
    rule fixes are shown fixed and never tapped; the mode first offered is the one that
    takes fewer taps (keeping, when both take as many: a player thinks of the hand kept).
    Built from a rule and a hand alone, for any page with a discard to make."""

    cards: tuple[ChooserCard, ...]  # the hand, in its order
    keep: int  # how many cards stay in the hand
    throw: int  # how many go

    def _fixed(self, kind: str) -> tuple[str, ...]:
        return tuple(card.code for card in self.cards if card.fixed == kind)

    @property
    def keep_taps(self) -> int:
        return self.keep - len(self._fixed("keep"))

    @property
    def throw_taps(self) -> int:
        return self.throw - len(self._fixed("throw"))

    @property
    def mode(self) -> str:
        """ "keep" or "throw": whichever takes fewer taps."""
        return "keep" if self.keep_taps <= self.throw_taps else "throw"

    @property
    def taps(self) -> int:
        return self.keep_taps if self.mode == "keep" else self.throw_taps

    @property
    def rule_words(self) -> tuple[str, ...]:
        """The rule in words, a line each."""
        size = len(self.cards)
        lines = [f"Keep {self.keep} of your {size} cards and discard {self.throw}."]
        stay, go = self._fixed("keep"), self._fixed("throw")
        if stay:
            lines.append(f"Must stay: {', '.join(map(notation.card_name, stay))}.")
        if go:
            lines.append(f"Must go: {', '.join(map(notation.card_name, go))}.")
        return tuple(lines)

    @property
    def hint(self) -> str:
        """What to tap, in the mode first offered (the page's script then counts live)."""
        taps, verb = self.taps, self.mode
        if not taps:
            return "Nothing to choose: the rule decides every card."
        fixed = len(self._fixed(verb))
        if not fixed:
            return f"Tap {taps} card{'s' * (taps != 1)} to {verb}."
        one, many = ("stays", "must stay") if verb == "keep" else ("goes", "must go")
        does = one if fixed == 1 else many
        return f"Tap {taps} more card{'s' * (taps != 1)} to {verb} ({fixed} {does})."


def card_chooser(rule: rules.DiscardRule, hand: int) -> CardChooser:
    """The chooser of a discard ``rule`` asks of ``hand``."""
    stay = hand & ~rule.may
    cards = tuple(
        ChooserCard(
            code=notation.card(card),
            fixed="throw" if rule.must >> card & 1 else "keep" if stay >> card & 1 else "",
        )
        for card in cards_of(hand)
    )
    return CardChooser(cards=cards, keep=hand.bit_count() - rule.count, throw=rule.count)
