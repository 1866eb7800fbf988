"""python manage.py ladder: the bots' levels in fair matches per preset, rated by Glicko-2."""

from django.core.management.base import BaseCommand, CommandError

from game.bots import LEVELS
from game.engine import variants
from game.offline import ladder
from game.players import ladder as stored


def _listed(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


class Command(BaseCommand):
    help = (
        "Play the ladder: every pair of levels on the same deals twice, sides swapped, each "
        "round; stored as each match ends, so a run resumes and never replays a match."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--presets",
            default=",".join(ladder.PRESETS),
            help="comma list of " + ", ".join(ladder.PRESETS),
        )
        parser.add_argument(
            "--levels",
            default=",".join(ladder.LEVELS),
            help="comma list of the levels to ladder (default: %(default)s)",
        )
        parser.add_argument(
            "--rounds",
            type=int,
            default=10,
            help="rounds of the schedule per preset: each pair plays 2 matches a round",
        )
        parser.add_argument(
            "--target", type=int, help="points to win a match (default: the preset's own)"
        )
        parser.add_argument("--workers", type=int, default=1, help="local processes")
        parser.add_argument(
            "--forget",
            default="",
            help="comma list of levels whose stored matches at the presets are forgotten "
            "first, to be played again (after a level is retuned)",
        )
        parser.add_argument(
            "--enqueue",
            action="store_true",
            help="put the run on the task queue (manage.py review_worker works it) and return",
        )

    def handle(self, *args, **opts):
        presets, levels = _listed(opts["presets"]), _listed(opts["levels"])
        unknown = [p for p in presets if p not in variants.PRESETS]
        if unknown or not presets:
            raise CommandError(f"unknown preset {unknown}; choose from {', '.join(ladder.PRESETS)}")
        if [lv for lv in levels if lv not in LEVELS] or len(set(levels)) < 2:
            raise CommandError(f"two levels or more, each one of {', '.join(LEVELS)}")
        forget = _listed(opts["forget"])
        if [lv for lv in forget if lv not in LEVELS]:
            raise CommandError(f"--forget takes levels, each one of {', '.join(LEVELS)}")
        if opts["rounds"] < 1 or opts["workers"] < 1 or (opts["target"] or 1) < 1:
            raise CommandError("--rounds, --workers and --target are positive whole numbers")
        if forget:
            gone = stored.results_forget(presets=presets, levels=forget)
            self.stdout.write(f"{gone} stored matches of {', '.join(forget)} forgotten.")
        if opts["enqueue"]:
            stored.ladder_play.enqueue(presets, levels, opts["rounds"], opts["target"])
            self.stdout.write("The ladder is queued; manage.py review_worker plays it.")
            return
        played = stored.ladder_run(
            presets=presets,
            levels=levels,
            rounds=opts["rounds"],
            target=opts["target"],
            workers=opts["workers"],
            report=self._report,
        )
        self.stdout.write(f"{played} matches played.")
        for preset in presets:
            self._summary(preset, opts["target"])

    def _report(self, progress: stored.Progress) -> None:
        result = progress.result
        first, second = result.lineup
        won = "called off" if result.winner is None else f"{result.lineup[result.winner]} won"
        table = ", ".join(
            f"{row.level} {row.rating.rating:.0f} ± {row.rating.half_width95:.0f}"
            for row in progress.standings
        )
        self.stdout.write(
            f"{progress.preset} {progress.done}/{progress.total} r{result.round} "
            f"{first} v {second}: {won} after {_rounds(result.rounds)} | {table}"
        )
        self.stdout.flush()

    def _summary(self, preset: str, target: int | None) -> None:
        rows, pairs = stored.ladder_summary(preset=preset, target=target)
        if not rows:
            return
        self.stdout.write(f"\n{preset}: rating ± 95% half-width, matches won of played")
        for row in rows:
            self.stdout.write(
                f"  {row.level:9} {row.rating.rating:5.0f} ± {row.rating.half_width95:3.0f}"
                f"  {row.wins} of {row.matches}"
            )
        self.stdout.write("head to head: the first's share of the pair's matches, predicted")
        for pair in pairs:
            self.stdout.write(
                f"  {pair.first} v {pair.second}: {pair.score:g} of {pair.matches}, "
                f"{pair.share:.2f} against {pair.expected:.2f} (z {pair.z:+.1f})"
            )


def _rounds(count: int) -> str:
    return f"{count} round{'' if count == 1 else 's'}"
