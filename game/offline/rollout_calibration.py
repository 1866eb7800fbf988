"""How well the rollouts' prices foretell a full-deck round: self-play, price against outcome.

    python -m game.offline.calibration --rules classic [--rounds 120] [--budget-ms 100]
                                       [--play-budget-ms 25] [--players 4] [--seed 0]
                                       [--bins 5] [--reprice] [--json]

(``python -m game.offline.rollout_calibration`` takes the same options.)

    python -m game.offline.calibration --rules seven_point --bids 60 [--seed 3]

With ``--bids ROUNDS`` it fits how the expert bids at the preset instead, for the
rollouts' seats still to bid (``game.bots.rollouts.BidStyle``): experts play the rounds,
and each free choice in the auction (a raise left, no partner holding the bid) is kept
with greedy's estimate of the hand; the scale, shift and spread that make those choices
likeliest are printed, for ``rollouts.EXPERT_BIDDING``.

At a full-deck preset the expert prices its bid (or pass), the suit it names and its
discard by playing each choice out over guessed deals (``game.bots.rollouts``): a
choice's price is the mean change in the match score, ours less the others' on average,
a match won or lost counting ``MATCH_WORTH`` more. Here experts play matches against
each other at the preset; each of those decisions keeps the price of the choice made,
and, once its round is over, what the round actually played was worth to the seat by
the same measure (its *outcome*). Prices that are right on average show a bias (price
less outcome) near 0; prices that spread the rounds as much as they differ show a slope
(outcome on price) near 1.

Decisions in one round share its outcome, so the intervals count a round as one draw
(standard errors clustered by round).

At the house rules (``--rules house``, which ``game.offline.calibration`` runs with
``--check``) only the auction is priced before the tricks: there a bid's or the pass's
price is the expert's own measure, how far the round moves our lead over the best
opponent (a match won or lost ``WIN_VALUE`` more, ``game.bots.valuation``), and the
outcome is the same measure of the round played. Three players sit cutthroat (each seat
its own side), as the strength bench's three-player table does; more sit as two sides.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from random import Random

from game.bots.auction import standing
from game.bots.basic import GreedyBot, family_strength
from game.bots.expert import ExpertBot
from game.bots.rollouts import MATCH_WORTH, BidStyle, reach_chance
from game.bots.valuation import WIN_VALUE
from game.engine import variants
from game.engine.rules import Phase, bid_amount, is_bid
from game.engine.state import MatchSetup, MatchState, RoundResult
from game.engine.view import SeatView

# the phases the rollouts price, and what a decision in each is called
PRICED = {Phase.AUCTION: "auction", Phase.TRUMP: "trump", Phase.EXCHANGE: "discard"}
KINDS = ("bid", "pass", "trump", "discard")
Z95 = 1.96


@dataclass(frozen=True)
class Decision:
    """One priced choice: its kind (``KINDS``), the round it was made in (counted from 0
    over the whole run), the seat, the price of the choice made and the round's outcome."""

    kind: str
    round: int
    seat: int
    predicted: float
    realized: float
    # the choice made priced again, alone, over fresh deals (``reprice``)
    repriced: float | None = None
    # a bid at the house rules: the chance it gave its unit of making the bid if it leads,
    # and, where the unit did lead, whether it made it (None where it did not lead)
    made_chance: float | None = None
    made: bool | None = None


@dataclass(frozen=True)
class Fit:
    """Price against outcome over some decisions: means, the bias (price less outcome) and
    the slope of outcome on price, each with a 95% interval clustered by round."""

    decisions: int
    rounds: int
    predicted: float
    realized: float
    bias: float
    bias_95: tuple[float, float]
    slope: float | None
    slope_95: tuple[float, float] | None


def table_setup(rules: variants.Rules, players: int, target: int | None) -> MatchSetup:
    """Two sides, but three players at the house rules: cutthroat."""
    if rules.is_house and players == 3:
        return MatchSetup.cutthroat(players, target or rules.target, rules)
    return MatchSetup.partnerships(players, 2, target or rules.target, rules)


def default_players(rules: variants.Rules) -> int:
    """The table the strength bench plays: six at six_handed, else four."""
    return 6 if 6 in rules.players and 4 not in rules.players else 4


def self_play(
    rules: variants.Rules,
    rounds: int,
    *,
    seed: int = 0,
    players: int | None = None,
    bot=None,
    card_bot=None,
    target: int | None = None,
    reprice: bool = False,
) -> tuple[list[Decision], list[MatchState]]:
    """Play ``rounds`` rounds of matches between two sides at ``rules``, ``bot`` (an
    expert) pricing every choice before the tricks and ``card_bot`` (the same bot unless
    given) playing the cards. Returns each priced decision and the matches played.

    With ``reprice``, the choice made is priced once more, alone, over deals of its own
    (a random stream apart, so the rounds go as they would): chosen as the best of
    several noisy prices, its first price is high by the luck of its deals, a fresh one
    is not, so the two biases part what the choosing adds from what the pricing does."""
    bot = bot or ExpertBot()
    card_bot = card_bot or bot
    players = players or default_players(rules)
    setup = table_setup(rules, players, target)
    deals, choices, fresh = Random(seed), Random(f"{seed}/choices"), Random(f"{seed}/fresh")
    decisions: list[Decision] = []
    matches: list[MatchState] = []
    for number in range(rounds):
        if not matches or matches[-1].is_terminal():
            matches.append(MatchState(setup, first_dealer=deals.randrange(players)))
        match = matches[-1].deal_round(deals)
        priced: list[tuple[str, SeatView, float, float | None, float | None]] = []
        while match.current_player() is not None:
            seat = match.current_player()
            view, legal = match.view_for(seat), match.legal_actions()
            action, price, chance = _decide(bot, card_bot, view, legal, choices)
            if price is not None:
                again = _price_of(bot, view, action, fresh) if reprice else None
                priced.append((_kind(view, action), view, price, again, chance))
            match = match.apply(action, seat)
        matches[-1] = match
        result = match.round.result
        decisions += [
            Decision(
                kind,
                number,
                view.seat,
                price,
                outcome_worth(view, result),
                again,
                chance,
                result.made if chance is not None and result.bidder_unit == view.unit else None,
            )  # fmt: skip
            for kind, view, price, again, chance in priced
        ]
    return decisions, matches


def _decide(bot, card_bot, view: SeatView, legal: Sequence[int], rng: Random):
    """The action, for a choice priced before the tricks the price of the one made, and
    for a house bid its chance of being made if its unit leads: as ``ExpertBot.choose``
    decides (greedy where nothing was priced)."""
    priced = view.phase is Phase.AUCTION or not view.rules.is_house and view.phase in PRICED
    if priced and (len(legal) > 1 or view.phase is Phase.EXCHANGE):
        analysis = bot.analyse(view, legal, rng)
        if analysis.deals:
            best = analysis.actions[0]
            chance = best.auction.made if best.auction and is_bid(best.action) else None
            return best.action, best.value, chance
        return GreedyBot().choose(view, legal, rng), None, None
    return card_bot.choose(view, legal, rng), None, None


def _price_of(bot, view: SeatView, action: int, rng: Random) -> float | None:
    """The price of ``action`` alone over deals drawn from ``rng``."""
    for stats in bot.analyse(view, [action], rng).actions:
        if stats.action == action:
            return stats.value
    return None


def _kind(view: SeatView, action: int) -> str:
    kind = PRICED[view.phase]
    if kind == "auction":
        return "bid" if is_bid(action) else "pass"
    return kind


def outcome_worth(view: SeatView, result: RoundResult) -> float:
    """What the round played was worth to the seat's unit, as the expert prices a choice:
    at a full-deck table (the rollouts) its change in the match score less the others' on
    average, a match won or lost counting MATCH_WORTH more; at the house rules the change
    in its lead over the best opponent, a match won or lost WIN_VALUE more (a redealt
    round is worth nothing)."""
    if view.rules.is_house:
        value = _lead(result.match_after, view.unit) - _lead(view.scores, view.unit)
        if result.winner is not None:
            value += WIN_VALUE if result.winner == view.unit else -WIN_VALUE
        return value
    gains = [after - before for after, before in zip(result.match_after, view.scores, strict=True)]
    others = [gain for unit, gain in enumerate(gains) if unit != view.unit]
    value = gains[view.unit] - sum(others) / len(others)
    if result.winner is not None:
        value += MATCH_WORTH if result.winner == view.unit else -MATCH_WORTH
    return value


def _lead(scores: Sequence[int], unit: int) -> int:
    return scores[unit] - max(score for u, score in enumerate(scores) if u != unit)


# --- The report ---------------------------------------------------------------------------


def fit(decisions: Sequence[Decision]) -> Fit:
    """Bias and slope over ``decisions`` with round-clustered 95% intervals."""
    n = len(decisions)
    if not n:
        raise ValueError("no decisions to fit")
    xs = [d.predicted for d in decisions]
    ys = [d.realized for d in decisions]
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    bias = mean_x - mean_y
    clusters = _clusters(decisions)
    spread = _clustered([d.predicted - d.realized - bias for d in decisions], clusters)
    bias_se = spread / n
    sxx = sum((x - mean_x) ** 2 for x in xs)
    slope = slope_95 = None
    if sxx > 1e-12:
        slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / sxx
        residuals = [y - mean_y - slope * (x - mean_x) for x, y in zip(xs, ys, strict=True)]
        terms = [(x - mean_x) * r for x, r in zip(xs, residuals, strict=True)]
        slope_se = _clustered(terms, clusters) / sxx
        slope_95 = (slope - Z95 * slope_se, slope + Z95 * slope_se)
    return Fit(
        decisions=n,
        rounds=len(set(clusters)),
        predicted=mean_x,
        realized=mean_y,
        bias=bias,
        bias_95=(bias - Z95 * bias_se, bias + Z95 * bias_se),
        slope=slope,
        slope_95=slope_95,
    )


def _clusters(decisions: Sequence[Decision]) -> list[int]:
    return [d.round for d in decisions]


def _clustered(terms: Sequence[float], clusters: Sequence[int]) -> float:
    """The square root of the sum over clusters of each cluster's summed terms squared,
    with the small-sample factor C / (C - 1) (0 with a single cluster)."""
    sums: dict[int, float] = {}
    for term, cluster in zip(terms, clusters, strict=True):
        sums[cluster] = sums.get(cluster, 0.0) + term
    count = len(sums)
    if count < 2:
        return 0.0
    return math.sqrt(sum(s * s for s in sums.values()) * count / (count - 1))


def by_price(decisions: Sequence[Decision], bins: int) -> list[tuple[float, float, Fit]]:
    """The decisions in ``bins`` groups of (nearly) equal size by price, lowest first:
    (lowest price, highest price, their fit)."""
    ordered = sorted(decisions, key=lambda d: d.predicted)
    groups = []
    for index in range(bins):
        group = ordered[index * len(ordered) // bins : (index + 1) * len(ordered) // bins]
        if group:
            groups.append((group[0].predicted, group[-1].predicted, fit(group)))
    return groups


def report(decisions: Sequence[Decision], bins: int = 5) -> dict:
    """Each kind's fit, all decisions', and the auction's (bids and passes) by price;
    where the choices were priced again, the same fits of the fresh prices."""
    kinds = {kind: [d for d in decisions if d.kind == kind] for kind in KINDS}
    auction = kinds["bid"] + kinds["pass"]
    figures = {
        **_fits(decisions),
        "auction_by_price": [
            {"from": low, "to": high, **asdict(found)}
            for low, high, found in by_price(auction, bins)
        ],
    }
    led = [d for d in decisions if d.made is not None and d.made_chance is not None]
    if led:
        figures["bids_led"] = {
            "bids": len(led),
            "made_chance": sum(d.made_chance for d in led) / len(led),
            "made": sum(d.made for d in led) / len(led),
        }
    again = [replace(d, predicted=d.repriced) for d in decisions if d.repriced is not None]
    if again:
        figures["repriced"] = _fits(again)
    return figures


def _fits(decisions: Sequence[Decision]) -> dict:
    kinds = {kind: [d for d in decisions if d.kind == kind] for kind in KINDS}
    return {
        "kinds": {kind: asdict(fit(found)) for kind, found in kinds.items() if found},
        "all": asdict(fit(decisions)),
    }


def _interval(low_high) -> str:
    return "-" if low_high is None else f"{low_high[0]:+.2f} to {low_high[1]:+.2f}"


def print_report(figures: dict, heading: str) -> None:
    print(heading)
    _print_fits(figures)
    if "repriced" in figures:
        print("the choices made, priced again alone over fresh deals:")
        _print_fits(figures["repriced"])
    if "bids_led" in figures:
        led = figures["bids_led"]
        print(
            f"bids that led: {led['bids']}, made {led['made']:.0%} "
            f"(the chance the auction gave them: {led['made_chance']:.0%})"
        )
    if figures["auction_by_price"]:
        print("auction (bids and passes) by price:")
        print(f"{'price':<18}{'n':>6}{'price':>8}{'outcome':>9}  bias (95%)")
        for row in figures["auction_by_price"]:
            span = f"{row['from']:+.1f} to {row['to']:+.1f}"
            print(
                f"{span:<18}{row['decisions']:>6}{row['predicted']:>+8.2f}"
                f"{row['realized']:>+9.2f}  {row['bias']:+.2f} ({_interval(row['bias_95'])})"
            )


def _print_fits(figures: dict) -> None:
    print(f"{'decision':<10}{'n':>6}{'rounds':>8}{'price':>8}{'outcome':>9}  bias (95%)"
          f"{'':<18}slope (95%)")  # fmt: skip
    rows = [*figures["kinds"].items(), ("all", figures["all"])]
    for name, row in rows:
        slope = "-" if row["slope"] is None else f"{row['slope']:.2f}"
        print(
            f"{name:<10}{row['decisions']:>6}{row['rounds']:>8}{row['predicted']:>+8.2f}"
            f"{row['realized']:>+9.2f}  {row['bias']:+.2f} ({_interval(row['bias_95'])})"
            f"{'':<4}{slope} ({_interval(row['slope_95'])})"
        )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of a run, but ``--rules``, ``--seed`` and ``--players`` (which the hand
    model's fit reads too)."""
    parser.add_argument("--rounds", type=int, default=120, help="rounds of self-play")
    parser.add_argument("--budget-ms", type=float, default=100.0, help="the expert's budget")
    parser.add_argument(
        "--play-budget-ms", type=float, help="its budget in the tricks (default: --budget-ms)"
    )
    parser.add_argument("--bins", type=int, default=5, help="groups of the auction by price")
    parser.add_argument(
        "--reprice", action="store_true", help="price each choice made again over fresh deals"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


# --- The expert's own bidding -------------------------------------------------------------


@dataclass(frozen=True)
class BidChoice:
    """A free choice of the expert's in a full-deck auction: greedy's estimate of its hand
    (``family_strength``), the least bid it could make, and the bid made (0: a pass)."""

    estimate: float
    raise_to: int
    bid: int


def free_bids(
    setup: MatchSetup, rounds: int, rng: Random, *, budget_ms: float, play_ms: float
) -> Iterator[tuple[SeatView, int]]:
    """The expert's free auction choices in ``rounds`` rounds of self-play at the layout
    (experts at every seat, ``budget_ms`` a decision in the auction, ``play_ms`` after it),
    each as (the seat's view, the action): a choice with more than one action legal and no
    partner holding the bid."""
    bidder, player = ExpertBot(budget_ms=budget_ms), ExpertBot(budget_ms=play_ms)
    match = MatchState(setup, first_dealer=rng.randrange(setup.players))
    for _ in range(rounds):
        if match.is_terminal():
            match = MatchState(setup, first_dealer=rng.randrange(setup.players))
        match = match.deal_round(rng)
        while (seat := match.current_player()) is not None:
            view, legal = match.view_for(seat), match.legal_actions()
            in_auction = view.phase is Phase.AUCTION and view.bidder is None
            action = (bidder if in_auction else player).choose(view, legal, rng)
            if in_auction and len(legal) > 1:
                state = standing(view.auction)
                if state.holder is None or view.unit_of[state.holder] != view.unit:
                    yield view, action
            match = match.apply(action, seat)


def bid_choices(
    rules: variants.Rules, rounds: int, *, seed: int, players: int, budget_ms: float, play_ms: float
) -> list[BidChoice]:
    """The expert's free auction choices in ``rounds`` rounds of self-play at ``rules``."""
    setup = table_setup(rules, players, None)
    choices = []
    for view, action in free_bids(setup, rounds, Random(seed), budget_ms=budget_ms,
                                  play_ms=play_ms):  # fmt: skip
        raise_to = max(standing(view.auction).high + 1, rules.min_bid)
        bid = bid_amount(action) if is_bid(action) else 0
        choices.append(BidChoice(family_strength(view.hand, rules)[0], raise_to, bid))
    return choices


def fit_bidding(choices: Sequence[BidChoice]) -> tuple[BidStyle, float]:
    """The style most likely to make ``choices`` (a pass: the judgement fell short of the
    raise; a bid: it reached the bid): on a grid by 0.5, then by 0.1 around the best; and
    its log-likelihood."""

    def log_likelihood(style: BidStyle) -> float:
        total = 0.0
        for choice in choices:
            reach = reach_chance(style, choice.estimate, choice.bid or choice.raise_to)
            total += math.log(max(1e-9, reach if choice.bid else 1.0 - reach))
        return total

    coarse = [
        BidStyle(a / 2, b / 2, c / 2) for a in range(4) for b in range(-4, 9) for c in range(1, 7)
    ]
    best = max(coarse, key=log_likelihood)
    fine = [
        BidStyle(best.scale + a / 10, best.shift + b / 10, best.spread + c / 10)
        for a in range(-5, 6)
        for b in range(-5, 6)
        for c in range(-5, 6)
        if best.scale + a / 10 >= 0 and best.spread + c / 10 >= 0.2
    ]
    best = max(fine, key=log_likelihood)
    return BidStyle(*(round(x, 2) for x in (best.scale, best.shift, best.spread))), log_likelihood(
        best
    )


def run_bids(rules: variants.Rules, args: argparse.Namespace, players: int) -> BidStyle:
    play_ms = args.play_budget_ms or args.budget_ms / 4
    started = time.perf_counter()
    choices = bid_choices(
        rules, args.bids, seed=args.seed, players=players, budget_ms=args.budget_ms, play_ms=play_ms
    )
    style, likelihood = fit_bidding(choices)
    bids = sum(1 for choice in choices if choice.bid)
    print(
        f"{rules.preset}, {players} players, {args.bids} rounds: the expert bid {bids} of "
        f"{len(choices)} free choices; {style} (log-likelihood {likelihood:.1f}), "
        f"{time.perf_counter() - started:.0f} s"
    )
    return style


def run(rules_name: str, args: argparse.Namespace, players: int | None = None) -> dict:
    """Self-play at a preset (or a record's rules object), its report printed."""
    text = rules_name
    rules = variants.from_record(json.loads(text) if text.startswith("{") else text)
    players = players or default_players(rules)
    if getattr(args, "bids", None):
        return {"bidding": asdict(run_bids(rules, args, players))}
    play_ms = args.play_budget_ms or args.budget_ms
    started = time.perf_counter()
    decisions, matches = self_play(
        rules, args.rounds, seed=args.seed, players=players,
        bot=ExpertBot(budget_ms=args.budget_ms), card_bot=ExpertBot(budget_ms=play_ms),
        reprice=args.reprice,
    )  # fmt: skip
    figures = report(decisions, args.bins)
    figures["setup"] = {
        "rules": rules.to_record(), "players": players, "rounds": args.rounds,
        "matches": len(matches), "budget_ms": args.budget_ms, "play_budget_ms": play_ms,
        "seed": args.seed, "seconds": round(time.perf_counter() - started, 1),
    }  # fmt: skip
    if args.json:
        print(json.dumps(figures))
    else:
        print_report(
            figures,
            f"{rules.preset}, {players} players, {args.rounds} rounds in {len(matches)} "
            f"matches, expert at {args.budget_ms:g} ms ({play_ms:g} ms in the tricks), seed "
            f"{args.seed}: price and outcome in match points ({_measure(rules)})",
        )
    return figures


def _measure(rules: variants.Rules) -> str:
    if rules.is_house:
        return f"our lead over the best opponent, a match {WIN_VALUE:g} more"
    return f"ours less the others', a match {MATCH_WORTH:g} more"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", required=True, help="a full-deck preset or rules object")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, help="seats (default: 6 at six_handed, else 4)")
    parser.add_argument("--bids", type=int, metavar="ROUNDS", help="fit the expert's bidding")
    add_arguments(parser)
    args = parser.parse_args()
    run(args.rules, args, args.players)


if __name__ == "__main__":
    main()
