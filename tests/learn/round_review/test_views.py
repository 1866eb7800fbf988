"""The review pages: only your own seat, only finished rounds; "Practise this" puts the
decision into your practice queue in the trainer, and nobody else's."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django_tasks_db.models import DBTaskResult

from game.engine.cards import card_code, cards_of
from game.engine.state import MatchState, RoundState
from game.players.identity import SeatOwner
from learn import selectors, services
from learn.models import Attempt, MissedPosition, PracticePosition, RoundReview
from learn.round_review import services as review_services
from learn.round_review import tasks, worker
from tests.game.stored import stored_table
from tests.learn.reviewing import BLUNDER_SEAT, MONSTER, monster_deal, monster_round
from tests.learn.test_views import TRUTH, received

# the worker closes and reopens its database connection, as a real one does: no test
# transaction around it
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(make_user):
    user = make_user("ann")
    seats = [{"bot_level": "greedy"} for _ in range(4)]
    seats[BLUNDER_SEAT] = {"user": user, "display_name": "Ann"}
    found = stored_table(monster_round("pass"), seats, status="finished")
    found.user = user
    return found


def _reviewed(client, table) -> str:
    client.force_login(table.user)
    url = f"/learn/review/{table.code}/1/"
    assert "Review my decisions" in client.get(url).content.decode()
    assert client.post(url + "start").status_code == 302
    call_command("db_worker", batch=True, startup_delay=False, interval=0, verbosity=0)
    return client.get(url).content.decode()


def test_the_review_page_shows_progress_while_it_runs_then_the_graded_decisions(client, table):
    client.force_login(table.user)
    url = f"/learn/review/{table.code}/1/"
    client.post(url + "start")
    running = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert "<progress" in running and 'hx-trigger="every 2s"' in running
    call_command("db_worker", batch=True, startup_delay=False, interval=0, verbosity=0)
    html = client.get(url).content.decode()
    assert "<progress" not in html and "hx-trigger" not in html
    assert 'data-grade="blunder"' in html
    assert "Practise this" in html
    assert "Passing is a blunder: " in html  # the trainer's words, on the heading's scale
    assert '<span class="review-grade learn-grade learn-grade--blunder">Blunder</span>' in html
    assert "1 blunder" in html  # the count, by the same verdict
    assert "style=" not in html.split('id="review"')[1]


def test_the_review_page_is_handed_no_stored_row_and_no_hidden_card(client, table):
    _reviewed(client, table)
    for url in (f"/learn/review/{table.code}/1/", f"/learn/review/{table.code}/1/start"):
        response = client.get(url) if url.endswith("/") else client.post(url, follow=True)
        handed = received(response)
        assert any(path.startswith("page.decisions") for path, _ in handed)
        for path, value in handed:
            assert not isinstance(value, TRUTH), f"{path} is a {type(value).__name__}"
        hidden = {card_code(c) for c in cards_of(monster_deal().hidden)}
        assert not hidden & {value for _, value in handed if isinstance(value, str)}


def test_nobody_else_sees_the_review(client, table, make_user):
    _reviewed(client, table)
    client.force_login(make_user("eve"))
    assert client.get(f"/learn/review/{table.code}/1/").status_code == 403
    assert client.post(f"/learn/review/{table.code}/1/start").status_code == 403
    assert client.post(f"/learn/review/{table.code}/1/practise/0").status_code == 403


def test_a_round_still_in_play_is_not_reviewed_or_shown(client, make_user):
    user = make_user("bo")
    state = monster_round("pass").rounds[0]
    cut = RoundState(state.setup, state.deal, state.scores)
    for action in state.history[:5]:
        cut = cut.apply(action)
    seats = [{"bot_level": "greedy"}] * 4
    seats[BLUNDER_SEAT] = {"user": user}
    table = stored_table(MatchState(state.setup, 0, (cut,)), seats)
    client.force_login(user)
    assert client.get(f"/learn/review/{table.code}/1/").status_code == 404
    assert client.post(f"/learn/review/{table.code}/1/start").status_code == 404
    assert not RoundReview.objects.exists()


def test_practise_this_queues_the_decision_in_your_own_trainer(client, table, make_user):
    _reviewed(client, table)
    response = client.post(f"/learn/review/{table.code}/1/practise/0")
    position = PracticePosition.objects.get()
    assert response.status_code == 302 and response.url == f"/learn/positions/{position.key}/"
    learner = selectors.learner_for(owner=SeatOwner(user_id=table.user.pk))
    assert position.owner == learner
    queued = MissedPosition.objects.get(learner=learner)
    assert queued.position == position and queued.solved_at is None
    # the practice queue serves it first, as a missed position due now ...
    served = services.attempt_serve(learner=learner, filters=selectors.Filters())
    # practice only: the review showed its best answer (issue 49: ratings farmed so)
    assert served.position == position and not served.rated
    assert served.unrated_reason == Attempt.Unrated.OWN_REVIEW
    # ... and the button's redirect shows it in the trainer's own viewer
    page = client.get(response.url, follow=True)
    assert page.status_code == 200
    assert page.redirect_chain[-1][0] == f"/learn/attempts/{served.token}/"
    assert Attempt.objects.filter(learner=learner).count() == 1

    # it is nobody else's: not served, not even by its key
    other = services.learner_get_or_create(owner=SeatOwner(session_key="someone"))
    assert services.attempt_serve(learner=other, filters=selectors.Filters()) is None
    with pytest.raises(services.UnknownPosition):
        services.attempt_serve(learner=other, filters=selectors.Filters(), key=position.key)


def test_practise_this_twice_keeps_one_position_and_one_queue_entry(client, table):
    _reviewed(client, table)
    client.post(f"/learn/review/{table.code}/1/practise/0")
    client.post(f"/learn/review/{table.code}/1/practise/0")
    assert PracticePosition.objects.count() == 1 and MissedPosition.objects.count() == 1
    assert client.post(f"/learn/review/{table.code}/1/practise/99").status_code == 404


def test_one_person_may_have_only_a_few_reviews_waiting(client, make_user):
    user = make_user("gus")
    seats = [{"bot_level": "greedy"} for _ in range(4)]
    seats[BLUNDER_SEAT] = {"user": user}
    tables = [
        stored_table(monster_round("pass", seed=seed), seats, status="finished")
        for seed in range(review_services.WAITING_PER_PERSON + 1)
    ]
    client.force_login(user)
    for table in tables[:-1]:
        client.post(f"/learn/review/{table.code}/1/start")
    assert RoundReview.objects.count() == review_services.WAITING_PER_PERSON
    last = f"/learn/review/{tables[-1].code}/1/"
    page = client.post(last + "start", headers={"HX-Request": "true"}).content.decode()
    assert "reviews waiting already" in page and "Review my decisions" in page
    assert RoundReview.objects.count() == review_services.WAITING_PER_PERSON
    # asking again for one already queued is no new review, and is never refused
    client.post(f"/learn/review/{tables[0].code}/1/start")
    call_command("db_worker", batch=True, startup_delay=False, interval=0, verbosity=0)
    assert client.post(last + "start").status_code == 302
    assert RoundReview.objects.count() == review_services.WAITING_PER_PERSON + 1


def test_a_waiting_review_says_when_no_worker_is_running(client, table):
    client.force_login(table.user)
    url = f"/learn/review/{table.code}/1/"
    client.post(url + "start")

    assert "No review worker is running" in client.get(url).content.decode()

    worker.beat(name="host:123")
    assert "No review worker is running" not in client.get(url).content.decode()


def test_each_reviewed_decision_draws_the_position_the_seat_saw(client, table):
    import re

    html = _reviewed(client, table)
    articles = html.split('<article class="review-decision')[1:]
    assert articles
    first = articles[0]  # the opening call: the monster hand, nobody has bid yet
    hand = first.split('class="hand review-hand"')[1].split("</div>")[0]
    assert set(re.findall(r'data-card="([^"]+)"', hand)) == set(MONSTER)
    assert "Auction" in first and "Trump:" in first
    later = [a for a in articles if "Tricks so far" in a]
    assert later, "no card decision shows its trick"
    # its options in plain figures: no "±", one rounding for the header and its row
    assert "±" not in html


def test_a_queued_review_says_so_in_plain_words(client, table):
    client.force_login(table.user)
    url = f"/learn/review/{table.code}/1/"
    client.post(url + "start")
    html = client.get(url).content.decode()
    assert "worker" not in html.split('role="status"')[1].split("</p>")[0]
    assert "in the queue" in html


def test_looking_at_a_stale_review_writes_nothing_and_queues_nothing(client, table):
    client.force_login(table.user)
    url = f"/learn/review/{table.code}/1/"
    client.post(url + "start")
    DBTaskResult.objects.all().delete()  # its task lost: only a worker's resume brings it back
    passed = tasks.QUEUE_PATIENCE + timedelta(seconds=1)
    RoundReview.objects.update(enqueued_at=F("enqueued_at") - passed)
    assert tasks.stale_reviews().exists()
    before = list(RoundReview.objects.values())

    with CaptureQueriesContext(connection) as queries:
        for headers in ({}, {"HX-Request": "true"}):  # the page, and its poll
            assert client.get(url, headers=headers).status_code == 200

    writes = [
        query["sql"]
        for query in queries
        if query["sql"].lstrip().split()[0].upper() in ("INSERT", "UPDATE", "DELETE", "REPLACE")
    ]
    assert not writes
    assert list(RoundReview.objects.values()) == before
    assert not DBTaskResult.objects.exists()
