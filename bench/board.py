"""Seconds the analysis board takes to answer, per preset and table size.

    python bench/board.py [--boards 8] [--seed 0] [--budget-ms 800] [--max-deals 200]

For each table, random deals with random legal actions up to a random moment (the
auction, or some cards into the play); each board is answered as the task queue's worker
answers it (``learn.analysis_board.answers``): the expert's answer for the seat to act,
given its own hand alone, at the board's budget (``SMEAR_BOARD_EXPERT``'s default unless
told), and the exact answer with every hand given at the first lead. Prints wall seconds
p50/p95/max of each, and the machine's load before and after (it is shared).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from random import Random

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from game.engine import variants  # noqa: E402
from game.engine.board import Board, replay  # noqa: E402
from game.engine.cards import cards_of  # noqa: E402
from game.engine.rules import PASS, Phase, discard_action  # noqa: E402
from game.engine.state import MatchSetup, RoundState, shuffle_deal  # noqa: E402
from learn.analysis_board import answers  # noqa: E402

TABLES = [
    ("house", variants.HOUSE, 3),
    ("house", variants.HOUSE, 4),
    ("house", variants.HOUSE, 5),
    ("house", variants.HOUSE, 6),
    ("classic", variants.CLASSIC, 4),
    ("six_handed", variants.SIX_HANDED, 6),
    ("seven_point", variants.SEVEN_POINT, 4),
]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def random_board(rules, players: int, rng: Random, *, every_hand: bool, to_first_lead: bool):
    """A random round played at random to a random moment (or to the first lead)."""
    setup = MatchSetup.layouts(players, rules)[-1]
    dealer = rng.randrange(players)
    deal = shuffle_deal(setup, dealer, rng)
    state = RoundState(setup, deal)
    stop = 0 if to_first_lead else rng.choice([0, 0, 1, players + 1])
    actions = []
    while state.phase() is not Phase.OVER:
        if state.phase() is Phase.PLAY and stop == 0:
            break
        if not to_first_lead and state.phase() is Phase.AUCTION and rng.random() < 0.3:
            break
        if state.phase() is Phase.EXCHANGE:
            optional = cards_of(state.discard_rule().optional)
            rng.shuffle(optional)
            state = state.apply(discard_action(state.discard_rule().pick(optional)))
            actions.append((None, state.history[-1]))
            continue
        legal = state.legal_actions()
        if state.phase() is Phase.AUCTION and state.high_bid == 0 and len(legal) > 1:
            legal = [a for a in legal if a != PASS]
        action = rng.choice(legal)
        if state.phase() is Phase.PLAY:
            stop -= 1
        state = state.apply(action)
        actions.append((None, action))
    seat = state.current_player()
    hands = tuple(h if every_hand or s == seat else None for s, h in enumerate(deal.hands))
    return Board(
        rules=setup.rules,
        teams=setup.teams,
        dealer=dealer,
        scores=(0,) * setup.units,
        seat=seat,
        hands=hands,
        actions=tuple(actions),
        pack=(deal.pack or None) if every_hand else None,
    )


def report(name: str, wall: list[float]) -> None:
    print(
        f"  {name:<7} n={len(wall):<3} p50={percentile(wall, 0.5):6.2f} s "
        f"p95={percentile(wall, 0.95):6.2f} s max={max(wall):6.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget-ms", type=float, default=800.0)
    parser.add_argument("--max-deals", type=int, default=200)
    parser.add_argument("--only", default="", help="one preset's tables: house, classic, ...")
    args = parser.parse_args()
    options = {"budget_ms": args.budget_ms, "max_deals": args.max_deals}
    print(f"load before: {os.getloadavg()[0]:.2f}; expert budget {options}")
    for name, rules, players in TABLES:
        if args.only and name != args.only:
            continue
        rng = Random(f"{args.seed}/{name}/{players}")
        expert, exact = [], []
        for _ in range(args.boards):
            board = random_board(rules, players, rng, every_hand=False, to_first_lead=False)
            started = time.perf_counter()
            answers.expert_answer(answers.seat_view(replay(board)), options)
            expert.append(time.perf_counter() - started)
            board = random_board(rules, players, rng, every_hand=True, to_first_lead=True)
            started = time.perf_counter()
            answers.exact_answer(board)
            exact.append(time.perf_counter() - started)
        print(f"{name} at {players}:")
        report("expert", expert)
        report("exact", exact)
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
