"""Tables with friends through the Django test client: the tables list, a new table,
joining by code, seats, bots, the start, and what spectators and each seat may see."""

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client

from game import selectors
from game.engine.cards import card_code, cards_of
from game.engine.rules import action_code
from game.engine.view import PublicView
from game.live import store
from game.models import ActionLog, Round, Seat, Table
from game.players import profiles
from game.players.identity import SeatOwner
from game.presenters.table_page import SpectatorView

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
NEW_TABLE = {"players": "4", "layout": "2v2", "target": "11"}


@pytest.fixture
def people(django_user_model, fast_password_hashing):
    """Signed-in clients: the host, two friends; and a guest."""
    clients = {}
    for name in ("host", "bea", "cal"):
        user = django_user_model.objects.create_user(name, password="a long passphrase 42")
        profiles.profile_get_or_create(user=user)
        client = Client()
        client.force_login(user)
        client.user = user
        clients[name] = client
    clients["guest"] = Client()
    return clients


def create(client: Client, **form) -> Table:
    response = client.post("/tables/new", {**NEW_TABLE, **form})
    assert response.status_code == 302, response.content[:500]
    table = Table.objects.latest("created")
    assert response.url == f"/table/{table.code}/"
    return table


def state(table: Table) -> tuple:
    fresh = Table.objects.get(pk=table.pk)
    seats = list(Seat.objects.filter(table=table).values_list("number", "user_id", "bot_level"))
    return fresh.status, seats, Round.objects.filter(table=table).count()


def post(client: Client, table: Table, what: str, htmx=True, **data):
    """Press the table's ``what`` button: the lobby panel's (join, leave, bot, free, close,
    start, and any other ``do``), or play."""
    if what == "play":
        return client.post(f"/table/{table.code}/play", data, **(HTMX if htmx else {}))
    data = {"do": what, **data}
    return client.post(f"/table/{table.code}/lobby", data, **(HTMX if htmx else {}))


def filled(people, players=4) -> Table:
    """Host in seat 0, Bea in seat 1, greedy bots in the rest."""
    teams = {"layout": "2v2"} if players == 4 else {"layout": "cutthroat"}
    table = create(people["host"], players=str(players), **teams)
    post(people["bea"], table, "join", seat="1")
    for seat in range(2, players):
        post(people["host"], table, "bot", seat=str(seat), level="greedy")
    return table


# --- The tables page, a new table, join by code ----------------------------------------------


def test_the_nav_links_tables_and_the_play_page_offers_friends(client):
    nav = client.get("/").text.split('aria-label="Main"', 1)[1].split("</nav>", 1)[0]
    assert 'href="/tables/"' in nav
    assert 'href="/tables/"' in client.get("/play/").text


def test_the_tables_page_lists_open_public_tables_only(people):
    open_table = create(people["host"], public="on")
    private = create(people["host"])
    started = filled(people)
    Table.objects.filter(pk=started.pk).update(public=True)
    post(people["host"], started, "start")
    full = create(people["host"], public="on", players="3", layout="cutthroat")
    for seat in (1, 2):
        post(people["host"], full, "bot", seat=str(seat), level="random")

    body = people["guest"].get("/tables/").text

    assert f"Table {open_table.code}" in body and "3 of 4 seats free" in body
    for hidden in (private, started, full):
        assert hidden.code not in body
    assert 'action="/join"' in body and "Log in to start a table" in body


def test_the_tables_page_lists_your_own_tables(people):
    private = create(people["host"])
    post(people["bea"], private, "join")

    mine = people["bea"].get("/tables/").text.split("Your tables", 1)[1]
    assert f"Table {private.code}" in mine.split("Open public tables")[0]
    assert "sit at no table" in people["cal"].get("/tables/").text


def test_a_guest_who_tries_to_create_or_sit_is_sent_to_log_in(people):
    guest = people["guest"]
    response = guest.get("/tables/new")
    assert response.status_code == 302 and response.url == "/accounts/login/?next=/tables/new"
    assert guest.post("/tables/new", NEW_TABLE).status_code == 302
    assert not Table.objects.exists()

    table = create(people["host"])
    before = state(table)
    for what in ("join", "leave", "bot", "start"):
        response = post(guest, table, what, htmx=False, seat="1", level="greedy")
        assert response.status_code == 302
        assert response.url == f"/accounts/login/?next=/table/{table.code}/"
        response = post(guest, table, what, seat="1")
        assert response["HX-Redirect"] == f"/accounts/login/?next=/table/{table.code}/"
    assert state(table) == before


def test_a_new_table_waits_in_the_lobby_with_the_host_in_seat_0(people):
    table = create(people["host"], public="on", players="6", layout="2v2v2", target="15")

    assert (table.players, table.teams, table.target, table.public) == (
        6,
        [[0, 3], [1, 4], [2, 5]],
        15,
        True,
    )
    assert table.status == Table.Status.LOBBY and table.host_id == people["host"].user.pk
    assert list(table.seats.values_list("number", "user_id")) == [(0, people["host"].user.pk)]


def test_the_new_table_page_speaks_of_you_not_seat_0_and_starts_with_the_usual_teams(people):
    body = people["host"].get("/tables/new").text

    assert "seat 0" not in body.lower() and "You take the first seat" in body
    assert '<option value="usual" selected>' in body


def test_the_new_table_form_reuses_the_team_layouts_and_checks_them(people):
    host = people["host"]
    body = host.get("/tables/new").text
    for option in ("2v2", "cutthroat", "3v3", "2v2v2", "4v4", "custom"):
        assert f'value="{option}"' in body
    assert 'name="public"' in body and 'name="target" value="21"' in body

    table = create(host, players="5", layout="custom", custom_teams="0,3:1,4:2")
    assert table.teams == [[0, 3], [1, 4], [2]]
    bad = [
        ({"layout": "custom", "custom_teams": "0,1:1"}, "exactly one team"),
        ({"layout": "3v3"}, "for 6 players"),
        ({"players": "9"}, "Select a valid choice"),
        ({"target": "4"}, "greater than or equal to 5"),
        ({"target": "101"}, "less than or equal to 100"),
    ]
    for form, message in bad:
        response = host.post("/tables/new", {**NEW_TABLE, **form})
        assert response.status_code == 200 and message in response.text
    assert Table.objects.count() == 1


def test_join_by_code_leads_to_the_table_page(people):
    table = create(people["host"])
    guest = people["guest"]

    for typed in (table.code, table.code.lower(), f" {table.code[:3]}-{table.code[3:]} "):
        response = guest.get("/join", {"code": typed})
        assert response.status_code == 302 and response.url == f"/table/{table.code}/"
    link = f"http://example.com/table/{table.code}/"
    assert guest.get("/join", {"code": link}).url == f"/table/{table.code}/"


def test_an_unknown_or_malformed_code_gets_a_clear_error(people):
    guest = people["guest"]
    response = guest.get("/join", {"code": "ZZZZ99"})
    assert response.status_code == 200 and "No table has the code ZZZZ99." in response.text
    for typed in ("", "<script>", "AB"):
        response = guest.get("/join", {"code": typed})
        assert response.status_code == 200 and 'class="errorlist' in response.text
    assert guest.get("/table/ZZZZ99/").status_code == 404
    assert people["bea"].post("/table/ZZZZ99/lobby", {"do": "join"}).status_code == 404


# --- The lobby page ------------------------------------------------------------------------


def test_anyone_with_the_code_sees_the_lobby_the_share_link_and_the_seats(people, settings):
    settings.SITE_URL = "https://smear.example"
    table = create(people["host"])

    body = people["guest"].get(f"/table/{table.code}/").text

    # the link names the address the page was asked for, not SITE_URL's
    assert f'value="http://testserver/table/{table.code}/"' in body
    assert f'data-share-path="/table/{table.code}/"' in body
    assert f'<strong class="table-code">{table.code}</strong>' in body
    assert "Seat 0" in body and "host" in body and body.count("<em>empty</em>") == 3
    assert "Log in to take a seat" in body and f"next=/table/{table.code}/" in body
    assert "Take seat" not in body and "Start the match" not in body
    assert "bot in seat" not in body


def test_a_friend_sees_join_buttons_and_the_host_sees_bot_and_start_controls(people):
    table = create(people["host"], players="3", layout="cutthroat")

    friend = people["bea"].get(f"/table/{table.code}/").text
    assert 'name="seat" value="1"' in friend and "Take seat 2" in friend
    assert "bot in seat" not in friend and "Start the match" not in friend

    host = people["host"].get(f"/table/{table.code}/").text
    assert "Take seat" not in host
    assert "Greedy bot in seat 1" in host and "Expert bot in seat 2" in host
    assert "2 to go" in host and "Start the match" not in host


def test_joining_with_htmx_swaps_in_the_table_partial(people):
    table = create(people["host"])

    response = post(people["bea"], table, "join", seat="2")

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="table"')
    assert "You are in seat 2" in response.text and "Leave my seat" in response.text
    assert table.seats.get(number=2).user_id == people["bea"].user.pk


def test_joining_without_htmx_redirects_back_and_a_refusal_is_a_message(people):
    table = create(people["host"])
    response = post(people["bea"], table, "join", htmx=False, seat="2")
    assert response.status_code == 302 and response.url == f"/table/{table.code}/"

    followed = people["cal"].post(
        f"/table/{table.code}/lobby", {"do": "join", "seat": "2"}, follow=True
    )
    assert "seat 2 is taken by bea" in followed.text


def test_bad_input_gets_a_clear_message_and_changes_nothing(people):
    table = create(people["host"])
    post(people["bea"], table, "join", seat="1")
    before = state(table)
    bea, cal, host = people["bea"], people["cal"], people["host"]

    attempts = [
        (bea, "join", {"seat": "2"}, "already have a seat"),  # joining twice
        (cal, "join", {"seat": "1"}, "seat 1 is taken by bea"),  # a taken seat
        (cal, "join", {"seat": "x1"}, "pick a seat by its number"),  # forged forms
        (cal, "join", {"seat": "-1"}, "pick a seat by its number"),
        (cal, "join", {"seat": "99"}, "seats 0 to 3 only"),
        (cal, "leave", {}, "no seat"),
        (host, "leave", {}, "the host keeps"),
        (bea, "bot", {"seat": "2", "level": "greedy"}, "only the host"),  # not the host
        (bea, "start", {}, "only the host"),
        (host, "start", {}, "2 seats are still empty"),
        (host, "bot", {"seat": "1", "level": "expert"}, "taken by bea"),
        (host, "bot", {"seat": "2", "level": "grandmaster"}, "no bot called"),
        (host, "bot", {"seat": "2"}, "no bot to take out"),
        (host, "bot", {"level": "greedy"}, "pick a seat for the bot"),
        (host, "bot", {"seat": "2.0", "level": "greedy"}, "pick a seat by its number"),
    ]
    for client, what, data, message in attempts:
        response = post(client, table, what, **data)
        assert response.status_code == 200 and message in response.text, (what, data)
        assert 'id="table-error"' in response.text
    assert state(table) == before
    assert bea.get(f"/table/{table.code}/lobby", {"do": "join"}).status_code == 405
    unknown = post(host, table, "deal-me-aces")
    assert unknown.status_code == 200 and "the lobby does not know that button" in unknown.text
    assert state(table) == before


def test_a_full_table_says_so_to_a_latecomer(people):
    table = filled(people, players=3)

    body = people["cal"].get(f"/table/{table.code}/").text
    assert "The table is full" in body and "Take seat" not in body
    assert "the table is full" in post(people["cal"], table, "join").text


def test_the_host_fills_seats_with_bots_and_takes_them_out(people):
    table = create(people["host"])
    post(people["host"], table, "bot", seat="3", level="random")
    body = post(people["host"], table, "bot", seat="3", level="expert").text
    assert "Expert bot 3" in body and "Take the bot out of seat 3" in body

    post(people["host"], table, "bot", htmx=False, seat="3", level="")
    assert list(table.seats.values_list("number", flat=True)) == [0]


def test_the_host_frees_a_quiet_friends_seat(people):
    table = create(people["host"])
    post(people["bea"], table, "join", seat="1")
    assert "Free the seat" not in people["bea"].get(f"/table/{table.code}/").text
    assert "Ask bea to leave seat 1" in people["host"].get(f"/table/{table.code}/").text

    body = post(people["host"], table, "free", seat="1").text

    assert "Ask bea to leave" not in body
    assert not table.seats.filter(number=1).exists()
    assert "the host keeps their seat" in post(people["host"], table, "free", seat="0").text
    assert "pick the seat to free" in post(people["host"], table, "free").text


def test_the_host_closes_the_table_and_everyone_at_it_is_told(people):
    table = create(people["host"])
    post(people["bea"], table, "join", seat="1")
    assert "Close the table" not in people["bea"].get(f"/table/{table.code}/").text
    assert "Close the table" in people["host"].get(f"/table/{table.code}/").text

    post(people["host"], table, "close")

    for name in ("host", "bea", "cal", "guest"):
        page = people[name].get(f"/table/{table.code}/", **HTMX).text
        assert "closed this table before the match started" in page
        assert "<form" not in page  # nothing left to do here
    refusal = post(people["cal"], table, "join", seat="2").text
    assert "the host closed this table" in refusal


def test_a_friend_leaves_before_the_start(people):
    table = create(people["host"])
    post(people["bea"], table, "join", seat="1")

    body = post(people["bea"], table, "leave").text

    assert "Take seat 1" in body and not table.seats.filter(number=1).exists()


def test_the_host_starts_and_everyone_sees_the_table_in_play(people):
    table = filled(people)

    response = post(people["host"], table, "start")

    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and Round.objects.filter(table=table).count()
    assert "Your hand" in response.text and 'data-status="lobby"' not in response.text
    assert "Your hand" in people["bea"].get(f"/table/{table.code}/").text
    watching = people["cal"].get(f"/table/{table.code}/").text
    assert "You are watching" in watching and "Your hand" not in watching
    assert "already started" in post(people["host"], table, "start").text


# --- Hidden information --------------------------------------------------------------------

CARD_ATTR = re.compile(r'(?:data-card|value)="([0-9JQKA]{1,2}[SHDC]|J[12])"')
# the round summary, and the last round's final trick before the next round's first bid
SUMMARY = re.compile(
    r'<(section|details|ol) class="(?:[a-z_ -]*(?:round-summary|match-end)'
    r'|trick trick--done won-by-\d trick--last-round)".*?</\1>',
    re.S,
)


def truth(table: Table):
    table.refresh_from_db()
    return store.match_for_table(table)


def check_knowledge(html: str, table: Table, seat: int | None) -> None:
    """Every card the page names is the seat's own (none for a spectator), already played
    this round, or (in the round summary) played in the round just finished."""
    match = truth(table)
    current = match.round
    played_now = {card_code(c) for c in current.history if c < 54}
    own = set() if seat is None else {card_code(c) for c in cards_of(current.hands[seat])}
    finished = [r for r in match.rounds if r.is_terminal()]
    last_round = {card_code(c) for c in finished[-1].history if c < 54} if finished else set()
    for block in SUMMARY.finditer(html):
        assert set(CARD_ATTR.findall(block.group(0))) <= last_round
    shown = set(CARD_ATTR.findall(SUMMARY.sub("", html)))
    if current.is_terminal():
        return
    assert shown <= own | played_now, f"seat {seat} was shown {sorted(shown - own - played_now)}"
    if seat is None:
        assert "Your hand" not in html and "your-hand" not in html
        assert "can be played" not in html and "card-button" not in html


@pytest.mark.django_db(transaction=True)  # the bots answer each move once it commits
def test_no_seat_and_no_spectator_is_shown_a_card_it_may_not_see(people):
    table = filled(people)
    post(people["host"], table, "start")
    seated = {0: people["host"], 1: people["bea"]}
    watchers = (people["cal"], people["guest"])

    def check_every_page():
        for seat, client in seated.items():
            check_knowledge(client.get(f"/table/{table.code}/").text, table, seat)
        for client in watchers:
            check_knowledge(client.get(f"/table/{table.code}/").text, table, None)

    check_every_page()
    for _ in range(60):  # two rounds at least
        match = truth(table)
        if len(match.rounds) > 2 or match.is_terminal():
            break
        seat = match.current_player()
        html = post(
            seated[seat],
            table,
            "play",
            action=action_code(match.legal_actions()[-1]),
            index=str(len(match.round.history)),
        ).text
        check_knowledge(html, table, seat)
        check_every_page()

    assert Round.objects.filter(table=table).count() >= 2
    assert "Round summary" in people["cal"].get(f"/table/{table.code}/").text or any(
        r.is_terminal() for r in truth(table).rounds
    )


def test_the_check_would_catch_a_hand_shown_to_a_spectator(people):
    table = filled(people)
    post(people["host"], table, "start")

    hosts_page = people["host"].get(f"/table/{table.code}/").text

    with pytest.raises(AssertionError):
        check_knowledge(hosts_page, table, None)
    with pytest.raises(AssertionError):
        check_knowledge(hosts_page, table, 1)  # Bea may not see the host's cards


def test_a_spectator_cannot_act_or_download_the_deal(people):
    table = filled(people)
    post(people["host"], table, "start")
    count = ActionLog.objects.count()
    match = truth(table)

    for client in (people["cal"], people["guest"]):
        for action in ("pass", "bid:2", action_code(match.legal_actions()[0])):
            body = client.post(f"/table/{table.code}/play", {"action": action}, **HTMX).text
            assert "You are watching" in body or "no seat" in body
        assert client.get(f"/table/{table.code}/record").status_code == 403

    assert ActionLog.objects.count() == count


def test_the_spectator_view_holds_no_hand_and_no_legal_moves(people):
    table = filled(people)
    post(people["host"], table, "start")
    table.refresh_from_db()

    context = selectors.table_page_context(table=table, seat_owner=SeatOwner())
    watched = context["t"]

    assert isinstance(watched, SpectatorView) and isinstance(watched.view, PublicView)
    names = {f for f in PublicView.__dataclass_fields__}
    assert not names & {"hand", "seat"}
    assert not {"hand", "legal"} & set(SpectatorView.__dataclass_fields__)
    assert watched.my_turn is False and watched.bids == ()
    assert not any(seat.is_you for seat in watched.seats)


def test_the_partial_renders_without_a_request_as_live_updates_do(people, settings):
    settings.SITE_URL = "https://smear.example"
    table = create(people["host"])
    owners = [SeatOwner(user_id=people["host"].user.pk), SeatOwner()]

    for owner in owners:
        html = render_to_string(
            "game/table.html#table", selectors.table_page_context(table=table, seat_owner=owner)
        )
        assert html.lstrip().startswith('<section id="table"')
        assert f"https://smear.example/table/{table.code}/" in html

    for seat in (1, 2, 3):
        post(people["host"], table, "bot", seat=str(seat), level="greedy")
    post(people["host"], table, "start")
    table.refresh_from_db()
    html = render_to_string(
        "game/table.html#table",
        selectors.table_page_context(table=table, seat_owner=SeatOwner()),
    )
    assert "You are watching" in html
    check_knowledge(html, table, None)


# --- Live: the lobby over the table's websocket ------------------------------------------


def _lobby_with_host(django_user_model) -> tuple[Table, Client, str, Client]:
    host = Client()
    host.force_login(django_user_model.objects.create_user("livehost", password="x" * 12))
    bea = Client()
    bea.force_login(django_user_model.objects.create_user("livebea", password="x" * 12))
    table = create(host, players="3", layout="cutthroat")
    return table, host, host.cookies["sessionid"].value, bea


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("release_sync_thread_connections", "fast_password_hashing")
async def test_the_lobby_and_its_start_reach_every_connection_live(django_user_model):
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from smearsite.asgi import application

    table, host, host_session, bea = await sync_to_async(_lobby_with_host)(django_user_model)

    def socket(session=None):
        headers = [(b"origin", b"http://localhost")]
        if session:
            headers.append((b"cookie", f"sessionid={session}".encode()))
        return WebsocketCommunicator(application, f"/ws/table/{table.code}/", headers=headers)

    hosts, watchers = socket(host_session), socket()
    try:
        for communicator in (hosts, watchers):
            assert (await communicator.connect(timeout=10))[0]
            assert 'data-status="lobby"' in await communicator.receive_from(timeout=10)

        await sync_to_async(post)(bea, table, "join", seat="1")
        for communicator in (hosts, watchers):
            assert "livebea" in await communicator.receive_from(timeout=10)

        await sync_to_async(post)(host, table, "bot", seat="2", level="random")
        await sync_to_async(post)(host, table, "start")
        pushed = {"host": "", "watcher": ""}
        for name, communicator in (("host", hosts), ("watcher", watchers)):
            while not await communicator.receive_nothing(timeout=0.5):
                pushed[name] = await communicator.receive_from(timeout=10)
        assert "Your hand" in pushed["host"]
        assert "You are watching" in pushed["watcher"] and "Your hand" not in pushed["watcher"]
        await sync_to_async(table.refresh_from_db)()
        await sync_to_async(check_knowledge)(pushed["watcher"], table, None)
    finally:
        await hosts.disconnect()
        await watchers.disconnect()


def test_the_host_is_offered_the_seated_bot_levels_and_not_the_arenas_frozen_one(people):
    table = create(people["host"])
    body = people["host"].get(f"/table/{table.code}/").text

    offered = set(re.findall(r'name="level" value="([^"]+)"', body))
    assert offered == {"beginner", "casual", "club", "expert", "greedy"}  # random no more
    refused = post(people["host"], table, "bot", seat="2", level="expert-v1")
    assert "no bot called" in refused.text
    assert not table.seats.filter(number=2).exists()
