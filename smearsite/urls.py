from django.contrib import admin
from django.urls import include, path

from game.players.accounts import AdminLoginForm

# the admin's log-in is paused after failures like the site's, on the same counts
admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("game.urls")),
    # donate page, thank-you page, supporters list, Stripe webhook
    path("donate/", include("donations.urls")),
    # score sheets for games played at a kitchen table
    path("sheets/", include("scoresheet.urls")),
    # the practice trainer: positions, reveals, ratings, tutorial
    path("learn/", include("learn.urls")),
    # the analysis board: any position set up by hand, answered by the expert and the solver
    path("analysis/", include("learn.analysis_board.urls")),
    # sign-up, log-in, log-out, password change and reset (django-allauth)
    path("accounts/", include("allauth.urls")),
]
