"""Websocket URL patterns, wrapped by the router in ``smearsite/asgi.py``.

Empty for now: the game app adds its table consumer here.
"""

from django.urls import URLPattern

from scoresheet.routing import websocket_urlpatterns as scoresheet_websockets

websocket_urlpatterns: list[URLPattern] = [
    # the score sheet's read-only live link
    *scoresheet_websockets,
]
