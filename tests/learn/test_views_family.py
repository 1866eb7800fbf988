"""Trainer pages at the full-deck tables: the game chosen is kept for the next visit,
naming trump is answered by buttons (the discard by tapping cards:
tests/learn/test_views_discard.py), and a page draws only what the seat may see (its
hand, the cards played, its own discard and fill)."""

import json
import re

import pytest

from game.engine.cards import CARD_CODES, cards_of
from game.engine.rules import Phase
from game.players.identity import SeatOwner
from learn import services, tutorial
from learn.models import Attempt, Learner, PracticePosition
from tests.learn.core.test_positions_family import discards, legal
from tests.learn.family import FAMILY, match_at, position_at
from tests.learn.test_views import serve, served, shown

pytestmark = pytest.mark.django_db


def family_position(preset: str, phase: Phase):
    match = match_at(preset, phase)
    return position_at(match, discards(match) if phase is Phase.EXCHANGE else legal(match))


@pytest.fixture
def family_bank(db) -> list[PracticePosition]:
    cores = [
        family_position(preset, phase)
        for preset in FAMILY
        for phase in (Phase.AUCTION, Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY)
    ]
    report = services.positions_load(lines=[json.dumps(core.to_json()) for core in cores])
    assert not report.errors and report.created == len(cores)
    return list(PracticePosition.objects.order_by("pk"))


def test_a_loaded_position_knows_its_game(family_bank):
    assert {p.preset for p in family_bank} == set(FAMILY)
    assert {p.phase for p in family_bank} >= {"auction", "trump", "discard"}


def test_the_game_chosen_is_served_and_kept_for_the_next_visit(client, family_bank):
    attempt = served(client, "game=seven_point")
    assert attempt.position.preset == "seven_point"
    assert Learner.objects.get(pk=attempt.learner_id).preset == "seven_point"

    page = client.get("/learn/?next=1").text  # no game in the query: the one kept
    assert re.search(r'<option value="seven_point" selected>', page)
    page = serve(client, "next=1").text  # nor in the post
    assert re.search(r'<option value="seven_point" selected>', page)
    again = Attempt.objects.filter(learner_id=attempt.learner_id).order_by("-pk").first()
    assert again != attempt and again.position.preset == "seven_point"
    assert shown(page) == again

    # a game in the query only preselects it; the post keeps it
    page = client.get("/learn/?game=classic").text
    assert re.search(r'<option value="classic" selected>', page)
    assert Learner.objects.get(pk=attempt.learner_id).preset == "seven_point"
    served(client, "game=")  # "any game" is a choice too, and is kept
    assert Learner.objects.get(pk=attempt.learner_id).preset == ""


def test_a_game_that_is_no_preset_is_ignored_and_not_kept(client, family_bank):
    served(client, "game=classic")
    response = client.get("/learn/?game=bogus")
    assert response.status_code == 200
    assert client.post("/learn/serve/", {"game": "bogus"}).status_code == 400
    assert Learner.objects.get().preset == "classic"


def test_a_signed_in_learner_gets_their_game_back_in_a_new_session(
    client, family_bank, django_user_model
):
    user = django_user_model.objects.create_user("ann", password="pw-ann-12345")
    client.force_login(user)
    served(client, "game=six_handed")
    client.logout()
    client.force_login(user)
    attempt = served(client)
    assert attempt.position.preset == "six_handed"


def test_naming_trump_offers_the_four_suits(client, family_bank):
    attempt = served(client, "game=classic&phase=trump")
    page = client.get(f"/learn/attempts/{attempt.token}/").text
    buttons = re.findall(r'name="choice" value="([^"]+)"', page)
    assert sorted(buttons) == ["trump:C", "trump:D", "trump:H", "trump:S"]
    assert "Your trump" in page


def test_every_family_page_draws_only_what_the_seat_may_see(client, family_bank):
    for position in family_bank:
        page = client.post(f"/learn/positions/{position.key}/serve/", follow=True).text
        view = position.core.view()
        visible = view.hand | view.played | view.discard | view.fill
        drawn = set(re.findall(r'data-card="([^"]+)"', page))
        assert drawn, f"{position.key} draws no card"
        assert drawn <= {CARD_CODES[c] for c in cards_of(visible)}, position.key


def test_a_lesson_serves_only_its_own_games_positions(family_bank):
    learner = services.learner_get_or_create(owner=SeatOwner(session_key="lesson-guest"))
    house = tutorial.BY_GAME["house"]
    assert all(services.lesson_serve(learner=learner, lesson=x) is None for x in house)
    for lesson in tutorial.LESSONS:
        attempt = services.lesson_serve(learner=learner, lesson=lesson)
        assert attempt is None or attempt.position.preset == lesson.preset
