"""python manage.py arena: bots play full matches; win rates with 95% intervals."""

import json
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from game.bots import LEVELS
from game.engine import variants
from game.engine.state import MatchSetup
from game.offline import arena
from smearsite.kernel.console import Unended


def _known(name: str) -> bool:
    level, at, budget = name.partition("@")
    if not at:
        return level in LEVELS
    return level.startswith("expert") and level in LEVELS and budget.replace(".", "", 1).isdigit()


class Command(BaseCommand):
    help = "Play bots against each other over full matches and report how each did."

    def add_arguments(self, parser):
        parser.add_argument(
            "--bots",
            default="expert,greedy",
            help="comma list of " + ", ".join(LEVELS) + "; expert@25 is the expert at 25 ms",
        )
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument(
            "--teams",
            help="units as seat lists, e.g. 0,2:1,3 (default: "
            "two partnerships for an even table, else everyone for themselves)",
        )
        parser.add_argument("--target", type=int, default=variants.DEFAULT_TARGET)
        parser.add_argument(
            "--rules",
            default="house",
            help="the table's rules: a preset (house, classic, six_handed, seven_point) or a "
            'record\'s rules object, e.g. \'{"preset": "classic", "follow": "schmier"}\'',
        )
        parser.add_argument("--matches", type=int, default=100)
        parser.add_argument(
            "--fair", action="store_true", help="replay the same deals with the bots' seats swapped"
        )
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--workers", type=int, default=1)
        parser.add_argument(
            "--budget-ms", type=float, help="the expert's thinking time per decision"
        )
        parser.add_argument("--records", help="write every match as a game record (JSON Lines)")
        parser.add_argument(
            "--json", action="store_true", help="print the summary as one JSON object"
        )

    def handle(self, *args, **opts):
        bots = [name.strip() for name in opts["bots"].split(",") if name.strip()]
        unknown = [name for name in bots if not _known(name)]
        if unknown or not bots:
            raise CommandError(f"unknown bot {unknown}; choose from {', '.join(LEVELS)}")
        setup = self._setup(opts)
        budget = {"budget_ms": opts["budget_ms"]} if opts["budget_ms"] else {}
        options = {name: budget for name in bots if name.startswith("expert") and "@" not in name}
        games = arena.schedule(bots, setup.units, opts["matches"], opts["fair"], opts["seed"])
        play = partial(arena.play, setup, bot_options=options, keep_record=bool(opts["records"]))
        outcomes = self._run(play, games, opts["workers"])
        if opts["records"]:
            Path(opts["records"]).write_text("".join(o.record + "\n" for o in outcomes))
        summary = arena.summarise(outcomes)
        if opts["json"]:
            self.stdout.write(json.dumps(summary))
        else:
            self._print(summary, setup, opts)

    def _setup(self, opts) -> MatchSetup:
        players = opts["players"]
        try:
            text = opts["rules"]
            table = variants.from_record(json.loads(text) if text.startswith("{") else text)
            if opts["teams"]:
                teams = [
                    [int(seat) for seat in unit.split(",")] for unit in opts["teams"].split(":")
                ]
                return MatchSetup(players, teams, opts["target"], table)
            if players % 2 == 0:
                return MatchSetup.partnerships(players, 2, opts["target"], table)
            return MatchSetup.cutthroat(players, opts["target"], table)
        except ValueError as error:
            raise CommandError(str(error)) from None

    def _run(self, play, games, workers):
        progress = tqdm(total=len(games), desc="matches", unit="match", file=Unended(self.stderr))
        outcomes = []
        try:
            if workers <= 1:
                for game in games:
                    outcomes.append(play(game))
                    progress.update()
            else:
                with ProcessPoolExecutor(max_workers=workers) as pool:
                    for outcome in pool.map(play, games):
                        outcomes.append(outcome)
                        progress.update()
        finally:
            progress.close()
        return outcomes

    def _print(self, summary, setup, opts):
        self.stdout.write(
            f"{opts['matches']} matches, {setup.players} players, teams "
            f"{[list(u) for u in setup.teams]}, target {setup.target}, "
            f"rules {json.dumps(setup.rules.to_record())}"
            f"{', fair' if opts['fair'] else ''}"
        )
        for name, s in summary.items():
            low, high = s["win_rate_95"]
            bids = "n/a" if s["bid_success"] is None else f"{s['bid_success']:.0%}"
            average = "n/a" if s["average_bid"] is None else f"{s['average_bid']:.2f}"
            self.stdout.write(
                f"{name:>11}: won {s['wins']}/{s['matches']} = {s['win_rate']:.1%} "
                f"(95% {low:.1%}-{high:.1%}), {s['points_per_round']:.2f} points/round, "
                f"auctions won {s['auctions_won']:.0%} at {average} on average, "
                f"bids made {bids}, decision p50 {s['latency_ms_p50']:.1f} ms "
                f"p95 {s['latency_ms_p95']:.1f} ms"
            )
