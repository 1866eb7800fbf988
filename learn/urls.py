from django.urls import path

from learn import views

app_name = "learn"

urlpatterns = [
    path("", views.practice, name="practice"),
    path("positions/<str:key>/", views.position, name="position"),
    path("attempts/<str:token>/", views.attempt, name="attempt"),
    path("attempts/<str:token>/answer/", views.answer, name="answer"),
    path("progress/", views.progress, name="progress"),
    path("tutorial/", views.tutorial_index, name="tutorial"),
    path("tutorial/<slug:slug>/", views.lesson, name="lesson"),
]
