"""Talk at a table: who talks where, the limits, the host's switch, and what the page
shows (escaped, by room); nothing of it in the game record."""

import pytest
from django.test import Client

from game import chat_page
from game.engine import record
from game.live import store
from game.models import ChatLine, Seat, Table
from game.players.identity import GUEST_TOKEN, SeatOwner
from game.services import chat
from tests.game.live.test_consumers import GREEDY_4

pytestmark = pytest.mark.django_db


@pytest.fixture
def friends(isolated_cache):
    """A table of two guests and two bots: its first guest's client, the second guest's
    client, and the table."""
    first = Client()
    response = first.post("/play/", GREEDY_4)
    table = Table.objects.get(code=response.url.rstrip("/").rsplit("/", 1)[-1])
    second = Client()
    session = second.session
    session[GUEST_TOKEN] = "second-guest"
    session.save()
    Seat.objects.filter(table=table, number=2).update(
        bot_level=None, session_key="second-guest", display_name="Bea"
    )
    return first, second, table


def owner_of(client: Client) -> SeatOwner:
    return SeatOwner(session_key=client.session[GUEST_TOKEN])


def test_players_talk_in_their_room_and_a_spectator_in_the_other(friends):
    first, second, table = friends
    said = chat.chat_say(table_id=table.pk, owner=owner_of(second), text="  hello   there ")
    watched = chat.chat_say(table_id=table.pk, owner=SeatOwner(session_key="rail"), text="hi")

    assert (said.room, said.name, said.text, said.author) == (
        "players",
        "Bea",
        "hello there",
        "seat-2",
    )
    assert watched.room == "spectators" and watched.name == "A guest (watching)"
    assert watched.author.startswith("watcher-") and "rail" not in watched.author


def test_a_player_never_reads_the_spectators_room_and_a_spectator_reads_both(friends):
    first, second, table = friends
    chat.chat_say(table_id=table.pk, owner=owner_of(second), text="from the table")
    chat.chat_say(table_id=table.pk, owner=SeatOwner(session_key="rail"), text="from the rail")

    player = chat_page.chat_panel(table=table, owner=owner_of(first))
    spectator = chat_page.chat_panel(table=table, owner=SeatOwner(session_key="other"))

    assert [line.text for line in player.lines] == ["from the table"]
    assert [line.text for line in spectator.lines] == ["from the table", "from the rail"]
    assert spectator.watching and not player.watching


def test_the_eleventh_line_in_ten_seconds_is_refused_with_words(friends):
    first, second, table = friends
    for number in range(chat.RATE):
        chat.chat_say(table_id=table.pk, owner=owner_of(second), text=f"line {number}")

    with pytest.raises(chat.ChatRefused, match="talking fast"):
        chat.chat_say(table_id=table.pk, owner=owner_of(second), saying="gg")
    assert ChatLine.objects.count() == chat.RATE
    chat.chat_say(table_id=table.pk, owner=owner_of(first), text="mine still goes")  # per person


@pytest.mark.parametrize(
    "text, saying, why",
    [
        ("", None, "Say something first"),
        ("   ", None, "Say something first"),
        ("x" * (chat.MAX_CHARS + 1), None, "too long"),
        (None, "not-a-phrase", "not one of the quick phrases"),
        (["a list"], None, "in words"),
    ],
)
def test_a_bad_line_is_refused_and_nothing_is_stored(friends, text, saying, why):
    first, second, table = friends
    with pytest.raises(chat.ChatRefused, match=why):
        chat.chat_say(table_id=table.pk, owner=owner_of(second), text=text, saying=saying)
    assert not ChatLine.objects.exists()


def test_quick_phrases_and_reactions_say_their_words(friends):
    first, second, table = friends
    assert chat.chat_say(table_id=table.pk, owner=owner_of(first), saying="gg").text == "Good game!"
    assert chat.chat_say(table_id=table.pk, owner=owner_of(first), saying="thumbs").text == "👍"


def test_only_the_host_turns_the_chat_off_and_then_nobody_talks(friends, make_user):
    first, second, table = friends
    host = make_user("hosting")
    Table.objects.filter(pk=table.pk).update(host=host)
    with pytest.raises(chat.ChatRefused, match="Only the table's host"):
        chat.chat_switch(table_id=table.pk, owner=owner_of(second), on=False)

    chat.chat_switch(table_id=table.pk, owner=SeatOwner(user_id=host.pk), on=False)

    with pytest.raises(chat.ChatRefused, match="turned the chat off"):
        chat.chat_say(table_id=table.pk, owner=owner_of(second), text="still here?")
    assert not ChatLine.objects.exists()


def test_markup_is_shown_as_text_on_the_page(friends):
    first, second, table = friends
    chat.chat_say(table_id=table.pk, owner=owner_of(second), text="<b>bold</b><script>x()</script>")

    page = first.get(f"/table/{table.code}/").text

    assert "&lt;b&gt;bold&lt;/b&gt;&lt;script&gt;x()&lt;/script&gt;" in page
    assert "<b>bold</b>" not in page


def test_a_table_of_one_person_and_bots_has_no_chat_but_a_spectator_may_talk(isolated_cache):
    alone = Client()
    response = alone.post("/play/", GREEDY_4)
    table = Table.objects.get(code=response.url.rstrip("/").rsplit("/", 1)[-1])

    assert 'id="chat"' not in alone.get(response.url).text
    assert chat_page.chat_panel(table=table, owner=SeatOwner(session_key="rail")) is not None


def test_the_chat_is_not_in_the_record_and_goes_with_the_table(friends):
    first, second, table = friends
    chat.chat_say(table_id=table.pk, owner=owner_of(second), text="secret plan")

    written = str(record.write(store.match_for_table(table)))
    assert "secret plan" not in written
    table.delete()
    assert not ChatLine.objects.exists()


def test_a_table_keeps_its_last_lines_only(friends, monkeypatch):
    first, second, table = friends
    monkeypatch.setattr(chat, "KEPT", 3)
    monkeypatch.setattr(chat, "RATE", 100)
    for number in range(6):
        chat.chat_say(table_id=table.pk, owner=owner_of(second), text=f"line {number}")
    assert list(ChatLine.objects.values_list("text", flat=True)) == ["line 3", "line 4", "line 5"]


def test_the_chat_posts_without_a_socket(friends):
    first, second, table = friends
    response = second.post(f"/table/{table.code}/chat", {"text": "over http"})
    assert response.status_code == 302
    refused = second.post(f"/table/{table.code}/chat", {"say": "nope"}, follow=True)
    assert "not one of the quick phrases" in refused.text
    assert list(ChatLine.objects.values_list("text", flat=True)) == ["over http"]


def test_a_hosted_table_has_its_chat_while_the_host_waits_alone_in_the_lobby(make_user):
    from game.services import lobby

    host = make_user("hosting")
    table = lobby.table_create_lobby(host_user=host, players=4, teams=[[0, 2], [1, 3]])

    panel = chat_page.chat_panel(table=table, owner=SeatOwner(user_id=host.pk))
    assert panel is not None and panel.host and not panel.watching
