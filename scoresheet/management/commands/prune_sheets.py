"""Delete the score sheets only guests keep, a while after their last change: run it on a
schedule beside ``prune_tables`` (docs/deployment.md)."""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand

from scoresheet import limits


class Command(BaseCommand):
    help = (
        "Delete score sheets that no signed-in person made or joined, unchanged for "
        f"--older-than-days (default {limits.GUEST_SHEET_DAYS})."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--older-than-days", type=float, default=limits.GUEST_SHEET_DAYS)

    def handle(self, *args, older_than_days: float, **options) -> None:
        pruned = limits.guest_sheets_prune(older_than=timedelta(days=older_than_days))
        self.stdout.write(f"deleted {pruned} guest sheets")
