"""The score sheet's websocket route: the read-only live link, by its secret token."""

from django.urls import path

from scoresheet.consumers import WatchConsumer

websocket_urlpatterns = [
    path("ws/sheets/watch/<str:token>/", WatchConsumer.as_asgi()),
]
