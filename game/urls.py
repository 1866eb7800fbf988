from django.urls import path

from game import chat_views, lobby_views, table_views, views
from game.players import views as player_views

app_name = "game"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("rules/", views.rules, name="rules"),
    path("accounts/profile/", player_views.profile, name="profile"),
    path("leaderboard/", player_views.leaderboard, name="leaderboard"),
    path("bots/", player_views.bots, name="bots"),
    path("settings/table", player_views.table_prefs_save, name="table_prefs"),
    # play bots now, and the table page with its moves and hand history
    path("play/", table_views.play, name="play"),
    # tables with friends: the list, a new table, join by code, seats and the start
    path("tables/", lobby_views.tables, name="tables"),
    path("tables/new", lobby_views.table_new, name="table_new"),
    path("join", lobby_views.join_by_code, name="join"),
    path("table/<str:code>/lobby", lobby_views.table_lobby, name="table_lobby"),
    path("table/<str:code>/", table_views.table, name="table"),
    path("table/<str:code>/play", table_views.table_play, name="table_play"),
    path("table/<str:code>/back", table_views.table_back, name="table_back"),
    path("table/<str:code>/rematch", table_views.table_rematch, name="table_rematch"),
    path("table/<str:code>/chat", chat_views.table_chat, name="table_chat"),
    path("table/<str:code>/chat/switch", chat_views.table_chat_switch, name="table_chat_switch"),
    path("table/<str:code>/record", table_views.table_record, name="table_record"),
    path("table/<str:code>/rounds/<int:number>/", table_views.round_replay, name="round_replay"),
    path(
        "table/<str:code>/rounds/<int:number>/record",
        table_views.round_record,
        name="round_record",
    ),
]
