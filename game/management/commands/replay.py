"""python manage.py replay FILE: check and score game records (shared/spec/record.md)."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from game.engine import record


class Command(BaseCommand):
    help = (
        "Replay smear-record/1 game records (JSON Lines, or one JSON object) and print one "
        "JSON result per record. Exits with status 1 if any record breaks the rules."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="path to the records, or - for standard input")

    def handle(self, *args, file, **options):
        text = self._read(file)
        rejected = 0
        for chunk in record.split_records(text):
            result = record.replay(chunk)
            rejected += "error" in result
            self.stdout.write(json.dumps(result))
        if rejected:
            raise CommandError(f"{rejected} record(s) break the rules", returncode=1)

    def _read(self, file: str) -> str:
        if file == "-":
            return sys.stdin.read()
        try:
            with open(file, encoding="utf-8") as handle:
                return handle.read()
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"cannot read {file}: {error}", returncode=1) from None
