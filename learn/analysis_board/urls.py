from django.urls import path

from learn.analysis_board import views

app_name = "analysis"

urlpatterns = [
    path("", views.board_new, name="new"),
    path("moves/", views.board_moves, name="moves"),
    # a board is its notation: letters, digits and . - _ ~, no slash
    path("<str:notation>/", views.board, name="board"),
    path("<str:notation>/ask/", views.board_ask, name="ask"),
]
