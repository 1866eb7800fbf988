"""Seconds to price, when it is answered, a discard the trainer's analysis did not price.

    python bench/discard_pricing.py [--per-position 6] [--seed 0] [--bank PATH] [--all]

For every discard position of the full-deck starter bank, a few legal discards the
analysis did not price (drawn at random among those the seat's rule allows) are priced as
the trainer prices them at answer time (``learn.core.discards``: against the expert's
discard alone, ``ANSWER_DEALS`` deals, ``game.bots.rollouts.price_each``). Prints wall and
CPU seconds p50/p95/max per game, the deals reached, and the standard error of the margin
the verdict rests on. ``--all`` also times the other way, pricing every discard the
expert would consider with the answered one (``learn.core.analysis.price`` with ``also``,
as the review of a round does), over the same number of deals.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from random import Random

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from game.bots.expert import ExpertBot  # noqa: E402
from game.engine.cards import cards_of  # noqa: E402
from game.engine.rules import action_code, discard_action, parse_action_code  # noqa: E402
from learn.core import analysis, discards  # noqa: E402
from learn.core.positions import AnalysedPosition  # noqa: E402

BANK = REPO / "learn" / "fixtures" / "starter_family_positions.jsonl"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def unpriced(position: AnalysedPosition, rng: Random, count: int) -> list[str]:
    """Up to ``count`` legal discards the analysis did not price."""
    view = position.view()
    rule = view.discard_rule
    optional, need = cards_of(rule.optional), rule.count - rule.must.bit_count()
    priced = {o.code for o in position.options}
    found: list[str] = []
    for _ in range(count * 20):
        mask = rule.must
        for card in rng.sample(optional, need):
            mask |= 1 << card
        code = action_code(discard_action(mask))
        if code not in priced and code not in found:
            found.append(code)
        if len(found) == count:
            break
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-position", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bank", type=Path, default=BANK)
    parser.add_argument("--all", action="store_true", help="time pricing every discard too")
    args = parser.parse_args()
    rng = Random(args.seed)
    positions = [
        AnalysedPosition.from_json(json.loads(line))
        for line in args.bank.read_text().splitlines()
        if line.strip()
    ]
    positions = [p for p in positions if p.phase == "discard"]
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{len(positions)} discard positions, {args.per_position} unpriced discards each")
    wall, cpu, deals, errors = (defaultdict(list) for _ in range(4))
    wrong = defaultdict(int)
    every = defaultdict(list)
    for position in positions:
        game = f"{position.preset} {position.players}p"
        view = position.view()
        game += f" (hand {view.hand.bit_count()}, throws {view.discard_rule.count})"
        for code in unpriced(position, rng, args.per_position):
            started, cpu_started = time.perf_counter(), time.process_time()
            found = discards._priced_afresh.__wrapped__(position, code)
            wall[game].append(time.perf_counter() - started)
            cpu[game].append(time.process_time() - cpu_started)
            deals[game].append(found.deals)
            errors[game].append(found.error)
            wrong[game] += not found.correct
            if args.all:
                analyst = ExpertBot(budget_ms=60_000, max_deals=discards.ANSWER_DEALS)
                started = time.perf_counter()
                analysis.price(view, analyst, Random(code), also=[parse_action_code(code)])
                every[game].append(time.perf_counter() - started)
    for game in sorted(wall):
        w, c = wall[game], cpu[game]
        print(
            f"{game:<40} n={len(w):<3} wall p50={percentile(w, 0.5):5.2f} s "
            f"p95={percentile(w, 0.95):5.2f} s max={max(w):5.2f} s | cpu p95="
            f"{percentile(c, 0.95):5.2f} s | deals min {min(deals[game])} | margin se "
            f"p50={statistics.median(errors[game]):.2f} max={max(errors[game]):.2f} | "
            f"worse than the expert's beyond the error: {wrong[game]}/{len(w)}"
        )
        if every[game]:
            e = every[game]
            print(
                f"{'':<40} every discard worth pricing with it: wall p50="
                f"{percentile(e, 0.5):5.2f} s p95={percentile(e, 0.95):5.2f} s"
            )
    everything = [x for values in wall.values() for x in values]
    print(
        f"{'all':<40} n={len(everything):<3} wall p50={percentile(everything, 0.5):5.2f} s "
        f"p95={percentile(everything, 0.95):5.2f} s max={max(everything):5.2f} s"
    )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
