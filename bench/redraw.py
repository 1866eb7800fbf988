"""CPU time of one redraw of a table's pages (four seats and a spectator) through a match.

Plays a 4-player match to 11 in this process, by each seat's first legal action, and
after every move times the redraw job (``game.live.redraw._render_job``: the table read, its
public part built and drawn once, each page's own parts) with CPU time, not wall time;
the first few redraws (loading the templates) are not counted.

    .venv/bin/python bench/redraw.py            # a throwaway SQLite file
    DATABASE_URL=postgres://... .venv/bin/python bench/redraw.py

The deal is shuffled afresh each run: the number of redraws varies with the match.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smearsite.settings")
os.environ.setdefault("SMEAR_BOT_PROCESSES", "0")
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/redraw.sqlite3"


WARM_UP = 8  # redraws not counted: the templates' first loading, the first queries


def main() -> None:
    import django

    warnings.filterwarnings("ignore", message="A {% csrf_token %}")  # no request: no token
    django.setup()
    from django.core.management import call_command

    from game.engine.rules import action_code
    from game.live import redraw, store
    from game.models import Seat
    from game.players.identity import SeatOwner
    from game.services import play

    call_command("migrate", verbosity=0)
    owners = [SeatOwner(session_key=f"bench-{n}-0123456789abcdef") for n in range(4)]
    spectator = SeatOwner(session_key="bench-watching-0123456789abcdef")
    table = play.table_create_vs_bots(
        owner=owners[0], players=4, teams=[[0, 2], [1, 3]], bot_levels=["greedy"] * 3, target=11
    )
    for n in range(1, 4):  # people in every seat: no bot moves behind the bench's back
        Seat.objects.filter(table=table, number=n).update(
            bot_level=None, session_key=owners[n].session_key, display_name=f"Guest {n}"
        )
    cpu, draws = 0.0, 0
    for moves in range(400):
        table.refresh_from_db()
        match = store.match_for_table(table, fresh=True)
        seat = match.current_player()
        if seat is None:
            break
        job = redraw._Job(loop=None, waiting={*owners, spectator}, versions=[None])
        started = time.process_time()
        redraw._render_job(table.pk, job)
        if moves >= WARM_UP:
            cpu += time.process_time() - started
            draws += 1
        action = action_code(match.legal_actions()[0])
        play.table_play(
            table_id=table.pk,
            seat_owner=owners[seat],
            action=action,
            index=len(match.round.history),
        )
    print(f"{draws} redraws: {cpu / draws * 1000:.2f} ms CPU per redraw of 5 pages")


if __name__ == "__main__":
    main()
