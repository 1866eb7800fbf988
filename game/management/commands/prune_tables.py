"""Rate any finished match not rated yet, close deserted tables and delete finished guest
tables: run it on a schedule (docs/deployment.md)."""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand

from game.players import ratings
from game.services import limits


class Command(BaseCommand):
    help = (
        "Rate finished matches that were not rated as they ended, close tables in play "
        "whose people have all been away SMEAR_DESERTED_AFTER_S, and delete finished or "
        "closed tables where no signed-in player sat."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--older-than-hours",
            type=float,
            default=24.0,
            help="delete a guest table this long after its last move (default 24)",
        )

    def handle(self, *args, older_than_hours: float, **options) -> None:
        rated = ratings.ratings_settle()  # before a guest table's rows can go
        closed = limits.deserted_tables_close()
        pruned = limits.guest_tables_prune(older_than=timedelta(hours=older_than_hours))
        self.stdout.write(
            f"rated {rated} matches; closed {closed} deserted tables; deleted {pruned} guest tables"
        )
