"""The choices before the tricks at a full-deck table, priced by playing them out.

For a bid, the suit to name and the discard, the expert guesses what its seat cannot
see in ways consistent with what it has seen, builds the round each guess makes
(``game.engine.worlds``) and plays every choice to the round's end in the same deals,
greedy's rules at every seat. The choice with the best mean change in the match score
wins: a rollout of a sound policy prices the alternatives better than the policy picks
among them. A guess counts as likely as greedy's choices make what the others did in
the auction and in naming trump (``MISMATCH`` where greedy would have done otherwise).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import product
from math import comb
from random import Random

from game.engine.cards import RANK_OF, SUIT_OF, cards_of
from game.engine.rules import (
    PASS,
    Phase,
    bid_action,
    bid_amount,
    discard_action,
    is_discard,
    settle_round,
    trump_action,
    trumps_dealt,
)
from game.engine.solver import Position
from game.engine.variants import PRESETS, Rules
from game.engine.view import SeatView
from game.engine.worlds import world

from .auction import standing
from .basic import GreedyBot, family_strength
from .playout import play_out
from .pricing import Prices

POLICY = GreedyBot()
# how much a guess counts for each public choice greedy would not have made with it
MISMATCH = 0.35
# match points a won (or lost) match is worth beyond the round's own
MATCH_WORTH = 10.0
# the discards priced at once: the rest are dominated or too unlike greedy's to matter
MAX_DISCARDS = 10
# guesses tried for each one that gives the seat's view, before giving up
GUESS_TRIES = 20


@dataclass(frozen=True)
class BidStyle:
    """How a seat bids in this model: it judges its hand at ``scale`` times greedy's
    estimate (``family_strength``) plus ``shift``, give or take ``spread`` (a standard
    deviation, drawn once per deal), and raises the high bid by one (or opens at the
    least bid) where that judgement, rounded, reaches the raise; it never overbids a
    partner."""

    scale: float
    shift: float
    spread: float


# The expert's own bidding at each preset (its usual table: four seats, six at
# six_handed), fitted by maximum likelihood to its free choices in self-play at 100 ms
# (``game.offline.rollout_calibration --bids``), where it does not lower the expert's
# strength (bench/RESULTS.md); elsewhere, and at a preset with other options, the later
# seats bid by greedy's rule. Seven_point's fit, BidStyle(0.4, 2.6, 1.5), lost 18 of 48
# fair matches to expert-v2: not used.
EXPERT_BIDDING = {
    "classic": BidStyle(0.9, 0.8, 0.6),
}


def price(view: SeatView, legal: Sequence[int], rng: Random, *, budget_ms: float,
          max_deals: int, own_bidding: bool = False) -> Prices:  # fmt: skip
    """The choices in the auction (``legal``), in naming trump (``legal``) or in the
    exchange (the discards worth pricing, and any discard ``legal`` names: the review
    prices the one a player made), each priced over the same deals. ``own_bidding``: in
    the auction the seats still to bid bid as the expert does at the preset, where that
    was fitted (``EXPERT_BIDDING``), else by greedy's rule."""
    deadline = time.perf_counter() + budget_ms / 1000
    if view.phase is Phase.AUCTION:
        style = bid_style(view.rules) if own_bidding else None
        prices = _auction(view, legal, rng, deadline, max_deals, style)
    else:
        choices = list(legal)
        if view.phase is Phase.EXCHANGE:
            named = [a for a in legal if is_discard(a)]
            choices = _discards(view)
            choices += [a for a in named if a not in choices]
        prices = _each(view, choices, rng, deadline, max_deals)
    return prices


def price_each(view: SeatView, choices: Sequence[int], rng: Random, *, budget_ms: float,
               max_deals: int) -> Prices:  # fmt: skip
    """Exactly ``choices`` (suits to name, or discards) played out in the same deals, and
    no other: pricing one discard against another, where the rest need no price, costs a
    fifth of pricing every discard worth pricing (the trainer grading a discard the
    expert had not priced, ``learn.core.discards``)."""
    deadline = time.perf_counter() + budget_ms / 1000
    return _each(view, list(choices), rng, deadline, max_deals)


def _each(view, choices, rng, deadline, max_deals) -> Prices:
    """Every choice (a suit to name, a discard) played out in each deal."""
    prices = Prices(choices)
    while prices.deals < max_deals and time.perf_counter() < deadline:
        guess = _guess(view, rng)
        if guess is None:
            break
        start, weight = guess
        values = {c: _worth(view, _play_out(start.apply(c), rng)) for c in choices}
        prices.add(values, weight)
    return prices


def _auction(view, legal, rng, deadline, max_deals, style: BidStyle | None = None) -> Prices:
    """Passing and each bid, in the same deals. A bid nobody overbids is priced as our
    side leading with the suit that does best over all the deals, so each suit is played
    out once per deal; a bid that is overbid, and the pass, are played out as they go.
    With a ``style`` the seats after ours bid by it, each judging its hand once a deal
    (the same judgement after every choice of ours), else by greedy's rule."""
    bids = [a for a in legal if a != PASS]
    prices = Prices(legal)
    led: list[dict[int, tuple[int, ...]]] = []  # per deal: each suit's points when we lead
    kept: list[tuple[dict[int, float | None], float]] = []
    while len(kept) < max_deals and time.perf_counter() < deadline:
        guess = _guess(view, rng)
        if guess is None:
            break
        start, weight = guess
        judged = _judgements(start, view.seat, style, rng) if style else None
        if bids:
            ours = _close_auction(start.apply(bids[0]), everyone_passes=True)
            led.append({s: _play_out(ours.apply(trump_action(s)), rng)[0] for s in range(4)})
        values: dict[int, float | None] = {}
        for action in legal:
            after = _close_auction(start.apply(action), everyone_passes=False, judged=judged)
            ours_to_name = after.phase() is Phase.TRUMP and after.current_player() == view.seat
            values[action] = None if ours_to_name else _worth(view, _play_out(after, rng))
        kept.append((values, weight))
    suit = _best_suit(view, led, [w for _, w in kept]) if led else None
    for index, (values, weight) in enumerate(kept):
        priced = {
            action: _worth(view, (led[index][suit], view.unit, bid_amount(action)))
            if value is None
            else value
            for action, value in values.items()
        }
        prices.add(priced, weight)
    return prices


def _best_suit(view, led, weights) -> int:
    def mean_margin(suit: int) -> float:
        return sum(w * _margin(view, deal[suit]) for deal, w in zip(led, weights, strict=True))

    return max(range(4), key=mean_margin)


def _margin(view: SeatView, raw: tuple[int, ...]) -> float:
    others = [points for unit, points in enumerate(raw) if unit != view.unit]
    return raw[view.unit] - sum(others) / len(others)


def _worth(view: SeatView, outcome: tuple[tuple[int, ...], int, int] | None) -> float:
    """What a round's outcome (each unit's points, the bidder's unit and the bid; None for
    a redeal) is worth to the seat's unit."""
    if outcome is None:
        return 0.0
    raw, bidder_unit, bid = outcome
    scoring = settle_round(
        scores=view.scores,
        raw=raw,
        bidder_unit=bidder_unit,
        bid=bid,
        target=view.target,
        capped=view.rules.non_bidders_capped,
    )
    return _score_worth(view, scoring.match_after, scoring.winner)


def _score_worth(view: SeatView, after: tuple[int, ...], winner: int | None) -> float:
    """Our change in the match score less the others' on average, a match won or lost
    counted in full."""
    gains = tuple(a - b for a, b in zip(after, view.scores, strict=True))
    value = _margin(view, gains)
    if winner is not None:
        value += MATCH_WORTH if winner == view.unit else -MATCH_WORTH
    return value


# --- Playing a world out ----------------------------------------------------------------


def _close_auction(state, *, everyone_passes: bool, judged: dict[int, float] | None = None):
    """The auction to its end: everyone passing, or each seat bidding by its judgement of
    its hand (``judged``, by seat: ``styled_bid``), else by greedy's rule."""
    while state.phase() is Phase.AUCTION:
        seat = state.current_player()
        if everyone_passes:
            action = PASS
        elif judged is not None:
            action = styled_bid(state.view_for(seat), judged[seat])
        else:
            action = _policy(state.view_for(seat))
        state = state.apply(action)
    return state


def bid_style(rules: Rules) -> BidStyle | None:
    """The expert's fitted bidding at these rules: a preset as it stands (to any target),
    else None."""
    base = PRESETS.get(rules.preset)
    if rules.preset not in EXPERT_BIDDING or replace(rules, target=base.target) != base:
        return None
    return EXPERT_BIDDING[rules.preset]


def _judgements(state, seat: int, style: BidStyle, rng: Random) -> dict[int, float]:
    """What each other seat judges its hand worth in this world (``BidStyle``)."""
    rules = state.setup.rules
    return {
        other: style.scale * family_strength(state.hands[other], rules)[0]
        + style.shift
        + rng.gauss(0.0, style.spread)
        for other in range(state.setup.players)
        if other != seat
    }


def styled_bid(view: SeatView, judged: float) -> int:
    """A seat's bid that judges its hand at ``judged`` points (``BidStyle``): one more than
    the high bid (the least bid to open) where the judgement, rounded, reaches it and no
    partner holds the bid; else a pass."""
    rules = view.rules
    state = standing(view.auction)
    raise_to = max(state.high + 1, rules.min_bid)
    partner_holds = state.holder is not None and view.unit_of[state.holder] == view.unit
    if partner_holds or raise_to > rules.max_bid or math.floor(judged + 0.5) < raise_to:
        return PASS
    return bid_action(raise_to)


def _play_out(state, rng: Random) -> tuple[tuple[int, ...], int, int] | None:
    """Each unit's points, the bidder's unit and the bid once the world is played to its
    end (None if it is redealt): the engine up to the first card, then ``playout``."""
    while state.phase() not in (Phase.PLAY, Phase.OVER):
        state = state.apply(_policy(state.view_for(state.current_player()), rng))
    if state.phase() is Phase.OVER:
        return None
    views = [state.view_for(seat) for seat in range(state.setup.players)]
    first = views[0]
    position = Position(
        unit_of=first.unit_of,
        hands=tuple(v.hand for v in views),
        dealt=tuple(v.hand for v in views),
        trump=first.trump,
        leader=first.leader,
        table=first.rules,
    )
    return play_out(position), first.unit_of[first.bidder], first.bid


def _policy(view: SeatView, rng: Random | None = None) -> int:
    return POLICY.choose(view, view.legal_actions(), rng)


# --- Guessing what the seat cannot see -----------------------------------------------------


def _guess(view: SeatView, rng: Random):
    """A world consistent with the view at its decision, and how likely the others'
    public choices make it; None if no guess fits within a few tries."""
    for _ in range(GUESS_TRIES):
        dealt_pack = _deal(view, rng)
        if dealt_pack is None:
            continue
        evidence = _Evidence()
        found = world(view, *dealt_pack, discard_for=_policy, observe=evidence)
        if found is not None:
            return found, evidence.weight
    return None


class _Evidence:
    """How likely a guess makes the others' public choices, as greedy would choose."""

    def __init__(self) -> None:
        self.weight = 1.0

    def __call__(self, seen: SeatView, action: int) -> None:
        if _policy(seen) != action:
            self.weight *= MISMATCH


def reach_chance(style: BidStyle, estimate: float, amount: int) -> float:
    """The chance that a seat bidding by ``style`` whose hand greedy estimates at
    ``estimate`` judges it worth ``amount`` or more, rounded."""
    centre = style.scale * estimate + style.shift
    return 0.5 * math.erfc((amount - 0.5 - centre) / style.spread / math.sqrt(2))


def _deal(view: SeatView, rng: Random) -> tuple[list[int], list[int]] | None:
    """Each seat's dealt cards and the pack, top first: the seat's own as it knows them,
    the rest shuffled. A seat that discarded every plain card for a fill
    (``discard_and_fill``) is dealt as many trumps as its discard's size allows."""
    size = view.hand.bit_count() - view.fill.bit_count()
    trumps = view.trumps.cards if view.trumps else 0
    pool = cards_of(view.unseen)
    rng.shuffle(pool)
    held = [c for c in pool if trumps >> c & 1]
    plain = [c for c in pool if not trumps >> c & 1]
    dealt = [0] * view.players
    dealt[view.seat] = view.hand & ~view.fill
    for seat, counts in _trumps_dealt(view, size).items():
        count = _trump_count(counts, len(held), len(plain), size, rng)
        if count is None:
            return None
        cards = held[:count] + plain[: size - count]
        del held[:count], plain[: size - count]
        dealt[seat] = _mask(cards)
    rest = held + plain
    rng.shuffle(rest)
    for seat in range(view.players):
        if seat != view.seat and not dealt[seat]:
            dealt[seat] = _mask(rest[:size])
            del rest[:size]
    filled = sum(count for seat, count in enumerate(view.fill_counts) if seat != view.seat)
    return dealt, rest[:filled] + cards_of(view.fill) + rest[filled:]


def _trumps_dealt(view: SeatView, size: int) -> dict[int, tuple[int, ...]]:
    """How many trumps each other seat may have been dealt, where its discard's size says
    (``rules.trumps_dealt``): a seat that threw its plain cards for a fill. The dealer is
    left out: it discards after taking the pack."""
    every = tuple(range(size + 1))
    shapes = {}
    for seat, count in enumerate(view.discard_counts):
        if not count or seat in (view.seat, view.dealer):
            continue
        counts = trumps_dealt(
            view.rules.exchange, view.trumps, dealt=size, discarded=count, dealer=False
        )
        if counts != every:
            shapes[seat] = counts
    return shapes


def _trump_count(counts, trumps: int, plain: int, size: int, rng: Random) -> int | None:
    """One of ``counts`` of trumps for a hand of ``size`` cards from ``trumps`` trumps and
    ``plain`` other cards, each as likely as the hands that hold it; None if none can."""
    weights = [comb(trumps, count) * comb(plain, size - count) for count in counts]
    if not any(weights):
        return None
    if len(counts) == 1:
        return counts[0]
    return rng.choices(counts, weights)[0]


def _mask(cards: list[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


# --- The discards worth pricing ------------------------------------------------------------


def _discards(view: SeatView) -> list[int]:
    """Discard actions: from each suit (trump apart) the cards a player throws first,
    in every mix of how many from each suit; the likeliest few by greedy's own order, and
    greedy's choice among them."""
    rule, trumps = view.discard_rule, view.trumps
    need = rule.count - rule.must.bit_count()
    groups: dict[int, list[int]] = {}
    for card in cards_of(rule.optional):
        suit = -1 if trumps.strength[card] >= 0 else SUIT_OF[card]
        groups.setdefault(suit, []).append(card)
    for suit, cards in groups.items():
        cards.sort(key=trumps.strength.__getitem__ if suit < 0 else RANK_OF.__getitem__)
    mixes = [
        counts
        for counts in product(*(range(len(cards) + 1) for cards in groups.values()))
        if sum(counts) == need
    ]
    options = []
    for counts in mixes:
        thrown = [c for cards, n in zip(groups.values(), counts, strict=True) for c in cards[:n]]
        options.append((sum(map(_keep_worth(trumps), thrown)), rule.must | _mask(thrown)))
    options.sort()
    chosen = [discard_action(mask) for _, mask in options[:MAX_DISCARDS]]
    greedy = _policy(view)
    return chosen if greedy in chosen else [*chosen[:-1], greedy] if chosen else [greedy]


def _keep_worth(trumps) -> Callable[[int], int]:
    """How much a player wants to keep a card: trumps most, then aces and tens, by rank."""

    def worth(card: int) -> int:
        if trumps.strength[card] >= 0:
            return 100 + trumps.strength[card]
        return RANK_OF[card] + (20 if RANK_OF[card] in (8, 12) else 0)

    return worth
