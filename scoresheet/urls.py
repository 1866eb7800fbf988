from django.urls import path

from scoresheet import views

app_name = "scoresheet"

urlpatterns = [
    path("", views.sheet_list, name="list"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("offline/", views.offline, name="offline"),
    path("new/", views.sheet_new, name="new"),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join_code, name="join_code"),
    path("watch/<str:token>/", views.watch, name="watch"),
    path("watch/<str:token>/sheet/", views.watch_sheet, name="watch_sheet"),
    path("<int:sheet_id>/", views.sheet_detail, name="sheet"),
    path("<int:sheet_id>/hands/", views.hand_add, name="hand_add"),
    path("<int:sheet_id>/hands/preview/", views.hand_preview, name="hand_preview"),
    path("<int:sheet_id>/hands/sync/", views.hands_sync, name="hands_sync"),
    path("<int:sheet_id>/hands/<int:number>/", views.hand_edit, name="hand_edit"),
    path("<int:sheet_id>/hands/<int:number>/delete/", views.hand_delete, name="hand_delete"),
    path("<int:sheet_id>/history/", views.sheet_history, name="history"),
    path("<int:sheet_id>/history/<int:change_id>/undo/", views.change_undo, name="undo"),
    path("<int:sheet_id>/end/", views.sheet_end, name="end"),
    path("<int:sheet_id>/strike/", views.sheet_strike, name="strike"),
    path("<int:sheet_id>/rematch/", views.sheet_rematch, name="rematch"),
    path("<int:sheet_id>/codes/", views.sheet_codes, name="codes"),
    path("<int:sheet_id>/export.csv", views.export_csv, name="export_csv"),
    path("<int:sheet_id>/export.json", views.export_json, name="export_json"),
]
