"""Pending donations whose checkout has closed become expired: run it on a schedule."""

from django.core.management.base import BaseCommand

from donations import services


class Command(BaseCommand):
    help = "Mark pending donations older than a checkout's lifetime as expired."

    def handle(self, *args, **options) -> None:
        expired = services.donations_expire_stale()
        self.stdout.write(f"expired {expired} pending donations")
