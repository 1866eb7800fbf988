"""python manage.py replay FILE: check and score game records (shared/spec/record.md).

``manage.py`` itself runs ``game.offline.replay_cli`` for this command, before Django starts;
this class serves ``call_command`` and ``manage.py help``.
"""

from django.core.management.base import BaseCommand, CommandError

from game.engine import record
from game.offline import replay_cli


class Command(BaseCommand):
    help = replay_cli.DESCRIPTION

    def add_arguments(self, parser):
        parser.add_argument("file", help="path to the records, or - for standard input")

    def handle(self, *args, file, **options):
        try:
            text = replay_cli.read_text(file)
        except replay_cli.UnreadableFile as error:
            raise CommandError(str(error), returncode=1) from None
        lines, rejected = record.replay_lines(text)
        for line in lines:
            self.stdout.write(line)
        if rejected:
            raise CommandError(replay_cli.rejected_message(rejected), returncode=1)
