"""Guests' sheets and hands sent by a phone that kept them offline: idempotent on the
phone's client id, in the order they arrive, a clash marked; the service worker and the
manifest that put the sheet on a phone's home screen."""

import json
import re
import uuid
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from scoresheet import limits, selectors, services, views
from scoresheet.models import Member, Sheet
from scoresheet.services import HandInput
from tests.scoresheet.conftest import add, guest, owner_of

pytestmark = pytest.mark.django_db

HAND = HandInput(bidder=1, bid=3, made=(1, 2))


def sync(sheet, owner, client_id, entered_as, hand=HAND):
    """Send one kept hand."""
    kept = services.KeptHand(client_id=client_id, entered_as=entered_as, hand=hand)
    ((stored, created),) = services.hands_sync(sheet_id=sheet.pk, owner=owner, kept=[kept])
    return stored, created


def test_a_hand_sent_twice_is_stored_once(sheet, sam):
    client_id = uuid.uuid4()
    first, created = sync(sheet, owner_of(sam), client_id, 1)
    again, created_again = sync(sheet, owner_of(sam), client_id, 1)

    assert created and not created_again and again.pk == first.pk
    assert sheet.hands.count() == 1 and sheet.changes.count() == 1
    sheet.refresh_from_db()
    assert sheet.hands_entered == 1


def test_a_hand_sent_online_then_again_offline_is_the_same_hand(sheet, sam):
    client_id = uuid.uuid4()
    online = services.hand_add(
        sheet_id=sheet.pk, owner=owner_of(sam), expected_number=1, hand=HAND, client_id=client_id
    )
    # the answer was lost: the phone kept the hand and sends it again, and the form too
    kept, created = sync(sheet, owner_of(sam), client_id, 1)
    retried = services.hand_add(
        sheet_id=sheet.pk, owner=owner_of(sam), expected_number=1, hand=HAND, client_id=client_id
    )
    assert not created and kept.pk == online.pk == retried.pk
    assert sheet.hands.count() == 1


def test_two_phones_hands_go_in_the_order_they_arrive_each_phones_together(sheet, sam, mum):
    add(sheet, sam, 0, 2, (2, 1))
    # both phones last saw hand 1 and kept hands 2 and 3 offline; Mum's arrive first
    for phone, hand in ((mum, HandInput(0, 2, (3, 1))), (sam, HandInput(1, 2, (1, 3)))):
        kept = [services.KeptHand(uuid.uuid4(), number, hand) for number in (2, 3)]
        services.hands_sync(sheet_id=sheet.pk, owner=owner_of(phone), kept=kept)

    view = selectors.sheet_view(sheet=Sheet.objects.get(pk=sheet.pk))
    assert [(row.number, row.hand.entered_as, row.hand.clashed) for row in view.rows] == [
        (1, None, False),
        (2, 2, False),
        (3, 3, False),
        (4, 2, True),
        (5, 3, True),
    ]
    assert [row.hand.made for row in view.rows[1:]] == [[3, 1], [3, 1], [1, 3], [1, 3]]
    # a double goes by undoing its entry, like any hand
    add_change = sheet.changes.get(hand_number=5)
    services.change_undo(sheet_id=sheet.pk, owner=owner_of(sam), change_id=add_change.pk)
    assert list(sheet.hands.values_list("number", flat=True)) == [1, 2, 3, 4]


def test_a_batch_sent_again_with_one_more_hand_adds_only_that_one(sheet, sam):
    first = [services.KeptHand(uuid.uuid4(), n, HAND) for n in (1, 2)]
    services.hands_sync(sheet_id=sheet.pk, owner=owner_of(sam), kept=first)
    again = [*first, services.KeptHand(uuid.uuid4(), 3, HAND)]
    stored = services.hands_sync(sheet_id=sheet.pk, owner=owner_of(sam), kept=again)

    assert [(hand.number, created) for hand, created in stored] == [
        (1, False),
        (2, False),
        (3, True),
    ]
    assert sheet.hands.count() == 3


def test_a_kept_hand_for_an_ended_sheet_is_refused_with_a_reason(sheet, sam):
    services.sheet_strike(sheet_id=sheet.pk, owner=owner_of(sam))
    with pytest.raises(services.SheetError, match="struck"):
        sync(sheet, owner_of(sam), uuid.uuid4(), 1)


def test_a_client_id_of_another_sheet_is_refused(sheet, sam, make_sheet):
    other = make_sheet(sam)
    client_id = uuid.uuid4()
    sync(other, owner_of(sam), client_id, 1)
    with pytest.raises(services.SheetError, match="another sheet"):
        sync(sheet, owner_of(sam), client_id, 1)


def test_the_sync_view_answers_json_and_is_idempotent(client, sam, sheet):
    client.force_login(sam)
    fields = [["number", "1"], ["bidder", "side-1"], ["bid", "3"], ["point_0", "0"]]
    fields += [["point_2", "1"], ["point_3", "1"], ["client_id", str(uuid.uuid4())]]
    url = f"/sheets/{sheet.pk}/hands/sync/"

    def post(hands, visitor=client):
        return visitor.post(url, json.dumps({"hands": hands}), content_type="application/json")

    first, again = post([fields]), post([fields])
    assert first.status_code == 201 and first.json()["hands"][0]["number"] == 1
    assert again.status_code == 200 and again.json()["hands"][0]["created"] is False
    assert sheet.hands.count() == 1
    no_id = [pair for pair in fields if pair[0] != "client_id"]
    assert post([no_id]).status_code == 400
    assert post([[["bid", "9"], *fields]]).status_code in (200, 400)
    assert client.post(url, "not json", content_type="application/json").status_code == 400
    assert post([fields], visitor=Client()).status_code == 404  # not a member
    services.sheet_strike(sheet_id=sheet.pk, owner=owner_of(sam))
    fresh = [*fields[:-1], ["client_id", str(uuid.uuid4())]]
    refused = post([fresh])
    assert refused.status_code == 409 and "struck" in refused.json()["error"]


# --- Guests --------------------------------------------------------------------------


def test_a_guest_keeps_a_bounded_number_of_sheets(make_sheet):
    for _ in range(limits.GUEST_SHEETS):
        make_sheet(None, owner=guest())
    with pytest.raises(services.SheetError, match="sign up or log in"):
        make_sheet(None, owner=guest())
    make_sheet(None, owner=guest("another-guest"))


def test_a_guests_sheet_holds_a_bounded_number_of_hands(make_sheet, monkeypatch):
    monkeypatch.setattr(limits, "GUEST_HANDS", 2)
    sheet = make_sheet(None, owner=guest())
    for number in (1, 2):
        services.hand_add(sheet_id=sheet.pk, owner=guest(), expected_number=number, hand=HAND)
    with pytest.raises(services.SheetError, match="holds 2 hands"):
        services.hand_add(sheet_id=sheet.pk, owner=guest(), expected_number=3, hand=HAND)
    with pytest.raises(services.SheetError, match="holds 2 hands"):
        sync(sheet, guest(), uuid.uuid4(), 3)


def test_old_guest_sheets_are_pruned_and_members_sheets_stay(make_sheet, sam):
    old_guest = make_sheet(None, owner=guest())
    joined = make_sheet(None, owner=guest())
    services.member_join(code=joined.invite_code, owner=owner_of(sam))
    fresh = make_sheet(None, owner=guest())
    long_ago = timezone.now() - timedelta(days=limits.GUEST_SHEET_DAYS + 1)
    Sheet.objects.filter(pk__in=[old_guest.pk, joined.pk]).update(updated_at=long_ago)

    call_command("prune_sheets")
    assert set(Sheet.objects.values_list("pk", flat=True)) == {joined.pk, fresh.pk}


def test_claiming_twice_changes_nothing(make_sheet, sam):
    sheet = make_sheet(None, owner=guest())
    assert services.sheets_claim(user_id=sam.pk, guest_token="guest-token-1") == 1
    assert services.sheets_claim(user_id=sam.pk, guest_token="guest-token-1") == 0
    assert Member.objects.get(sheet=sheet).user == sam


# --- On the phone's home screen -------------------------------------------------------


def test_the_service_worker_is_served_under_the_sheets_and_keeps_their_files(client, sam, sheet):
    response = client.get("/sheets/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    worker = response.content.decode()
    files = json.loads(re.search(r"var FILES = (\[.*?\]);", worker).group(1))
    assert "{%" not in worker and "{{" not in worker

    client.force_login(sam)
    for path in (f"/sheets/{sheet.pk}/", "/sheets/", f"/sheets/watch/{sheet.watch_token}/"):
        page = client.get(path).content.decode()
        loaded = re.findall(r'<script[^>]*\ssrc="([^"]+)"', page)
        loaded += re.findall(r'<link rel="stylesheet" href="([^"]+)"', page)
        assert set(loaded) <= set(files), f"{path} loads files the phone does not keep"
    for url in files:
        assert client.get(url).status_code == 200, url


def test_the_worker_changes_its_version_when_a_kept_file_changes(monkeypatch):
    urls = views.app_file_urls()
    before = views._version(urls)
    monkeypatch.setattr(views, "app_file_urls", lambda: [*urls, "/static/favicon.svg?v=2"])
    assert views._version(views.app_file_urls()) != before


def test_the_manifest_installs_the_sheets_with_icons(client):
    response = client.get("/sheets/manifest.webmanifest")
    manifest = response.json()

    assert response["Content-Type"] == "application/manifest+json"
    assert manifest["start_url"] == manifest["scope"] == "/sheets/"
    assert manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200
    assert client.get("/sheets/offline/").status_code == 200


def test_the_sheet_pages_link_the_manifest(client, sam, sheet):
    client.force_login(sam)
    for path in ("/sheets/", f"/sheets/{sheet.pk}/"):
        assert (
            '<link rel="manifest" href="/sheets/manifest.webmanifest">'
            in client.get(path).content.decode()
        )


def test_hands_entered_offline_keep_their_clash_on_the_page(client, sam, sheet):
    add(sheet, sam, 0, 2, (2, 1))
    sync(sheet, owner_of(sam), uuid.uuid4(), 1)
    client.force_login(sam)
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert "kept on a phone as hand 1, which another phone entered first" in page


def test_guests_starting_sheets_too_fast_from_one_address_are_slowed(client, monkeypatch):
    monkeypatch.setattr(limits, "GUEST_STARTS_PER_ADDRESS", 2)
    new = {"side_1": "Us", "side_2": "Them", "preset": "classic"}
    answers = [Client().post("/sheets/new/", new).status_code for _ in range(3)]
    assert answers == [302, 302, 429]
    assert Sheet.objects.count() == 2
