"""The check every websocket passes before any consumer: where the page that opened it came
from."""

from __future__ import annotations

from channels.security.websocket import OriginValidator
from django.conf import settings


class SiteOriginValidator(OriginValidator):
    """Channels' check of the Origin's host against ALLOWED_HOSTS, and on an HTTPS-only site
    its scheme too: a page served over plain http (downgraded, or someone else's on the
    same name) may not open a socket that carries the visitor's session."""

    def valid_origin(self, parsed_origin) -> bool:
        if settings.HTTPS_ONLY and (parsed_origin is None or parsed_origin.scheme != "https"):
            return False
        return super().valid_origin(parsed_origin)


def site_origin_validator(application) -> SiteOriginValidator:
    allowed_hosts = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed_hosts:
        allowed_hosts = ["localhost", "127.0.0.1", "[::1]"]
    return SiteOriginValidator(application, allowed_hosts)
