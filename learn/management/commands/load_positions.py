"""python manage.py load_positions [PATH]: add the positions of a JSON Lines file to the bank.

Idempotent: a position is keyed by its key, and one already in the bank is left as it
is, its ratings with it. A malformed line is reported with its line number and skipped;
the others still load. With no PATH, the starter bank is loaded, and a missing starter
file is only a warning (a fresh checkout still starts). The starter bank is two files: the
house rules' positions, and those of the full-deck games (classic, six-handed, seven-point).

The starter bank's analyses are in the repository for anyone to read, so its positions
are loaded as published: practised, never rated. So is any file given with --published.
A bank made with generate_positions and kept private is rated.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from learn import services
from learn.bank.bank_file import FAMILY_STARTER, STARTER


class Command(BaseCommand):
    help = "Load trainer positions from a JSON Lines file (one AnalysedPosition.to_json() a line)."

    def add_arguments(self, parser):
        parser.add_argument("path", nargs="?", default=None)
        parser.add_argument(
            "--published",
            action="store_true",
            help="the file's analyses are public: its positions are never rated",
        )

    def handle(self, *args, path: str | None, published: bool = False, **options):
        for file in [Path(path)] if path else [STARTER, FAMILY_STARTER]:
            self._load(file, published or file.resolve() in (STARTER, FAMILY_STARTER))

    def _load(self, file: Path, published: bool) -> None:
        if not file.is_file():
            if file.resolve() in (STARTER, FAMILY_STARTER):
                self.stderr.write(
                    self.style.WARNING(
                        f"No starter bank at {file}: the trainer has no positions yet "
                        "(make one with manage.py generate_positions)."
                    )
                )
                return
            raise CommandError(f"{file} is not a file")
        with file.open(encoding="utf-8") as lines:
            report = services.positions_load(lines=lines, published=published)
        for number, why in report.errors:
            self.stderr.write(self.style.ERROR(f"{file}:{number}: skipped: {why}"))
        self.stdout.write(
            f"{report.created} position{'s' if report.created != 1 else ''} added, "
            f"{report.existing} already in the bank, {len(report.errors)} line"
            f"{'s' if len(report.errors) != 1 else ''} skipped."
        )
