from django.urls import path

from learn import views
from learn.round_review import views as review_views

app_name = "learn"

urlpatterns = [
    path("", views.practice, name="practice"),
    # a page only reads: a position is served by a post to one of the serve URLs
    path("serve/", views.serve, name="serve"),
    path("positions/<str:key>/", views.position, name="position"),
    path("positions/<str:key>/serve/", views.position_serve, name="position_serve"),
    path("attempts/<str:token>/", views.attempt, name="attempt"),
    path("attempts/<str:token>/answer/", views.answer, name="answer"),
    path("progress/", views.progress, name="progress"),
    path("tutorial/", views.tutorial_index, name="tutorial"),
    path("quiz/", views.rules_quiz, name="quiz"),  # the house rules' quiz
    path("quiz/<str:game>/", views.rules_quiz, name="quiz_game"),
    path("tutorial/<slug:slug>/", views.lesson, name="lesson"),
    path("tutorial/<slug:slug>/serve/", views.lesson_serve, name="lesson_serve"),
    # the review of your own round at a live table
    path("review/<str:code>/<int:number>/", review_views.round_review, name="round_review"),
    path(
        "review/<str:code>/<int:number>/start",
        review_views.round_review_start,
        name="round_review_start",
    ),
    path(
        "review/<str:code>/<int:number>/practise/<int:index>",
        review_views.round_review_practise,
        name="round_review_practise",
    ),
]
