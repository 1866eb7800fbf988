"""Friends talk at the table in real browsers: two players and a spectator on phones.
A line arrives at once and inert; the spectators' room never reaches the players; muting is
one's own; the eleventh line in ten seconds is refused in words."""

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import WIDE, phone_at, served_env
from tests.servers import manage, serving

pytestmark = pytest.mark.browser

PASSWORD = "trump-leads-first-42"
SET_UP = """
from django.contrib.auth import get_user_model
from game.players import profiles
from game.players.identity import SeatOwner
from game.services import lobby
users = {}
for name in ('ann', 'bea'):
    users[name] = get_user_model().objects.create_user(name, password=PASSWORD)
    profiles.profile_get_or_create(user=users[name])
table = lobby.table_create_lobby(host_user=users['ann'], players=4, teams=[[0, 2], [1, 3]])
ann, bea = SeatOwner(user_id=users['ann'].pk), SeatOwner(user_id=users['bea'].pk)
lobby.table_join(table_id=table.pk, owner=bea, seat=1)
for seat in (2, 3):
    lobby.table_set_bot(table_id=table.pk, host=ann, seat=seat, level='greedy')
lobby.table_start(table_id=table.pk, host=ann)
print(table.code)
""".replace("PASSWORD", repr(PASSWORD))


def log_in(page, username: str, next_path: str) -> None:
    page.goto(f"/accounts/login/?next={next_path}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#chat")).to_be_visible()


def say(page, text: str) -> None:
    page.get_by_label("Your line").fill(text)
    page.get_by_role("button", name="Send").click()


def test_two_players_and_a_spectator_talk_at_the_table(browser: Browser, tmp_path, artifacts):
    env = served_env(tmp_path / "chat.sqlite3")
    code = manage(["shell", "-c", SET_UP], env=env).stdout.strip().splitlines()[-1]
    with serving(env=env, log=tmp_path / "server.log") as server:
        ann, bea, rail = (phone_at(browser, server.url) for _ in range(3))
        log_in(ann, "ann", f"/table/{code}/")
        log_in(bea, "bea", f"/table/{code}/")
        rail.goto(f"/table/{code}/")
        expect(rail.locator("#chat")).to_contain_text("spectators' room")
        for page in (ann, bea, rail):
            expect(page.locator("#live")).to_have_attribute("data-connected", "yes")

        say(ann, "<b>hello</b> bea")
        for page in (ann, bea, rail):
            line = page.locator("#chat-lines .chat-line").last
            expect(line).to_contain_text("ann: <b>hello</b> bea")
            expect(page.locator("#chat-lines b")).to_have_count(0)  # inert text

        rail.get_by_role("button", name="😮").click()
        expect(rail.locator("#chat-lines")).to_contain_text("(watching): 😮")
        bea.get_by_role("button", name="Good game!").click()
        expect(ann.locator("#chat-lines")).to_contain_text("bea: Good game!")
        for page in (ann, bea):
            expect(page.locator("#chat-lines")).not_to_contain_text("😮")
        rail.screenshot(path=artifacts / "phone-table-chat-spectator.png", full_page=True)

        bea.get_by_role("button", name="Mute ann").first.click()
        say(ann, "can you hear me")
        expect(ann.locator("#chat-lines")).to_contain_text("can you hear me")
        expect(rail.locator("#chat-lines")).to_contain_text("can you hear me")
        expect(bea.locator("#chat-lines .chat-line", has_text="can you hear me")).to_be_hidden()
        expect(bea.locator(".chat__muted")).to_contain_text("from muted players hidden")
        bea.reload()  # the mute is this browser's, kept across a reload
        expect(bea.locator("#chat-lines .chat-line", has_text="can you hear me")).to_be_hidden()
        expect(ann.locator("#chat-lines .chat-line", has_text="can you hear me")).to_be_visible()

        for number in range(8):  # with the two lines before, ten in ten seconds
            say(ann, f"line {number}")
            ann.wait_for_timeout(150)
        expect(ann.locator("#chat-lines")).to_contain_text("line 7")
        say(ann, "one too many")
        expect(ann.locator("#chat-error")).to_contain_text("You are talking fast")
        expect(rail.locator("#chat-lines")).not_to_contain_text("one too many")
        ann.screenshot(path=artifacts / "phone-table-chat.png", full_page=True)
        ann.set_viewport_size(WIDE)
        ann.screenshot(path=artifacts / "wide-table-chat.png", full_page=True)
