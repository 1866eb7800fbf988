"""The table pages through the Django test client: guests play, strangers cannot, and no
page ever shows a card its seat may not see."""

import json
import re

import pytest
from django.test import Client

from game.engine import record
from game.engine.cards import card_code, cards_of
from game.engine.rules import action_code
from game.live import redraw, store
from game.models import ActionLog, Round, Table
from game.players.identity import GUEST_TOKEN, SeatOwner

# transactional: a stored move's announcement (the bots' answer among it) runs on commit
pytestmark = pytest.mark.django_db(transaction=True)

GREEDY_2V2 = {
    "players": "4",
    "layout": "2v2",
    "bot_1": "greedy",
    "bot_2": "greedy",
    "bot_3": "greedy",
}
HTMX = {"HTTP_HX_REQUEST": "true"}


def start_table(client: Client, **form) -> Table:
    response = client.post("/play/", {**GREEDY_2V2, **form})
    assert response.status_code == 302
    code = response.url.rstrip("/").rsplit("/", 1)[-1]
    assert response.url == f"/table/{code}/"
    return Table.objects.get(code=code)


def truth(table: Table):
    table.refresh_from_db()
    return store.match_for_table(table)


def post_move(client: Client, table: Table, action: str, index=None, htmx=True):
    data = {"action": action}
    if index is not None:
        data["index"] = str(index)
    return client.post(f"/table/{table.code}/play", data, **(HTMX if htmx else {}))


def test_home_offers_play_bots_now_and_the_nav_links_play(client):
    body = client.get("/").text

    assert 'action="/play/"' in body and "Play bots now" in body
    nav = body.split('aria-label="Main"', 1)[1].split("</nav>", 1)[0]
    assert 'href="/play/"' in nav


def test_play_page_offers_players_layouts_and_bot_levels(client):
    body = client.get("/play/").text

    for option in ("2v2", "cutthroat", "3v3", "2v2v2", "4v4", "custom"):
        assert f'value="{option}"' in body
    for level in ("beginner", "casual", "club", "expert", "greedy"):
        assert f'value="{level}"' in body
    assert 'value="random"' not in body  # random is no opponent: it is offered no more
    assert 'name="bot_7"' in body


def test_one_click_from_home_makes_a_4_player_2v2_table_of_expert_bots(client):
    response = client.post("/play/", {"players": "4", "layout": "2v2"})

    table = Table.objects.get()
    assert response.url == f"/table/{table.code}/"
    assert table.teams == [[0, 2], [1, 3]]
    assert [s.bot_level for s in table.seats.all()] == [None, "expert", "expert", "expert"]


def test_the_play_page_speaks_of_you_not_seat_0_and_starts_with_the_usual_teams(client):
    body = client.get("/play/").text

    assert "seat 0" not in body.lower()
    assert '<option value="usual" selected>' in body
    assert 'class="bot-seat"' in body  # the pickers site.css hides beyond the player count


def test_three_players_with_the_teams_the_page_starts_with_make_a_cutthroat_table(client):
    client.post("/play/", {"players": "3", "layout": "usual"})

    table = Table.objects.get()
    assert table.teams == [[0], [1], [2]]
    assert [s.bot_level for s in table.seats.all()] == [None, "expert", "expert"]


def test_custom_teams_are_parsed_and_checked(client):
    table = start_table(
        client, players="5", layout="custom", custom_teams="0,3:1,4:2", bot_4="casual"
    )
    assert table.teams == [[0, 3], [1, 4], [2]]

    response = client.post("/play/", {**GREEDY_2V2, "layout": "custom", "custom_teams": "0,1:1"})
    assert response.status_code == 200 and "exactly one team" in response.text
    response = client.post("/play/", {**GREEDY_2V2, "layout": "3v3"})
    assert "for 6 players" in response.text
    assert Table.objects.count() == 1


def test_a_guest_creates_a_table_and_plays_a_move(client):
    table = start_table(client)
    page = client.get(f"/table/{table.code}/")
    assert page.status_code == 200 and "Your hand" in page.text and "Your turn" in page.text
    before = ActionLog.objects.filter(table=table, seat=0).count()
    legal = truth(table).legal_actions()

    response = post_move(client, table, action_code(legal[0]))

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="table"')  # the partial only
    assert ActionLog.objects.filter(table=table, seat=0).count() == before + 1


def test_without_htmx_a_move_redirects_back_to_the_table(client):
    table = start_table(client)
    legal = truth(table).legal_actions()

    response = post_move(client, table, action_code(legal[0]), htmx=False)

    assert response.status_code == 302 and response.url == f"/table/{table.code}/"


def test_bad_input_gets_a_clear_message_and_changes_nothing(client):
    table = start_table(client)
    count = ActionLog.objects.count()

    body = post_move(client, table, "QX").text
    assert "is not a bid, a pass or a card" in body
    assert "not your turn" in post_move(client, table, "pass", index=99).text
    followed = client.post(f"/table/{table.code}/play", {"action": "7Z"}, follow=True)
    assert "is not a bid, a pass or a card" in followed.text

    assert ActionLog.objects.count() == count


def test_another_session_cannot_see_or_act_for_the_seat(client):
    table = start_table(client)
    other = Client()
    count = ActionLog.objects.count()

    # the code is the capability: whoever has it may watch, but sees no hand
    watched = other.get(f"/table/{table.code}/")
    assert watched.status_code == 200 and "Your hand" not in watched.text
    for action in ("pass", "bid:1", action_code(truth(table).legal_actions()[0])):
        other.post(f"/table/{table.code}/play", {"action": action}, **HTMX)
    assert other.get(f"/table/{table.code}/record").status_code == 403

    assert ActionLog.objects.count() == count


def test_a_get_does_not_play_and_an_unknown_table_is_404(client):
    table = start_table(client)

    assert client.get(f"/table/{table.code}/play").status_code == 405
    assert client.get("/table/NOPE42/").status_code == 404


CARD_ATTR = re.compile(r'(?:data-card|value)="([0-9JQKA]{1,2}[SHDC]|J[12])"')
SUMMARY = re.compile(
    r'<(section|details|ol) class="(?:[a-z_ -]*(?:round-summary|match-end)'
    r'|trick trick--done won-by-\d trick--last-round)".*?</\1>',
    re.S,
)


def check_only_seat_0_knowledge(html: str, table: Table) -> None:
    """Every card the page names is seat 0's own, already played this round, or (in the
    round summary, or the last round's final trick before the next round's first bid)
    played in the round just finished."""
    match = truth(table)
    current = match.round
    finished = [r for r in match.rounds if r.is_terminal()]
    played_now = {card_code(c) for c in current.history if c < 54}
    own = {card_code(c) for c in cards_of(current.hands[0])}
    others = set()
    for seat, hand in enumerate(current.hands):
        if seat:
            others |= {card_code(c) for c in cards_of(hand)}
    others |= {card_code(c) for c in cards_of(current.deal.hidden)}
    last_round = set()
    if finished:
        last_round = {card_code(c) for c in finished[-1].history if c < 54}
    for block in SUMMARY.finditer(html):
        assert set(CARD_ATTR.findall(block.group(0))) <= last_round
    rest = SUMMARY.sub("", html)
    shown = set(CARD_ATTR.findall(rest))
    if current.is_terminal():  # the match is over: the final round is all played
        return
    assert not shown & others, f"seat 0 was shown {sorted(shown & others)}"
    assert shown <= own | played_now


def test_no_page_shows_a_card_seat_0_may_not_see(client):
    table = start_table(client)
    check_only_seat_0_knowledge(client.get(f"/table/{table.code}/").text, table)

    for _ in range(60):  # two rounds at least: the auctions and twelve tricks
        match = truth(table)
        if len(match.rounds) > 2 or match.is_terminal():
            break
        legal = match.legal_actions()
        index = len(match.round.history)
        html = post_move(client, table, action_code(legal[-1]), index=index).text
        check_only_seat_0_knowledge(html, table)
        check_only_seat_0_knowledge(client.get(f"/table/{table.code}/").text, table)

    assert Round.objects.filter(table=table).count() >= 2


def play_until_a_round_is_finished(client: Client, table: Table) -> str:
    for _ in range(30):
        match = truth(table)
        if match.rounds[0].is_terminal():
            break
        html = post_move(client, table, action_code(match.legal_actions()[0])).text
    return html


def test_the_round_summary_follows_a_finished_round(client):
    table = start_table(client)

    html = play_until_a_round_is_finished(client, table)

    assert "Round summary" in html or "Last round" in html
    for label in ("High", "Low", "Game", "How the score changed"):
        assert label in html


def test_public_fragments_drawn_once_are_never_shown_at_another_table(client):
    first = start_table(client)
    play_until_a_round_is_finished(client, first)
    second = start_table(client)
    second.seats.exclude(number=0).update(display_name="Zed")
    # both tables now show a round 1 summary: one key for both would show the first's
    html = play_until_a_round_is_finished(client, second)
    summary = html.split("How the score changed", 1)[1].split("</table>", 1)[0]

    assert "Zed" in summary and "bot" not in summary
    assert "Zed" not in client.get(f"/table/{first.code}/", **HTMX).text


def test_finished_rounds_download_as_records_that_replay(client):
    table = start_table(client)
    assert client.get(f"/table/{table.code}/record").status_code == 404
    assert client.get(f"/table/{table.code}/rounds/1/record").status_code == 404
    assert client.get(f"/table/{table.code}/rounds/1/").status_code == 404

    play_until_a_round_is_finished(client, table)

    for url in (f"/table/{table.code}/record", f"/table/{table.code}/rounds/1/record"):
        response = client.get(url)
        assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
        data = json.loads(response.content)
        assert data["format"] == "smear-record/1" and len(data["rounds"]) == 1
        assert "error" not in record.replay(data)
    # only the finished round: the one in progress is never in the download
    assert data["rounds"][0]["hands"] == Round.objects.get(table=table, number=0).hands


def test_the_replay_page_steps_through_a_finished_round(client):
    table = start_table(client)
    play_until_a_round_is_finished(client, table)

    start = client.get(f"/table/{table.code}/rounds/1/").text
    two = client.get(f"/table/{table.code}/rounds/1/?trick=2").text
    end = client.get(f"/table/{table.code}/rounds/1/?trick=6").text

    assert "Tricks: 0 of 6" in start and 'href="?trick=1"' in start
    assert 'data-trick="2"' in two and 'data-trick="3"' not in two
    assert 'href="?trick=1"' in two and 'href="?trick=3"' in two
    assert "Summary" in end and 'href="?trick=7"' not in end
    assert client.get(f"/table/{table.code}/rounds/2/").status_code == 404


def play_to_the_match_end(client: Client, table: Table) -> str:
    Table.objects.filter(pk=table.pk).update(target=1)  # the first bid made wins
    html = ""
    for _ in range(200):
        match = truth(table)
        if match.is_terminal():
            break
        html = post_move(client, table, action_code(match.legal_actions()[0])).text
    return html


def test_the_match_end_shows_the_winner_and_offers_a_rematch(client):
    table = start_table(client)

    html = play_to_the_match_end(client, table)

    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert "Match over" in html and "Rematch" in html and "How the score changed" in html
    assert "Your hand" not in html
    assert "the match is over" in post_move(client, table, "pass").text
    response = client.post(f"/table/{table.code}/rematch")
    fresh = Table.objects.exclude(pk=table.pk).get()
    assert response.url == f"/table/{fresh.code}/" and fresh.status == Table.Status.PLAYING


def test_the_rematch_drawn_for_the_socket_posts_with_the_pages_token(client):
    table = start_table(client)
    play_to_the_match_end(client, table)
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = client.cookies
    page = strict.get(f"/table/{table.code}/").text
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    owner = SeatOwner(session_key=client.session[GUEST_TOKEN])
    # a live update is drawn without a request: its forms carry no token of their own
    live = redraw.table_html(table, owner)
    form = live.split('action="/table/', 1)[1].split("</form>", 1)[0]
    address = f"/table/{table.code}/rematch"
    assert f'hx-post="{address}"' in form and "csrfmiddlewaretoken" not in form

    assert strict.post(address).status_code == 403  # as a plain form would post it
    response = strict.post(address, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token)

    fresh = Table.objects.exclude(pk=table.pk).get()
    assert response.headers["HX-Redirect"] == f"/table/{fresh.code}/"


def test_a_guest_who_signs_in_mid_game_keeps_the_seat(client, django_user_model):
    table = start_table(client)
    user = django_user_model.objects.create_user("late_joiner", password="a long passphrase 42")
    client.force_login(user)  # logging in changes the session key but keeps its data

    assert client.get(f"/table/{table.code}/").status_code == 200
    before = ActionLog.objects.filter(table=table, seat=0).count()
    post_move(client, table, action_code(truth(table).legal_actions()[0]))
    assert ActionLog.objects.filter(table=table, seat=0).count() == before + 1


def test_the_hand_history_links_lead_to_each_finished_round(client):
    table = start_table(client)
    for _ in range(60):
        if len(truth(table).rounds) > 1:
            break
        post_move(client, table, action_code(truth(table).legal_actions()[0]))

    page = client.get(f"/table/{table.code}/").text

    replay = f"/table/{table.code}/rounds/1/"
    assert f'href="{replay}"' in page and f'href="{replay}record"' in page
    assert client.get(replay).status_code == 200
    assert client.get(f"{replay}record").status_code == 200


def test_a_table_drawn_without_an_error_has_an_empty_hidden_message_line(client):
    table = start_table(client)
    owner = SeatOwner(session_key=client.session.session_key)

    html = redraw.table_html(table, owner)

    line = re.search(r'<p id="table-error"[^>]*>(.*?)</p>', html)
    assert line and "hidden" in line.group(0) and line.group(1) == ""


def _finished_for_a_guest(client, setup, seats):
    from tests.game.stored import greedy_match, stored_table

    session = client.session
    session[GUEST_TOKEN] = "finished-guest"
    session.save()
    match = greedy_match(setup, seed=4)
    seats = [{"session_key": "finished-guest", "display_name": "Guest"}, *seats]
    return stored_table(match, seats)


def test_a_finished_match_offers_a_new_table_with_its_settings_prefilled(client):
    from game.engine import variants
    from game.engine.state import MatchSetup

    setup = MatchSetup(4, ((0, 2), (1, 3)), rules=variants.CLASSIC)
    bots = [
        {"bot_level": level, "display_name": f"Bot {n}"}
        for n, level in ((1, "greedy"), (2, "expert"), (3, "club"))
    ]
    table = _finished_for_a_guest(client, setup, bots)

    page = client.get(f"/table/{table.code}/").text
    assert f'href="/play/?from={table.code}">New table, other settings' in page

    form = client.get(f"/play/?from={table.code}").text
    assert re.search(r'<option value="classic" selected>', form)
    assert re.search(r'name="players"[^>]*>.*?<option value="4" selected>', form, re.S)
    assert re.search(r'<option value="2v2" selected>', form)
    for seat, level in ((1, "greedy"), (2, "expert"), (3, "club")):
        chosen = re.search(rf'name="bot_{seat}"[^>]*>(.*?)</select>', form, re.S).group(1)
        assert f'<option value="{level}" selected>' in chosen


def test_another_persons_table_prefills_nothing(client):
    from game.engine import variants
    from game.engine.state import MatchSetup

    setup = MatchSetup(3, ((0,), (1,), (2,)), rules=variants.CLASSIC)
    bots = [{"bot_level": "greedy", "display_name": f"Bot {n}"} for n in (1, 2)]
    table = _finished_for_a_guest(client, setup, bots)
    stranger = type(client)()

    form = stranger.get(f"/play/?from={table.code}").text
    assert '<option value="classic" selected>' not in form
    assert stranger.get("/play/?from=" + "Z" * 5000).status_code == 200
