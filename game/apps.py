from django.apps import AppConfig


class GameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "game"
    verbose_name = "Smear game"

    def ready(self) -> None:
        # imported once the models are loaded; the bots' timetable then hears every change
        from django.contrib.auth.signals import user_logged_in

        from game.live import bot_runner, events
        from game.players import accounts, ratings

        from . import checks  # noqa: F401  (registers the system checks)

        events.listen(bot_runner.heard)
        events.listen(ratings.heard)  # a match is rated as its last move is stored
        user_logged_in.connect(accounts.restore_table_prefs, dispatch_uid="table_prefs")
