from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("game.urls")),
    # sign-up, log-in, log-out, password change and reset (django-allauth)
    path("accounts/", include("allauth.urls")),
]
