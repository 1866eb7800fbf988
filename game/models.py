from django.conf import settings
from django.db import models

DISPLAY_NAME_MAX_LENGTH = 40


class Profile(models.Model):
    """What a player shows the table: one per user, created with the account.

    Later issues add stats, ratings and the supporter badge here.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(max_length=DISPLAY_NAME_MAX_LENGTH)

    def __str__(self) -> str:
        return self.display_name
