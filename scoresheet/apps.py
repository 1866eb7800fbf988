from django.apps import AppConfig


class ScoresheetConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoresheet"
    verbose_name = "Score sheet"
