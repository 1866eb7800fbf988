"""Builds of the native core side by side, deal by deal: what a change to the search buys.

    python bench/solver_ab.py REV [REV ...] [--players 8] [--deals 60] [--first-seed 0]
                              [--repeats 3] [--tricks-played N] [--cards-played N]
                              [--cutthroat] [--every-lead]

Each REV is a git revision, or ``work`` for the working tree. Its ``game/engine/native``
is copied to a scratch folder, its module renamed ``smear_native_ab<K>``, and built by pip
as ``make install`` builds the core. Every deal (bench/solver.py's) is then solved by each
build in turn, ``--repeats`` times with the order of the builds alternating, and each build
keeps its best CPU time per deal. A slow spell of a shared machine then falls on every
build alike: one build's figures from bench/solver.py can differ by half between runs,
these ratios by a few percent. Prints, per build: positions per deal, the CPU summed over
the deals, p50/p95/max ms, deals over 30 ms, the CPU ratio to the first build, and whether
it found the first build's values.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.solver import first_lead_position, percentile, table_setup  # noqa: E402
from game.engine import solver_native  # noqa: E402
from game.engine.solver import Position  # noqa: E402
from game.engine.state import MatchSetup  # noqa: E402

NATIVE = "game/engine/native"


def native_sources(rev: str, into: Path) -> Path:
    """The core's folder at ``rev`` (``work``: as it stands), copied under ``into``."""
    if rev == "work":
        shutil.copytree(ROOT / NATIVE, into / NATIVE, ignore=shutil.ignore_patterns("build"))
    else:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, NATIVE], capture_output=True, check=True
        ).stdout
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(into, filter="data")
    return into / NATIVE


def build(rev: str, name: str, scratch: Path) -> object:
    """The core at ``rev`` built and imported as module ``name``."""
    source = native_sources(rev, scratch / name)
    for path, old in ((source / "src/bindings.cpp", "PYBIND11_MODULE(smear_native,"),
                      (source / "setup.py", '"smear_native"')):  # fmt: skip
        text = path.read_text()
        if old not in text:
            sys.exit(f"{rev}: {path.name} does not name the module as this script expects")
        path.write_text(text.replace(old, old.replace("smear_native", name)))
    target = scratch / f"{name}-lib"
    print(f"building {rev} as {name} ...", flush=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--no-deps", "--target", str(target), str(source)],
        check=True,
    )  # fmt: skip
    sys.path.insert(0, str(target))
    core = importlib.import_module(name)
    solver_native.configure(core, solver_native.HOUSE_RULES)
    return core


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revs", nargs="+", help="git revisions, or 'work'")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3, help="solves per deal and build")
    parser.add_argument("--tricks-played", type=int, default=0)
    parser.add_argument("--cards-played", type=int, default=0)
    parser.add_argument("--cutthroat", action="store_true")
    parser.add_argument("--every-lead", action="store_true", help="value every card")
    args = parser.parse_args()
    setup = table_setup(args.players, args.cutthroat)
    with tempfile.TemporaryDirectory() as scratch:
        cores = [
            build(rev, f"smear_native_ab{k}", Path(scratch)) for k, rev in enumerate(args.revs)
        ]
        report(args, *time_deals(cores, setup, args))


def position_for(core, position: Position):
    """``position`` as ``core`` reads it: its Position class, or the 7-tuple a build from
    before the named classes took."""
    if hasattr(core, "Position"):
        return solver_native._position(position, core)
    p = position
    return (p.unit_of, p.hands, p.dealt, p.trump, p.leader, p.trick, p.taken)


def time_deals(cores: list, setup: MatchSetup, args) -> tuple[list, list, list]:
    """Per core: its best CPU ms per deal, its positions in all, its values per deal."""
    best = [[] for _ in cores]
    nodes = [0] * len(cores)
    values = [[] for _ in cores]
    for seed in range(args.first_seed, args.first_seed + args.deals):
        position, utility = first_lead_position(setup, seed, args.tricks_played, args.cards_played)
        ps, u = [position_for(core, position) for core in cores], solver_native._utility(utility)
        times = [float("inf")] * len(cores)
        for repeat in range(args.repeats):
            turn = range(len(cores)) if repeat % 2 == 0 else reversed(range(len(cores)))
            for k in turn:
                solve = cores[k].action_values if args.every_lead else cores[k].solve
                start = time.process_time()
                value, searched = solve(ps[k], u, None)
                times[k] = min(times[k], time.process_time() - start)
                if repeat == 0:
                    nodes[k] += searched
                    values[k].append(value)
        for k, seconds in enumerate(times):
            best[k].append(seconds * 1e3)
    return best, nodes, values


def report(args, best: list[list[float]], nodes: list[int], values: list[list]) -> None:
    question = "every card's value" if args.every_lead else "exact value"
    print(f"{args.players} players, {question}, {args.deals} deals from seed {args.first_seed}, "
          f"best CPU of {args.repeats} per deal:")  # fmt: skip
    first = sum(best[0])
    for k, rev in enumerate(args.revs):
        ms = best[k]
        same = "same values" if values[k] == values[0] else "VALUES DIFFER from the first"
        print(
            f"  {rev}: {nodes[k] // args.deals:,} positions per deal; CPU {sum(ms):.0f} ms, "
            f"p50 {percentile(ms, 0.5):.2f} ms, p95 {percentile(ms, 0.95):.2f} ms, "
            f"max {max(ms):.1f} ms, {sum(t > 30 for t in ms)} deals over 30 ms; "
            f"ratio {sum(ms) / first:.3f}; {same}"
        )


if __name__ == "__main__":
    main()
