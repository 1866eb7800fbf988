"""python manage.py generate_positions: fill the trainer's bank with analysed positions.

Stop it any time (Ctrl-C); running it again continues until the file holds --count
positions of the --preset's tables (the house rules unless named), so one file may hold
a bank for every preset: ``--preset classic`` plays classic tables at every size it allows.
"""

import signal
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from game.engine.variants import PRESETS
from learn.bank import generation
from learn.bank.bank_file import STARTER, open_bank
from learn.core.analysis import KINDS, OPENING_BY_PLAYERS, Budget, Keep
from smearsite.kernel.console import Unended


class Command(BaseCommand):
    help = "Deal and play rounds, analyse decisions, and append the instructive ones (JSONL)."
    requires_system_checks = []  # pure computation: the site's URLs and models are not used

    def add_arguments(self, parser):
        parser.add_argument("--count", type=int, default=300, help="positions the file should hold")
        parser.add_argument(
            "--players",
            default=None,
            help="comma list of table sizes the preset allows (default: every one)",
        )
        parser.add_argument("--preset", default="house", choices=list(PRESETS))
        parser.add_argument(
            "--kinds",
            default="",
            help="comma list of the decision kinds to examine (auction, opening, trump, "
            "discard, lead, follow); default every one: a bank short of one kind is topped up",
        )
        parser.add_argument("--workers", type=int, default=1)
        parser.add_argument("--out", default=str(STARTER))
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--budget-ms",
            type=float,
            default=Budget.analysis_ms,
            help="analysis time per decision; the auction and the rest of trick one get "
            f"{Budget.first_trick_factor}x, the opening lead {Budget.opening_factor}x times "
            + ", ".join(f"{f:g} at {n}" for n, f in OPENING_BY_PLAYERS.items())
            + " players",
        )
        parser.add_argument("--max-deals", type=int, default=Budget.max_deals)
        parser.add_argument("--min-margin", type=float, default=Keep.min_margin)

    def handle(self, *args, **opts):
        allowed = PRESETS[opts["preset"]].players
        players = (
            list(allowed) if opts["players"] is None else self._players(opts["players"], allowed)
        )
        if min(opts["count"], opts["workers"], opts["budget_ms"], opts["max_deals"]) <= 0:
            raise CommandError("--count, --workers, --budget-ms and --max-deals must be positive")
        budget = Budget(analysis_ms=opts["budget_ms"], max_deals=opts["max_deals"])
        # a tiny --max-deals must still let positions through
        keep = Keep(min_margin=opts["min_margin"], min_deals=min(Keep.min_deals, opts["max_deals"]))
        out = Path(opts["out"])
        already = open_bank(out).count_of(opts["preset"])
        bar = tqdm(
            total=opts["count"], initial=already, desc="positions", file=Unended(self.stderr)
        )

        last = generation.Progress()

        def show(progress, held):
            nonlocal last
            last = progress
            bar.update(held - bar.n)
            bar.set_postfix(examined=progress.examined, kept=progress.kept)

        # a background run is stopped with kill, not Ctrl-C
        previous = signal.signal(signal.SIGTERM, _stop)
        try:
            last = generation.generate(
                out,
                count=opts["count"],
                players=players,
                workers=opts["workers"],
                seed=opts["seed"],
                preset=opts["preset"],
                kinds=self._kinds(opts["kinds"]),
                budget=budget,
                keep=keep,
                on_result=show,
            )
        except KeyboardInterrupt:
            self.stderr.write("stopped; run the command again to continue")
        finally:
            signal.signal(signal.SIGTERM, previous)
            bar.close()
        self._report(last, out)

    def _players(self, text: str, allowed: tuple[int, ...]) -> list[int]:
        try:
            players = [int(part) for part in text.split(",") if part.strip()]
        except ValueError:
            raise CommandError(f"--players must be numbers between commas, not {text!r}") from None
        if not players or any(p not in allowed for p in players):
            sizes = ", ".join(map(str, allowed))
            raise CommandError(f"--players must list table sizes this preset allows: {sizes}")
        return players

    def _kinds(self, text: str) -> tuple[str, ...]:
        kinds = tuple(part.strip() for part in text.split(",") if part.strip())
        unknown = set(kinds) - set(KINDS)
        if unknown:
            raise CommandError(f"--kinds takes {', '.join(KINDS)}, not {unknown.pop()}")
        return kinds

    def _report(self, progress, out: Path):
        minutes = (time.perf_counter() - progress.started) / 60
        rate = progress.added / minutes if minutes else 0.0
        ratio = progress.kept / progress.examined if progress.examined else 0.0
        self.stdout.write(
            f"{out}: added {progress.added} in {minutes:.1f} min ({rate:.1f}/min); "
            f"kept {progress.kept} of {progress.examined} examined ({ratio:.0%})"
        )
        for line in progress.by_kind():
            self.stdout.write(f"  {line}")


def _stop(signum, frame):
    raise KeyboardInterrupt
