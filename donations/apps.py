from django.apps import AppConfig


class DonationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "donations"
    verbose_name = "Donations"

    def ready(self) -> None:
        from donations import checks  # noqa: F401  (registers the system checks)
