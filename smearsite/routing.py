"""Websocket URL patterns, wrapped by the router in ``smearsite/asgi.py``.

Empty for now: the game app adds its table consumer here.
"""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
