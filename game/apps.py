from django.apps import AppConfig


class GameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "game"
    verbose_name = "Smear game"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the system checks)
