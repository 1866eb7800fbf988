"""Bot decision latency at the live-play budget, and how many deals the expert solves.

    python bench/bots.py [--rounds 8] [--players 3 4 6 8] [--cutthroat]
                         [--rules house classic six_handed seven_point] [--level expert]

Even seat counts play as two partnerships, odd ones cutthroat; ``--cutthroat`` seats
every player for itself at any count. Each preset plays at the seat counts it allows
among those asked for (at its own where it allows none of them). The expert sits at
every other seat against greedy bots; every decision with more than one legal action is
timed (``--level`` seats another level there: beginner, casual, club). Prints
p50/p95/max per table size and phase, with the sampled deals solved
exactly per decision (at a full-deck table: the deals solved or played out; p50 and the
fewest; an estimated decision, one for which no deal was solved exactly, counts 0), how
many were estimated, and which search ran.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.bots import make_bot  # noqa: E402
from game.bots.basic import GreedyBot  # noqa: E402
from game.engine.rules import Phase  # noqa: E402
from game.engine.solver import native_available  # noqa: E402
from game.engine.state import MatchSetup, MatchState  # noqa: E402
from game.engine.variants import PRESETS, Rules  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bot_at(level: str, table: Rules):
    """The named bot as it plays at this preset (a level by its tuning there)."""
    bot = make_bot(level)
    return bot.at(table) if hasattr(bot, "at") else bot


def measure(
    players: int, rounds: int, seed: int, cutthroat: bool, table: Rules, level: str = "expert"
) -> None:
    setup = (
        MatchSetup.partnerships(players, 2, rules=table)
        if players % 2 == 0 and not cutthroat
        else MatchSetup.cutthroat(players, rules=table)
    )
    expert, greedy = bot_at(level, table), GreedyBot()
    rng = Random(seed)
    match = MatchState(setup)
    times: dict[str, list[float]] = defaultdict(list)
    deals: dict[str, list[int]] = defaultdict(list)
    estimated: dict[str, int] = defaultdict(int)  # decisions no exact deal was solved for
    for _ in range(rounds):
        if match.is_terminal():
            match = MatchState(setup)
        match = match.deal_round(rng)
        while match.current_player() is not None:
            seat = match.current_player()
            view, legal = match.view_for(seat), match.legal_actions()
            if seat % 2 == 0 and (len(legal) > 1 or view.phase is Phase.EXCHANGE):
                phase = _phase(view)
                started = time.perf_counter()
                if table.is_house:
                    analysis = expert.analyse(view, legal, rng, detailed=False)
                    action = analysis.best if analysis.deals else greedy.choose(view, legal, rng)
                    # an estimated analysis solved no deal exactly
                    solved, guessed = (
                        (0 if analysis.estimated else analysis.deals),
                        analysis.estimated,
                    )
                else:
                    action, solved = _full_deck_choice(expert, view, legal, rng)
                    guessed = False
                    action = greedy.choose(view, legal, rng) if action is None else action
                times[phase].append(time.perf_counter() - started)
                times["all"].append(times[phase][-1])
                deals[phase].append(solved)
                estimated[phase] += guessed
            else:
                action = greedy.choose(view, legal, rng)
            match = match.apply(action, seat)
    print(f"{table.preset}:")
    for phase in ["all", "auction", "trump", "exchange"] + [f"trick {n}" for n in range(1, 7)]:
        if phase not in times:
            continue
        ms = [t * 1e3 for t in times[phase]]
        solved = (
            f", deals p50 {percentile(deals[phase], 0.5)} min {min(deals[phase])}"
            f", {estimated[phase]} estimated"
            if phase != "all"
            else ""
        )
        p50, p95 = percentile(ms, 0.5), percentile(ms, 0.95)
        print(
            f"{players} players, {phase:>7}: {len(ms)} decisions, p50 {p50:.0f} ms, "
            f"p95 {p95:.0f} ms, max {max(ms):.0f} ms{solved}"
        )


def _phase(view) -> str:
    if view.phase is Phase.PLAY:
        return f"trick {len(view.trick_winners) + 1}"
    return view.phase.name.lower()


def _full_deck_choice(expert, view, legal, rng):
    """The expert's choice at a full-deck table and the deals behind it (played out or
    solved)."""
    prices = expert._price_full_deck(view, legal, rng)
    return prices.best(), prices.deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 6, 8])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cutthroat", action="store_true", help="every seat for itself")
    parser.add_argument("--rules", nargs="+", default=["house"], choices=sorted(PRESETS))
    parser.add_argument(
        "--level",
        default="expert",
        help="the level timed (game.bots: beginner, casual, club, expert)",
    )
    args = parser.parse_args()
    search = "native core" if native_available() else "Python (no native core)"
    for name in args.rules:
        table = PRESETS[name]
        bot = bot_at(args.level, table)
        print(
            f"{name}: {args.level} budget {bot.budget_ms:.0f} ms, "
            f"at most {bot.max_deals} deals; {search}"
        )
        counts = [n for n in args.players if table.allows_players(n)] or [max(table.players)]
        for players in counts:
            measure(players, args.rounds, args.seed, args.cutthroat, table, args.level)


if __name__ == "__main__":
    main()
