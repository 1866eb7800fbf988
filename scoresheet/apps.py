from django.apps import AppConfig


class ScoresheetConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoresheet"
    verbose_name = "Score sheet"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from scoresheet import services

        # a guest's sheets become the account's when its browser signs up or logs in
        user_logged_in.connect(services.sheets_claim_at_login, dispatch_uid="sheets_claim")
