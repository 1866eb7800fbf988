#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    if sys.argv[1:2] == ["replay"]:
        # the replay needs only the engine: skip Django's start-up
        from game.offline.replay_cli import main as replay

        sys.exit(replay(sys.argv[2:]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smearsite.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
