"""python manage.py ladder_results: the ladder's stored matches to and from a file."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from game.players import ladder_file


class Command(BaseCommand):
    help = (
        "export: write every stored ladder match as JSON lines (the published file by "
        "default). load: store a file's matches not stored yet (a stored match under one "
        "of its keys takes the file's result) and rate their presets."
    )

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["export", "load"])
        parser.add_argument(
            "path",
            nargs="?",
            type=Path,
            default=ladder_file.PUBLISHED,
            help="the file (default: %(default)s)",
        )

    def handle(self, *args, **opts):
        path: Path = opts["path"]
        if opts["action"] == "export":
            lines = list(ladder_file.exported())
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
            self.stdout.write(f"{len(lines)} ladder matches written to {path}.")
            return
        try:
            with path.open(encoding="utf-8") as lines:
                loaded = ladder_file.load(lines)
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from None
        except (ladder_file.LadderFileError, UnicodeDecodeError) as error:
            raise CommandError(f"{path} is refused, nothing stored: {error}") from None
        self.stdout.write(
            f"{loaded.added} ladder matches stored, {loaded.replaced} replaced by the file's "
            f"({loaded.known} known already); "
            f"rated: {', '.join(loaded.presets) or 'nothing'}."
        )
