from django.apps import AppConfig


class GameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "game"
    verbose_name = "Smear game"

    def ready(self) -> None:
        # imported once the models are loaded; the bots' timetable then hears every change
        from game import bot_runner, events

        from . import checks  # noqa: F401  (registers the system checks)

        events.listen(bot_runner.heard)
