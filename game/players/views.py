"""The players' own pages: the profile (name, history, ratings), the leaderboards, and
saving how a person likes the table drawn."""

from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from donations import selectors as donation_selectors
from game.bots import ABOUT_LEVELS, OFFERED_LEVELS
from game.bots.levels import tuned_presets
from game.engine import cards as engine_cards
from game.engine.notation import PRESET_NAMES, listed
from game.players import history, ladder, profiles, ratings, table_prefs
from game.players.forms import ProfileForm
from smearsite.kernel import BadNumber, request_int


@require_POST
def table_prefs_save(request: HttpRequest) -> HttpResponse:
    """Keep how this person likes the table drawn, then back to the page they were on."""
    picked = table_prefs.keep(request.session, request.POST.getlist("pref"))
    if request.user.is_authenticated:
        profiles.profile_table_prefs_save(user=request.user, prefs=picked)
    messages.success(request, "Your table settings are saved.")
    back = local_path(request, request.POST.get("next", ""))
    return HttpResponseRedirect(back or reverse("game:play"))


def local_path(request: HttpRequest, value: str) -> str | None:
    """``value`` when it is a path on this site ("/rules/", with a query or not), else None.
    Never a URL name (``redirect`` would reverse a bare word, and fail on most), nor
    another site ("//host", "/\\host"), nor a header's worth of line breaks."""
    if not value.startswith("/") or any(ord(char) < 32 or ord(char) == 127 for char in value):
        return None
    if not url_has_allowed_host_and_scheme(
        value, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return None
    parts = urlsplit(value)
    return value if not parts.scheme and not parts.netloc else None


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    current = profiles.profile_get_or_create(user=request.user)
    data = request.POST if request.method == "POST" else None
    initial = {"display_name": current.display_name, "on_leaderboard": current.on_leaderboard}
    form = ProfileForm(data, initial=initial, user=request.user)
    if request.method == "POST" and form.is_valid():
        profiles.profile_update(
            user=request.user,
            display_name=form.cleaned_data["display_name"],
            on_leaderboard=form.cleaned_data["on_leaderboard"],
        )
        listed = form.cleaned_data["on_leaderboard"]
        messages.success(
            request,
            "Your display name is saved."
            + (" You are listed on the leaderboards." if listed else ""),
        )
        return redirect("game:profile")
    # a paid donation earns the supporter badge
    is_supporter = donation_selectors.user_is_supporter(user=request.user)
    tables = history.tables_for(user_id=request.user.pk)
    return render(
        request,
        "game/profile.html",
        {
            "profile": current,
            "form": form,
            "is_supporter": is_supporter,
            "tables": tables,
            "stats": history.stats_for(tables),
            "points_chart": history.points_chart(tables),
            "ratings": [
                (
                    r,
                    history.chart(
                        ratings.rating_history(user_id=request.user.pk, players=r.players)
                    ),
                )
                for r in ratings.ratings_for(user_id=request.user.pk)
            ],
            "min_matches": ratings.LEADERBOARD_MIN_MATCHES,
        },
    )


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    """Opted-in players by rating, at one table size (``?players=N``, 4 by default)."""
    try:
        players = request_int(request.GET.get("players"), name="table size", digits=2) or 4
    except BadNumber as forged:
        return HttpResponseBadRequest(str(forged))
    if not engine_cards.MIN_PLAYERS <= players <= engine_cards.MAX_PLAYERS:
        players = 4
    anchored_at, bots = ratings.bot_anchors(players=players)
    return render(
        request,
        "game/leaderboard.html",
        {
            "players": players,
            "sizes": range(engine_cards.MIN_PLAYERS, engine_cards.MAX_PLAYERS + 1),
            "leaders": ratings.leaderboard(players=players),
            "min_matches": ratings.LEADERBOARD_MIN_MATCHES,
            "bots": bots,
            "bots_game": PRESET_NAMES.get(anchored_at),
        },
    )


def _tuned_games() -> str:
    """``classic four-point and seven-point``: the games where the levels play a tuning of
    their own, not their house errors; empty where none."""
    tuned = tuned_presets()
    games = [name.lower() for preset, name in PRESET_NAMES.items() if preset in tuned]
    return listed(games) if games else ""


@require_safe
def bots(request: HttpRequest) -> HttpResponse:
    """The bots' levels: how each plays, and its rating on the ladder in every game."""
    return render(
        request,
        "game/bots.html",
        {
            "levels": [(level, *ABOUT_LEVELS[level]) for level in OFFERED_LEVELS],
            "tuned_games": _tuned_games(),
            "tables": ladder.ladder_tables(),
            "fixed": ratings.fixed_anchors(),
        },
    )
