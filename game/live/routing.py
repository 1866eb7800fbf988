"""The game's websocket route: one live connection per open table page."""

from django.urls import path

from game.live.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/table/<str:code>/", TableConsumer.as_asgi()),
]
