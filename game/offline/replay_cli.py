"""``manage.py replay FILE`` without Django's start-up.

The command needs only the engine, and starting Django costs about a second: more than
replaying a typical file. ``manage.py`` sends ``replay`` here before it imports Django;
the Django command (for ``call_command``) shares ``read_text`` and the engine's output.
"""

from __future__ import annotations

import argparse
import sys

from game.engine import record

DESCRIPTION = (
    "Replay smear-record/1 game records (JSON Lines, or one JSON object) and print one "
    "JSON result per record. Exits with status 1 if any record breaks the rules."
)


class UnreadableFile(Exception):
    pass


def read_text(file: str) -> str:
    if file == "-":
        return sys.stdin.read()
    try:
        with open(file, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise UnreadableFile(f"cannot read {file}: {error}") from None


def rejected_message(rejected: int) -> str:
    return f"{rejected} record(s) break the rules"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="manage.py replay", description=DESCRIPTION)
    parser.add_argument("file", help="path to the records, or - for standard input")
    args = parser.parse_args(argv)
    try:
        text = read_text(args.file)
    except UnreadableFile as error:
        print(f"CommandError: {error}", file=sys.stderr)
        return 1
    lines, rejected = record.replay_lines(text)
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")
    if rejected:
        print(f"CommandError: {rejected_message(rejected)}", file=sys.stderr)
        return 1
    return 0
