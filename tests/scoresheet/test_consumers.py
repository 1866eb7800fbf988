"""The read-only live link's websocket: the sheet as it is on connect, then every change."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from scoresheet import consumers, services
from smearsite.asgi import application
from tests.scoresheet.conftest import add, owner_of

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("release_sync_thread_connections"),
]

ORIGIN = [(b"origin", b"http://localhost")]
# generous: connecting renders the sheet from the database, on a machine that may be busy
TIMEOUT = 10


def watcher(token: str) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/sheets/watch/{token}/", headers=ORIGIN)


async def test_a_watcher_gets_the_sheet_on_connect_and_again_after_each_hand(sheet, sam):
    communicator = watcher(sheet.watch_token)
    try:
        connected, _ = await communicator.connect(timeout=TIMEOUT)
        assert connected
        first = await communicator.receive_from(timeout=TIMEOUT)
        assert first.lstrip().startswith('<div id="watched"')
        assert "No hands yet." in first

        await sync_to_async(add)(sheet, sam, 1, 3, (1, 2))

        update = await communicator.receive_from(timeout=TIMEOUT)
        assert 'id="hand-1"' in update
        assert "owes 3" in update
        # read-only: the live sheet has no edit links
        assert "Edit hand" not in update
    finally:
        await communicator.disconnect()


async def test_every_change_reaches_the_watchers_even_an_undo(sheet, sam):
    communicator = watcher(sheet.watch_token)
    try:
        await communicator.connect(timeout=TIMEOUT)
        await communicator.receive_from(timeout=TIMEOUT)
        await sync_to_async(add)(sheet, sam, 1, 3, (1, 2))
        await communicator.receive_from(timeout=TIMEOUT)

        await sync_to_async(services.hand_delete)(
            sheet_id=sheet.pk, owner=owner_of(sam), number=1, revision=1
        )
        assert "No hands yet." in await communicator.receive_from(timeout=TIMEOUT)
        change = await sync_to_async(lambda: sheet.changes.first())()
        await sync_to_async(services.change_undo)(
            sheet_id=sheet.pk, owner=owner_of(sam), change_id=change.pk
        )
        assert 'id="hand-1"' in await communicator.receive_from(timeout=TIMEOUT)
    finally:
        await communicator.disconnect()


async def test_a_hand_saved_while_a_watcher_connects_still_reaches_it(sheet, sam, monkeypatch):
    # the hand is saved after the sheet was read for the first message: the watcher must
    # hear of it all the same, or it shows the sheet as it was until the next change
    read = consumers._render
    saved = []

    def read_then_save(token: str):
        rendered = read(token)
        if not saved:
            add(sheet, sam, 1, 3, (1, 2))
            saved.append(True)
        return rendered

    monkeypatch.setattr(consumers, "_render", read_then_save)
    communicator = watcher(sheet.watch_token)
    try:
        await communicator.connect(timeout=TIMEOUT)
        assert "No hands yet." in await communicator.receive_from(timeout=TIMEOUT)
        assert 'id="hand-1"' in await communicator.receive_from(timeout=TIMEOUT)
    finally:
        await communicator.disconnect()


async def test_what_a_watcher_sends_is_ignored(sheet):
    communicator = watcher(sheet.watch_token)
    try:
        await communicator.connect(timeout=TIMEOUT)
        await communicator.receive_from(timeout=TIMEOUT)
        await communicator.send_to(text_data='{"bid": 4}')
        assert await communicator.receive_nothing(timeout=0.2)
    finally:
        await communicator.disconnect()


async def test_a_wrong_token_is_closed_with_no_such_sheet(sheet):
    communicator = watcher("not-the-token")
    try:
        connected, code = await communicator.connect(timeout=TIMEOUT)
        assert not connected
        assert code == consumers.NO_SUCH_SHEET
    finally:
        await communicator.disconnect()


async def test_a_foreign_origin_is_refused(sheet):
    communicator = WebsocketCommunicator(
        application,
        f"/ws/sheets/watch/{sheet.watch_token}/",
        headers=[(b"origin", b"https://evil.example")],
    )
    try:
        connected, _ = await communicator.connect(timeout=TIMEOUT)
        assert not connected
    finally:
        await communicator.disconnect()


async def test_watchers_of_another_sheet_hear_nothing(sheet, sam, make_sheet):
    other = await sync_to_async(make_sheet)(sam)
    communicator = watcher(other.watch_token)
    try:
        await communicator.connect(timeout=TIMEOUT)
        await communicator.receive_from(timeout=TIMEOUT)
        await sync_to_async(add)(sheet, sam, 1, 3, (1, 2))
        assert await communicator.receive_nothing(timeout=0.3)
    finally:
        await communicator.disconnect()
