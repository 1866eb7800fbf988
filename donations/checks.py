from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.compatibility)
def stripe_keys_come_in_pairs(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """One key without the other leaves the donate page switched off: say why."""
    secret = bool(settings.STRIPE_SECRET_KEY.strip())
    webhook = bool(settings.STRIPE_WEBHOOK_SECRET.strip())
    if secret == webhook:
        return []
    missing = "STRIPE_WEBHOOK_SECRET" if secret else "STRIPE_SECRET_KEY"
    return [
        checks.Warning(
            f"{missing} is not set, so donations stay switched off.",
            hint="Set both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or neither.",
            id="donations.W001",
        )
    ]
