from django.urls import path

from game import views

app_name = "game"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("rules/", views.rules, name="rules"),
    path("accounts/profile/", views.profile, name="profile"),
]
