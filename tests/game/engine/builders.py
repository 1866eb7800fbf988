"""Exact positions for rule tests: deals written as card codes, actions as codes."""

from __future__ import annotations

from random import Random

from game.engine.cards import cards_of, mask_of, parse_card
from game.engine.rules import PASS, bid_action, parse_action_code
from game.engine.state import Deal, MatchSetup, RoundState, shuffle_deal


def cards(*codes: str) -> int:
    return mask_of(parse_card(code) for code in codes)


def deal(setup: MatchSetup, hands: dict[int, list[str]], dealer: int = 0, seed: int = 0) -> Deal:
    """A deal where the given seats hold exactly the given cards; the rest is shuffled."""
    fixed = {seat: cards(*codes) for seat, codes in hands.items()}
    taken = 0
    for mask in fixed.values():
        taken |= mask
    rest = cards_of(setup.deck & ~taken)
    Random(seed).shuffle(rest)
    dealt = []
    for seat in range(setup.players):
        if seat in fixed:
            dealt.append(fixed[seat])
        else:
            dealt.append(mask_of(rest[:6]))
            rest = rest[6:]
    return Deal(dealer, tuple(dealt), mask_of(rest))


def default_setup(players: int) -> MatchSetup:
    """Two partnerships when the seats split evenly, otherwise everyone for themselves."""
    if players % 2 == 0:
        return MatchSetup.partnerships(players, 2)
    return MatchSetup.cutthroat(players)


def round_with(hands: dict[int, list[str]], players: int = 4, dealer: int = 0) -> RoundState:
    setup = default_setup(players)
    return RoundState(setup, deal(setup, hands, dealer))


def act(state: RoundState, *codes: str) -> RoundState:
    """Apply actions written as ``bid:N``, ``pass`` or card codes."""
    for code in codes:
        state = state.apply(parse_action_code(code))
    return state


def auction_won_by(state: RoundState, seat: int, amount: int = 2) -> RoundState:
    """Everyone passes except ``seat``, who bids ``amount``."""
    while state.in_auction():
        bidding = state.current_player() == seat
        state = state.apply(bid_action(amount) if bidding else PASS)
    return state


def random_round(setup: MatchSetup, rng: Random, dealer: int = 0) -> RoundState:
    return RoundState(setup, shuffle_deal(setup, dealer, rng))


def full_deal(
    setup: MatchSetup,
    hands: dict[int, list[str]],
    *,
    dealer: int = 0,
    pack_top: list[str] = (),
    seed: int = 0,
) -> Deal:
    """A full-deck deal where the given seats hold the given cards and ``pack_top`` lies on
    top of the undealt pack, in order; the rest is shuffled."""
    size = setup.rules.deal
    fixed = {seat: cards(*codes) for seat, codes in hands.items()}
    top = [parse_card(code) for code in pack_top]
    taken = mask_of(top)
    for mask in fixed.values():
        taken |= mask
    rest = cards_of(setup.deck & ~taken)
    Random(seed).shuffle(rest)
    dealt = []
    for seat in range(setup.players):
        if seat in fixed:
            dealt.append(fixed[seat])
        else:
            dealt.append(mask_of(rest[:size]))
            rest = rest[size:]
    pack = tuple(top + rest)
    return Deal(dealer, tuple(dealt), mask_of(pack), pack)
