"""The review page for a round of a full-deck game: the seat's bid, the suit it named,
its discard and its cards, each priced and explained in that game's words, and "Practise
this" hands the trainer a position of that game."""

import pytest
from django.core.management import call_command

from learn.models import MissedPosition, PracticePosition
from learn.round_review import decisions
from tests.game.stored import stored_table
from tests.learn.round_review.test_decisions_family import played_round

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def classic_table(make_user, monkeypatch):
    # a small budget, bounded by deals: the page is under test, not the analysis
    quick = decisions.Budget(analysis_ms=5000, max_deals=6)
    monkeypatch.setattr(decisions, "REVIEW_BUDGET", quick)
    match, seat = played_round("classic")
    user = make_user("cleo")
    seats = [{"bot_level": "greedy"} for _ in range(4)]
    seats[seat] = {"user": user, "display_name": "Cleo"}
    table = stored_table(match, seats, status="finished")
    table.user = user
    return table


def test_a_classic_round_is_reviewed_in_its_games_words_and_practised(client, classic_table):
    client.force_login(classic_table.user)
    url = f"/learn/review/{classic_table.code}/1/"
    assert client.post(url + "start").status_code == 302
    call_command("db_worker", batch=True, startup_delay=False, interval=0, verbosity=0)
    html = client.get(url).content.decode()
    review = classic_table.reviews.get()
    assert review.status == "done" and len(review.decisions) == review.total
    assert "data-marked=" in html  # the finished review ("Practise this" marks costly ones)
    assert "Naming " in html and "Discarding " in html  # the suit named and the discard
    assert "Classic four-point: 4 points in play" in html

    index = next(d["index"] for d in review.decisions if d["position"]["phase"] == "discard")
    response = client.post(f"{url}practise/{index}")
    assert response.status_code == 302
    practised = MissedPosition.objects.get().position
    assert practised.preset == "classic" and practised.phase == "discard"
    assert PracticePosition.objects.filter(owner__isnull=False).count() == 1
