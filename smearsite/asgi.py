"""ASGI entry point: plain HTTP goes to Django, websockets to the Channels router.

Served by daphne through the site's launcher, which bounds what a connection may cost
before any of this runs: ``python -m smearsite.server.serve`` (smearsite.server.serve).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smearsite.settings")

# Set up Django (app registry, settings) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from game.live.redraw import error_html  # noqa: E402
from smearsite.guards.body_limit import BodyLimit, BodyLimits  # noqa: E402
from smearsite.guards.fair_share import FairShare  # noqa: E402
from smearsite.guards.websockets import ConnectionLimits, site_origin_validator  # noqa: E402
from smearsite.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        # a body over the limit is refused before Django reads it whole; then each
        # visitor's requests a few at a time, so that no one holds every thread
        "http": BodyLimit(FairShare(django_asgi_app), limits=BodyLimits.from_settings()),
        # the cheap checks first: where the page came from, how many sockets it holds
        "websocket": site_origin_validator(
            ConnectionLimits(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns)), refusal=error_html
            )
        ),
    }
)
