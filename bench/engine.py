"""Rules engine speed: random rounds, legal_actions() + apply(), step() with its events,
and replay throughput.

    python bench/engine.py [--rounds 20000] [--records 2000]

Plain timings on one core (best of three runs each); prints its figures: the house rules,
and the replay of classic and seven-point rounds against a house round's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from random import Random

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.engine import record  # noqa: E402
from game.engine.cards import cards_of  # noqa: E402
from game.engine.rules import PASS, Phase, discard_action  # noqa: E402
from game.engine.state import MatchSetup, MatchState, RoundState, shuffle_deal  # noqa: E402
from game.engine.variants import CLASSIC, HOUSE, SEVEN_POINT, Rules  # noqa: E402


def best_of(runs: int, work) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def random_rounds(setup: MatchSetup, rounds: int) -> float:
    """Seconds to deal and play ``rounds`` rounds with uniformly random legal actions."""

    def work():
        rng = Random(0)
        for i in range(rounds):
            state = RoundState(setup, shuffle_deal(setup, i % setup.players, rng))
            while not state.is_terminal():
                state = state.apply(rng.choice(state.legal_actions()))

    return best_of(3, work)


def recorded_rounds(setup: MatchSetup, rounds: int):
    rng = Random(1)
    games = []
    for i in range(rounds):
        start = RoundState(setup, shuffle_deal(setup, i % setup.players, rng))
        state = start
        while not state.is_terminal():
            state = state.apply(rng.choice(state.legal_actions()))
        games.append((start, state.history))
    return games


def step_cost(games) -> tuple[float, float, int]:
    """Seconds for legal_actions() + apply() over every step, and for apply() alone."""
    steps = sum(len(actions) for _, actions in games)

    def both():
        for state, actions in games:
            for action in actions:
                state.legal_actions()
                state = state.apply(action)

    def apply_only():
        for state, actions in games:
            for action in actions:
                state = state.apply(action)

    return best_of(3, both), best_of(3, apply_only), steps


def events_cost(games) -> tuple[float, float]:
    """Seconds per step of ``step()`` (apply and the move's public events, opt-in), and
    seconds to tell a finished round's events from its public view once."""
    steps = sum(len(actions) for _, actions in games)

    def stepping():
        for state, actions in games:
            for action in actions:
                state = state.step(action).state

    ends = [state.replay((None, a) for a in actions) for state, actions in games]

    def telling():
        for state in ends:
            state.events()

    return best_of(3, stepping) / steps, best_of(3, telling) / len(ends)


def write_records(path: Path, count: int, rules: Rules = HOUSE) -> int:
    """Full 4-player matches (the house rules: the forced opener bids 1; a full-deck table:
    the first seat bids the least; random trump, discards and cards); returns the rounds
    written."""
    rng = Random(2)
    rounds = 0
    with path.open("w") as out:
        for _ in range(count):
            setup = MatchSetup.partnerships(4, 2, rules=rules)
            match = MatchState(setup, first_dealer=rng.randrange(4))
            while not match.is_terminal() and len(match.rounds) < 40:
                match = match.deal_round(rng)
                while match.current_player() is not None:
                    match = match.apply(_bench_action(match.round, rng))
            rounds += len(match.rounds)
            out.write(record.dumps(match) + "\n")
    return rounds


def _bench_action(state: RoundState, rng: Random) -> int:
    legal = state.legal_actions()
    phase = state.phase()
    if phase is Phase.AUCTION:
        opening = state.setup.rules.is_house or state.high_bid
        return PASS if PASS in legal and opening else legal[0]
    if phase is Phase.EXCHANGE:
        rule = state.discard_rule()
        spare = rng.sample(cards_of(rule.optional), rule.count - rule.must.bit_count())
        return discard_action(rule.pick(spare))
    return rng.choice(legal)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20000)
    parser.add_argument("--records", type=int, default=2000)
    args = parser.parse_args()

    print(f"Python {sys.version.split()[0]}, one core, best of 3")
    for players in (4, 8):
        setup = MatchSetup.partnerships(players, 2)
        count = args.rounds if players == 4 else args.rounds // 2
        seconds = random_rounds(setup, count)
        print(
            f"random rounds, {players} players: {count / seconds:,.0f} rounds/s "
            f"({seconds / count * 1e3:.3f} ms per round, deal included)"
        )

    for players in (4, 8):
        games = recorded_rounds(MatchSetup.partnerships(players, 2), args.rounds // 4)
        both, apply_only, steps = step_cost(games)
        print(
            f"{players} players: legal_actions() + apply() {both / steps * 1e6:.2f} us/step; "
            f"apply() alone {apply_only / steps * 1e6:.2f} us/step, "
            f"{apply_only / len(games) * 1e3:.3f} ms to replay a round"
        )
        per_step, per_round = events_cost(games[:200])
        print(
            f"{players} players: step() with its events {per_step * 1e6:.1f} us/step (opt-in); "
            f"a finished round's events from its view {per_round * 1e3:.3f} ms"
        )

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.jsonl"
        rounds = write_records(path, args.records)
        size_mb = path.stat().st_size / 1e6
        text = path.read_text()

        def in_process():
            for chunk in record.split_records(text):
                record.replay(chunk)

        seconds = best_of(3, in_process)
        print(
            f"record.replay in process: {args.records / seconds:,.0f} records/s, "
            f"{rounds / seconds:,.0f} rounds/s ({seconds / rounds * 1e3:.3f} ms per round)"
        )
        house_round = seconds / rounds
        for table in (CLASSIC, SEVEN_POINT):
            family = Path(tmp) / f"{table.preset}.jsonl"
            family_rounds = write_records(family, args.records // 4, table)
            family_text = family.read_text()
            seconds_family = best_of(
                3, lambda text=family_text: [record.replay(c) for c in record.split_records(text)]
            )
            per_round = seconds_family / family_rounds
            print(
                f"record.replay in process, {table.preset}: {family_rounds / seconds_family:,.0f} "
                f"rounds/s ({per_round * 1e3:.3f} ms per round, {per_round / house_round:.2f}x "
                "a house round)"
            )
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        command = [sys.executable, str(ROOT / "manage.py"), "replay", str(path)]

        def run_command():
            subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)

        seconds = best_of(3, run_command)
        print(
            f"manage.py replay: {args.records} records ({rounds} rounds, {size_mb:.1f} MB) in "
            f"{seconds:.2f} s: {args.records / seconds:,.0f} records/s, "
            f"{rounds / seconds:,.0f} rounds/s, Django start-up included"
        )


if __name__ == "__main__":
    main()
