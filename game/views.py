from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from game import rules_guide
from game.engine import cards as engine_cards
from game.engine import notation, variants
from game.engine import rules as engine_rules


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    # liveness only: answers without touching the database or Redis
    return HttpResponse("ok", content_type="text/plain")


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    guides = rules_guide.preset_guides()  # the house rules first
    return render(
        request,
        "game/rules.html",
        {
            "deck_rows": rules_guide.deck_table(),
            "examples": rules_guide.play_examples(),
            "hand_size": engine_cards.HAND_SIZE,
            "min_players": engine_cards.MIN_PLAYERS,
            "max_players": engine_cards.MAX_PLAYERS,
            "max_bid": engine_rules.MAX_BID,
            "target": engine_rules.DEFAULT_TARGET,
            # one section per preset, anchored by its name: /rules/#classic
            "guides": guides,
            "house": guides[0],
            "family": guides[1:],
            "option_examples": rules_guide.option_examples(),
            "one_joker_point": notation.POINT_NAMES["jokers"],
            "targets": variants.TARGETS,
            "default_target": variants.HOUSE.target,
        },
    )
