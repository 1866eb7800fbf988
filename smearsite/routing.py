"""Websocket URL patterns, wrapped by the router in ``smearsite/asgi.py``."""

from django.urls import URLPattern

from game.live.routing import websocket_urlpatterns as game_websockets
from scoresheet.routing import websocket_urlpatterns as scoresheet_websockets

websocket_urlpatterns: list[URLPattern] = [
    # a table's live connection: moves in, the table as this seat sees it out
    *game_websockets,
    # the score sheet's read-only live link
    *scoresheet_websockets,
]
