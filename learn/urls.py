from django.urls import URLPattern

app_name = "learn"

urlpatterns: list[URLPattern] = []
