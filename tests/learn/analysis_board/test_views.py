"""The analysis board's pages: a position tapped in, refused in words when it cannot be,
answered once on the task queue within the visitor's budget, and private to its board."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from game.engine import board_notation, variants
from game.engine.cards import CARD_CODES, cards_of
from learn.analysis_board import answers, tasks
from learn.models import BoardAnswer
from tests.game.engine.test_board import board_of, random_round

pytestmark = pytest.mark.django_db

BUDGET = {"budget_ms": 60_000.0, "max_deals": 6}
# house rules, four players in two sides, seat 3 deals: seat 0 bids first
HANDS = ["AS10SJSJ1KHQD", "KSQSJH10H9D9C", "AH9S10DJDKCQC", "AD10CJCAC9HQH"]


@pytest.fixture(autouse=True)
def _brief_expert(settings):
    settings.SMEAR_BOARD_EXPERT = BUDGET


def _form(hands=(HANDS[0],), actions="", seat=0, **more):
    data = {
        "preset": "house",
        "players": "4",
        "layout": "2v2",
        "target": "21",
        "dealer": "3",
        "seat": str(seat),
        "scores": "0 0",
        "actions": actions,
        **more,
    }
    for index, hand in enumerate(hands):
        if hand:
            data[f"hand_{index}"] = _codes(hand)
    return data


def _codes(hand: str) -> list[str]:
    return [m.group() for m in re.finditer(r"(?:10|[2-9JQKA])[SHDC]|J[12]", hand)]


def _notation(hands=(HANDS[0], "x", "x", "x"), actions=""):
    return f"1~house~02.13~3~0.0~0~{'.'.join(hands)}~x~{actions}"


def _work_every_answer() -> None:
    for row in BoardAnswer.objects.filter(status=BoardAnswer.Status.QUEUED):
        tasks.board_work(answer_id=row.pk)


def test_a_hand_tapped_in_opens_its_board_by_its_notation(client):
    response = client.post("/analysis/", _form())
    assert response.status_code == 302
    canonical = board_notation.write(board_notation.read(_notation()))
    assert response["Location"] == f"/analysis/{canonical}/"
    page = client.get(response["Location"]).content.decode()
    assert "Ask the expert" in page
    assert 'data-card="J1"' in page


def test_the_table_step_shows_the_tables_deck_to_tap(client):
    page = client.get("/analysis/", {"preset": "house", "players": "4", "layout": "2v2"})
    text = page.content.decode()
    assert text.count('name="hand_0"') == 26  # the four-player deck: 9 to ace, two jokers
    assert 'name="hand_4"' not in text


@pytest.mark.parametrize(
    ("form", "field_words"),
    [
        (_form(hands=(HANDS[0], "AS" + HANDS[1][2:])), "AS is in two hands: seat 0's and seat 1's"),
        (_form(hands=(HANDS[0][:-2],)), "seat 0 holds 5 cards; a hand is 6"),
        (_form(actions="b3 b2"), "action 2: seat 1 could not bid 2: a bid must beat"),
        (
            _form(hands=HANDS, actions="b2 p p p AS KC"),
            "action 6: seat 1 could not play the king of clubs (KC)",
        ),
        (_form(hands=("",)), "the hand of seat 0, the seat asking, is needed"),
    ],
    ids=["card-twice", "hand-size", "bid-below-high-bid", "card-not-held", "no-hand"],
)
def test_an_impossible_position_is_refused_with_its_reason_and_nothing_stored(
    client, form, field_words
):
    response = client.post("/analysis/", form)
    assert response.status_code == 400
    assert field_words in html.unescape(response.content.decode())
    assert not BoardAnswer.objects.exists()


@pytest.mark.parametrize(
    ("form", "seat", "words"),
    [
        (_form(hands=(HANDS[0], "AS" + HANDS[1][2:])), 1, "AS is in two hands"),
        (_form(hands=(HANDS[0], "x", HANDS[2][:-2])), 2, "seat 2 holds 5 cards"),
        (_form(hands=("", HANDS[1]), seat=0), 0, "the hand of seat 0, the seat asking"),
    ],
    ids=["card-twice", "hand-size", "no-hand"],
)
def test_a_hands_error_is_shown_beside_that_hand(client, form, seat, words):
    text = html.unescape(client.post("/analysis/", form).content.decode())
    hands = re.findall(r'<details class="board-hand" data-seat="(\d)"(.*?)</details>', text, re.S)
    assert len(hands) == 4
    assert [int(s) for s, block in hands if words in block] == [seat]
    assert text.count(words) == 1  # there alone, not again above the form


def test_a_notation_that_is_no_board_is_refused_in_words(client):
    response = client.get("/analysis/1~house~02.13~3~0.0~0~ASAS~x~/")
    assert response.status_code == 400
    assert "This board cannot be" in response.content.decode()


def test_asking_queues_each_answer_once_and_opening_again_recomputes_nothing(client):
    url = f"/analysis/{_notation(HANDS, actions='b2.p.p.p')}/"
    assert client.post(url + "ask/").status_code == 302
    assert BoardAnswer.objects.count() == 2  # the expert's and the exact table
    assert DBTaskResult.objects.count() == 2
    waiting = client.get(url).content.decode()
    assert "The expert is thinking" in waiting and 'hx-trigger="every 1s"' in waiting
    assert "data-took" not in waiting and "lately" not in waiting  # no answer yet: no claim
    assert set(BoardAnswer.objects.values_list("players", flat=True)) == {4}
    _work_every_answer()
    page = client.get(url).content.decode()
    assert "The expert's choice:" in page
    assert "Every option" in page and "Bid made" in page
    # the expert's row is tagged as the expert's: nobody here chose it
    assert "the expert's</small>" in page
    assert '<small class="learn-tag">yours</small>' not in page
    assert "The exact table" in page and 'data-lead="' in page
    assert 'hx-trigger="every 1s"' not in page
    client.post(url + "ask/")  # asked again, from another visitor even: found, not queued
    Client(REMOTE_ADDR="10.0.0.9").post(url + "ask/")
    assert BoardAnswer.objects.count() == 2
    assert DBTaskResult.objects.count() == 2


def _answered(kind: str, players: int, seconds: float) -> None:
    now = timezone.now()
    row = BoardAnswer.objects.create(
        key=f"{kind}-{players}-{seconds}", kind=kind, players=players, status="done"
    )
    BoardAnswer.objects.filter(pk=row.pk).update(
        created_at=now - timedelta(seconds=seconds), finished_at=now
    )


def test_while_it_waits_the_page_says_how_long_answers_at_that_table_size_took(client):
    for seconds in (2, 3, 40):
        _answered("expert", 4, seconds)
    _answered("expert", 6, 10)  # another size
    _answered("expert", 0, 10)  # stored before the size was kept
    _answered("exact", 4, 10)  # the solver's
    url = f"/analysis/{_notation()}/"
    client.post(url + "ask/")
    waiting = html.unescape(client.get(url).content.decode())
    assert "At four players the expert has taken about 3 seconds here lately." in waiting
    assert "10 seconds" not in waiting and "six players" not in waiting


def test_past_the_visitors_budget_a_new_board_is_refused_with_words(client, settings):
    settings.SMEAR_BOARD_ANSWERS_PER_HOUR = 1
    assert client.post(f"/analysis/{_notation()}/ask/").status_code == 302
    other = (HANDS[1], "x", "x", "x")
    response = client.post(f"/analysis/{_notation(other)}/ask/")
    assert response.status_code == 429
    assert "new answers an hour" in response.content.decode()
    assert BoardAnswer.objects.count() == 1
    assert client.post(f"/analysis/{_notation()}/ask/").status_code == 302  # answered already


def test_hands_typed_in_never_reach_another_visitors_board():
    typed = Client(REMOTE_ADDR="10.0.0.1")
    other = Client(REMOTE_ADDR="10.0.0.2")
    every_hand = f"/analysis/{_notation(HANDS)}/"
    typed.post(every_hand + "ask/")
    _work_every_answer()
    own_hand = f"/analysis/{_notation()}/"
    other.post(own_hand + "ask/")  # the same view: the expert's answer is found, not worked
    _work_every_answer()
    page = other.get(own_hand).content.decode()
    assert "The expert's choice:" in page
    assert "The exact table" not in page
    for code in (c for s in (1, 2, 3) for c in _codes(HANDS[s])):
        assert f'data-card="{code}"' not in page
    assert BoardAnswer.objects.filter(kind="exact").count() == 1
    assert set(BoardAnswer.objects.values_list("notation", flat=True)) == {
        board_notation.write(board_notation.read(_notation(HANDS)))
    }


def test_past_a_fill_not_given_the_page_says_why_the_expert_cannot_answer(client):
    setup, deal, actions, state = random_round(variants.SEVEN_POINT, 4, 3, cards_played=2)
    seat = state.current_player()
    board = board_of(setup, deal, actions, seat=seat, known=())
    url = f"/analysis/{board_notation.write(board)}/"
    page = html.unescape(client.get(url).content.decode())
    assert f"The expert cannot answer: seat {seat} drew 3 cards from the pack" in page
    client.post(url + "ask/")
    assert not BoardAnswer.objects.exists()
    drawn = board_notation.write(replace(board, fill=state.fills[seat]))
    page = client.get(f"/analysis/{drawn}/").content.decode()
    assert "Your fill, drawn from the pack" in page and "In your hand now" in page
    client.post(f"/analysis/{drawn}/ask/")
    assert BoardAnswer.objects.filter(kind="expert").count() == 1
    form = client.get("/analysis/", {"board": drawn}).content.decode()
    chosen = re.findall(r'name="fill" value="(\w+)" checked', form)
    assert chosen == [CARD_CODES[c] for c in cards_of(state.fills[seat])]  # to change it


def _moves(client, **form) -> str:
    response = client.get("/analysis/moves/", _form(**form))
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_the_round_so_far_offers_the_legal_calls_and_cards_to_tap(client):
    auction = _moves(client, actions="b2")
    assert "Seat 1 to bid" in auction
    assert re.findall(r'data-append="(\w+)"', auction) == ["b3", "b4", "b5", "b6", "p"]
    own = _moves(client, actions="b2 p p p")  # seat 0 leads from its own hand: its legal cards
    state = answers.read(_notation(actions="b2.p.p.p")).state
    assert re.findall(r'data-append="(\w+)"', own) == [CARD_CODES[c] for c in state.legal_actions()]
    hidden = set(re.findall(r'data-append="(\w+)"', _moves(client, actions="b2 p p p AS")))
    assert hidden and not hidden & set(_codes(HANDS[0]))  # seat 1's hand not given: any other
    assert "a bid must beat the high bid of 3" in _moves(client, actions="b3 b2")
    assert not BoardAnswer.objects.exists()


def test_a_fill_tapped_in_goes_into_the_boards_notation(client):
    setup, deal, actions, state = random_round(variants.SEVEN_POINT, 4, 3, cards_played=2)
    seat = state.current_player()
    form = _form(
        hands=[""] * seat + ["".join(CARD_CODES[c] for c in cards_of(deal.hands[seat]))],
        seat=seat,
        actions=" ".join(board_notation.write_action(a) for _, a in actions),
        preset="seven_point",
        dealer=str(deal.dealer),
        fill=[CARD_CODES[c] for c in cards_of(state.fills[seat])],
    )
    response = client.post("/analysis/", form)
    assert response.status_code == 302
    board = board_notation.read(response["Location"].split("/")[2])
    assert board.fill == state.fills[seat]
