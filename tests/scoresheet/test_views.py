"""Score sheet pages through the Django test client: forms, htmx partials, access, exports."""

import csv
import html
import io
import json
import re

import pytest
from django.test import Client

from game.engine import notation, variants
from scoresheet import selectors, services
from scoresheet.models import Change, Hand, Sheet
from tests.scoresheet.conftest import add, owner_of

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def sam_client(client, sam):
    client.force_login(sam)
    return client


def hand_post(sheet, *, number=None, bidder="side-1", bid=3, points=("0", "", "1", "1"), **extra):
    sheet.refresh_from_db()
    data = {
        "number": sheet.hands_entered + 1 if number is None else number,
        "bidder": bidder,
        "bid": bid,
    }
    for i, taker in enumerate(points):
        data[f"point_{i}"] = taker
    data.update(extra)
    return data


# --- Access -------------------------------------------------------------------------


NEW_SHEET = {"side_1": "Us", "side_2": "Them", "preset": "classic"}


def test_a_guest_keeps_score_without_an_account(client):
    assert client.get("/sheets/").status_code == 200
    assert client.get("/sheets/new/").status_code == 200
    response = client.post("/sheets/new/", NEW_SHEET)

    sheet = Sheet.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/sheets/{sheet.pk}/"
    assert sheet.creator is None and sheet.creator_guest
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert "You keep score as a guest" in page
    client.post(f"/sheets/{sheet.pk}/hands/", hand_post(sheet))
    assert sheet.hands.count() == 1
    assert "Us v Them" in client.get("/sheets/").content.decode()


def test_a_guests_sheet_is_nobody_elses_but_through_its_codes(client, sam):
    client.post("/sheets/new/", NEW_SHEET)
    sheet = Sheet.objects.get()
    other_guest, member = Client(), Client()
    member.force_login(sam)
    for visitor in (other_guest, member):
        assert visitor.get(f"/sheets/{sheet.pk}/").status_code == 404
        assert visitor.post(f"/sheets/{sheet.pk}/hands/", hand_post(sheet)).status_code == 404
        assert "Us v Them" not in visitor.get("/sheets/").content.decode()
    # the read-only link shows it; the invite code lets another guest in
    assert other_guest.get(f"/sheets/watch/{sheet.watch_token}/").status_code == 200
    other_guest.post("/sheets/join/", {"code": sheet.invite_code})
    assert other_guest.get(f"/sheets/{sheet.pk}/").status_code == 200


def test_a_guests_sheets_become_the_accounts_at_sign_up(client, fast_password_hashing):
    client.post("/sheets/new/", NEW_SHEET)
    sheet = Sheet.objects.get()
    response = client.post(
        "/accounts/signup/",
        {"username": "newsam", "password1": "trump-leads-42", "password2": "trump-leads-42"},
    )
    assert response.status_code == 302

    sheet.refresh_from_db()
    assert sheet.creator.username == "newsam" and sheet.creator_guest is None
    assert sheet.members.get().user == sheet.creator
    assert client.get(f"/sheets/{sheet.pk}/").status_code == 200
    # a new browser of the same account finds it; another guest does not
    again = Client()
    again.force_login(sheet.creator)
    assert again.get(f"/sheets/{sheet.pk}/").status_code == 200
    assert Client().get(f"/sheets/{sheet.pk}/").status_code == 404


def test_a_guests_sheets_become_the_accounts_at_log_in_once(client, sam, sheet):
    # sam is already a member of ``sheet``; as a guest in this browser he joined it too
    # and started another
    client.post("/sheets/join/", {"code": sheet.invite_code})
    client.post("/sheets/new/", NEW_SHEET)
    client.force_login(sam)

    assert sheet.members.filter(user=sam).count() == 1
    assert not sheet.members.filter(user__isnull=True).exists()
    assert Sheet.objects.filter(creator=sam).count() == 2


def test_the_sheet_page_holds_its_hands_as_data_for_the_phone(sam_client, sheet, sam):
    add(sheet, sam, 1, 3, (1, 2))
    page = sam_client.get(f"/sheets/{sheet.pk}/").content.decode()
    data = json.loads(re.search(r'id="sheet-data"[^>]*>(.*?)</script>', page, re.S).group(1))

    assert data["hands"] == [{"number": 1, "bidder": 1, "bid": 3, "made": [1, 2]}]
    assert data["rules"]["missed_bid"] == "debt" and data["next_number"] == 2
    assert data["sides"] == ["Sam & Alex", "Mum & Dad"]


def test_a_sheet_is_not_found_for_anyone_but_its_members(client, sheet, stranger):
    client.force_login(stranger)
    pk = sheet.pk

    for url in (
        f"/sheets/{pk}/",
        f"/sheets/{pk}/history/",
        f"/sheets/{pk}/export.csv",
        f"/sheets/{pk}/export.json",
        f"/sheets/{pk}/hands/1/",
        "/sheets/999999/",
    ):
        assert client.get(url).status_code == 404, url
    assert client.post(f"/sheets/{pk}/hands/", hand_post(sheet)).status_code == 404
    assert client.post(f"/sheets/{pk}/strike/").status_code == 404
    assert not sheet.hands.exists()
    sheet.refresh_from_db()
    assert sheet.status == Sheet.Status.OPEN


def test_posts_without_a_csrf_token_are_refused(sam, sheet):
    client = Client(enforce_csrf_checks=True)
    client.force_login(sam)

    response = client.post(f"/sheets/{sheet.pk}/hands/", hand_post(sheet))

    assert response.status_code == 403
    assert not sheet.hands.exists()


def test_sheet_pages_only_take_the_methods_they_use(sam_client, sheet):
    assert sam_client.get(f"/sheets/{sheet.pk}/hands/").status_code == 405
    assert sam_client.get(f"/sheets/{sheet.pk}/end/").status_code == 405
    assert sam_client.post(f"/sheets/{sheet.pk}/").status_code == 405


# --- Creating a sheet -------------------------------------------------------------------


def test_create_a_sheet_with_seating_and_a_preset(sam_client, sam):
    response = sam_client.post(
        "/sheets/new/",
        {
            "side_1": "Sam & Alex",
            "players_1": "Sam, Alex",
            "side_2": "Mum & Dad",
            "players_2": "Mum, Dad",
            "preset": "six_handed",
            "target": "",
        },
    )

    sheet = Sheet.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/sheets/{sheet.pk}/"
    assert (sheet.points_per_hand, sheet.min_bid, sheet.max_bid, sheet.target) == (6, 3, 6, 21)
    # partners sit across from each other: the sides alternate round the table
    assert [seat.name for seat in sheet.seats.all()] == ["Sam", "Mum", "Alex", "Dad"]
    assert sheet.members.get().user == sam


def test_the_new_sheet_form_tells_each_preset_by_the_tables_own_rules(sam_client):
    page = text_of(sam_client.get("/sheets/new/").content.decode())

    for key, table in variants.PRESETS.items():
        points = notation.point_names(table)
        assert notation.preset_name(key) in page
        assert f"{table.point_count} points ({', '.join(points)}), " in page
        assert f"bids {table.min_bid}–{table.max_bid}" in page
    assert "6 points (High, Low, Jack, Joker 1, Joker 2, Game), bids 1–6, a missed bid goes" in page
    assert "4 points (High, Low, Jack, Game), bids 2–4, a missed bid is owed against" in page


@pytest.mark.parametrize("key", list(variants.PRESETS))
def test_a_preset_sheet_keeps_the_tables_bids_points_and_going_out(sam_client, key):
    sam_client.post("/sheets/new/", {"side_1": "Us", "side_2": "Them", "preset": key})

    sheet = Sheet.objects.get()
    table = variants.PRESETS[key]
    assert (sheet.target, sheet.points_per_hand) == (table.target, table.point_count)
    assert (sheet.min_bid, sheet.max_bid) == table.bids
    assert sheet.bidder_only_out is (table.going_out == "bidder_only")
    page = text_of(sam_client.get(f"/sheets/{sheet.pk}/").content.decode())
    going_out = "only the bidder goes out" if sheet.bidder_only_out else "anyone goes out"
    assert f"bids {table.min_bid}–{table.max_bid} of {table.point_count} · {going_out}" in page


def test_create_with_custom_rules(sam_client):
    sam_client.post(
        "/sheets/new/",
        {
            "side_1": "Ann",
            "side_2": "Bo",
            "side_3": "Cy",
            "preset": "custom",
            "target": "15",
            "points_per_hand": "5",
            "min_bid": "2",
            "max_bid": "5",
            "missed_bid": "negative",
            "bidder_only_out": "on",
        },
    )

    sheet = Sheet.objects.get()
    assert sheet.rules.missed_bid == "negative" and sheet.rules.bidder_only_out
    assert (sheet.target, sheet.points_per_hand) == (15, 5)
    assert sheet.sides.count() == 3


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"side_1": "Us"}, "This field is required."),
        ({"side_1": "Us", "side_2": "us"}, "Give each side a different name."),
        (
            {"side_1": "Us", "side_2": "Them", "players_1": "Ann"},
            "if you list players, list them for every side",
        ),
        (
            {"side_1": "Us", "side_2": "Them", "players_1": "Ann", "players_2": "ann"},
            "Give each player a different name.",
        ),
        (
            {"side_1": "Us", "side_2": "Them", "preset": "custom", "points_per_hand": "4"},
            "Needed for custom rules.",
        ),
        (
            {
                "side_1": "Us",
                "side_2": "Them",
                "preset": "custom",
                "points_per_hand": "4",
                "min_bid": "3",
                "max_bid": "6",
            },
            "Those rules do not work",
        ),
        ({"side_1": "Us", "side_2": "Them", "target": "0"}, "greater than or equal to 1"),
    ],
)
def test_create_refuses_bad_input_inline_and_saves_nothing(sam_client, data, error):
    data = {"preset": "classic", **data}
    response = sam_client.post("/sheets/new/", data)

    assert response.status_code == 200
    assert error in response.text
    assert 'class="errorlist' in response.text
    assert not Sheet.objects.exists()


# --- Entering hands -------------------------------------------------------------------


def test_enter_seed_002_worked_hand_by_tapping_the_points(sam_client, sheet):
    response = sam_client.post(f"/sheets/{sheet.pk}/hands/", hand_post(sheet), follow=True)

    hand = Hand.objects.get()
    assert (hand.bidder, hand.bid, hand.made, hand.takers) == (1, 3, [1, 2], [0, None, 1, 1])
    body = text_of(response.text)
    assert "Hand 1 is on the sheet: Mum &amp; Dad bid 3 and missed." in body
    row = response.text.split('id="hand-1"', 1)[1].split("</tr>", 1)[0]
    assert "owes 3" in row and "missed" in row


def test_typed_totals_work_and_must_agree_with_tapped_points(sam_client, sheet):
    typed = hand_post(sheet, points=("", "", "", ""), made_0="1", made_1="2")
    sam_client.post(f"/sheets/{sheet.pk}/hands/", typed)
    assert Hand.objects.get().made == [1, 2]
    assert Hand.objects.get().takers is None

    both = hand_post(sheet, made_0="2", made_1="2")
    response = sam_client.post(f"/sheets/{sheet.pk}/hands/", both)
    assert response.status_code == 200
    assert "The points you tapped add up to 1 · 2, but the points typed in say 2 · 2" in (
        response.text
    )
    assert Hand.objects.count() == 1


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"bid": "5"}, "Select a valid choice"),
        ({"bidder": "side-7"}, "Select a valid choice"),
        ({"points": ("", "", "", "")}, "Tap the side that took each point"),
        ({"points": ("", "", "", ""), "made_0": "3", "made_1": "2"}, "more than the 4"),
        ({"points": ("", "", "", ""), "made_0": "-1", "made_1": "2"}, "greater than or equal to 0"),
        ({"points": ("", "", "", ""), "made_0": "x"}, "Enter a whole number"),
        ({"point_0": "9"}, "Select a valid choice"),
    ],
)
def test_a_bad_hand_is_refused_inline_and_saves_nothing(sam_client, sheet, changes, error):
    points = changes.pop("points", ("0", "", "1", "1"))
    data = hand_post(sheet, points=points)
    data.update(changes)

    response = sam_client.post(f"/sheets/{sheet.pk}/hands/", data)

    assert response.status_code == 200
    assert error in response.text
    assert not Hand.objects.exists() and not Change.objects.exists()


def test_the_second_of_two_members_entering_the_same_hand_is_told_and_not_saved(
    sam_client, client, sheet, mum
):
    mum_client = Client()
    mum_client.force_login(mum)
    mums_form = hand_post(sheet, bidder="side-0", bid=2, points=("0", "0", "1", "1"))

    sam_client.post(f"/sheets/{sheet.pk}/hands/", hand_post(sheet))
    response = mum_client.post(f"/sheets/{sheet.pk}/hands/", mums_form)

    assert response.status_code == 200
    assert "Hand 1 was already entered by someone else: your entry was not saved." in (
        response.text
    )
    assert Hand.objects.count() == 1
    # mum's taps are still on the form, ready to enter as hand 2 if it is a new hand
    assert 'value="side-0" id="id_bidder_0" checked' in response.text.replace("required ", "")


def test_with_htmx_a_saved_hand_returns_the_sheet_and_a_fresh_form(sam_client, sheet):
    response = sam_client.post(
        f"/sheets/{sheet.pk}/hands/", hand_post(sheet), headers={"HX-Request": "true"}
    )

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="live"')
    assert "<html" not in response.text
    assert 'id="hand-1"' in response.text
    assert "Save hand 2" in response.text
    assert 'name="number" value="2"' in response.text


def test_with_htmx_a_bad_hand_returns_the_form_with_its_errors(sam_client, sheet):
    response = sam_client.post(
        f"/sheets/{sheet.pk}/hands/",
        hand_post(sheet, points=("", "", "", "")),
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 200
    assert "Tap the side that took each point" in response.text
    assert "Save hand 1" in response.text
    assert not Hand.objects.exists()


def test_preview_shows_the_row_a_hand_would_add_without_saving(sam_client, sheet):
    response = sam_client.post(
        f"/sheets/{sheet.pk}/hands/preview/", hand_post(sheet), headers={"HX-Request": "true"}
    )

    body = text_of(response.text)
    assert "Mum &amp; Dad bid 3 and took 2: bid missed" in body
    assert "Sam &amp; Alex enters 1 → standing 1" in body
    assert "Mum &amp; Dad enters 0 , owes 3 → standing -3" in body
    assert not Hand.objects.exists()


def test_sheet_page_shows_standings_dealer_and_highlights_a_side_at_the_target(
    sam_client, sam, make_sheet
):
    sheet = make_sheet(sam, seats=[("Sam", 0), ("Mum", 1), ("Alex", 0), ("Dad", 1)])
    for _ in range(6):
        add(sheet, sam, 0, 4, (4, 0), bidder_seat=0)

    body = sam_client.get(f"/sheets/{sheet.pk}/").text

    assert "Hand 7" in body and "Alex deals" in body
    assert 'class="standing standing--at-target" data-side="0"' in body
    assert "at the target" in body
    assert "End match: bank it for Sam &amp; Alex" in body


# --- Edit, delete, history, undo -------------------------------------------------------


def test_edit_page_shows_the_hand_and_saving_replays_the_sheet(sam_client, sheet, sam):
    add(sheet, sam, 1, 3, (1, 2), takers=(0, None, 1, 1))
    add(sheet, sam, 0, 2, (2, 2), takers=(0, 0, 1, 1))

    page = sam_client.get(f"/sheets/{sheet.pk}/hands/1/").text
    assert "Edit hand 1" in page
    assert 'name="revision" value="1"' in page

    response = sam_client.post(
        f"/sheets/{sheet.pk}/hands/1/",
        {
            "revision": "1",
            "bidder": "side-1",
            "bid": "2",
            "point_0": "0",
            "point_1": "",
            "point_2": "1",
            "point_3": "1",
        },
        follow=True,
    )

    assert "Hand 1 is changed" in response.text
    assert selectors.sheet_view(sheet=sheet).tally.standings == (3, 4)


def test_edit_from_a_stale_page_is_refused(sam_client, sheet, sam):
    add(sheet, sam, 1, 3, (1, 2))
    services.hand_edit(
        sheet_id=sheet.pk,
        owner=owner_of(sam),
        number=1,
        revision=1,
        hand=services.HandInput(bidder=1, bid=2, made=(1, 2)),
    )

    response = sam_client.post(
        f"/sheets/{sheet.pk}/hands/1/",
        {"revision": "1", "bidder": "side-1", "bid": "4", "made_0": "0", "made_1": "4"},
    )

    assert response.status_code == 200
    assert "was changed by someone else while you had it open" in response.text
    assert Hand.objects.get().bid == 2


def test_delete_and_undo_from_the_history_page(sam_client, sheet, sam):
    add(sheet, sam, 1, 3, (1, 2))
    add(sheet, sam, 0, 2, (2, 2))

    response = sam_client.post(
        f"/sheets/{sheet.pk}/hands/1/delete/", {"revision": "1"}, follow=True
    )
    assert "Hand 1 is deleted" in response.text
    assert list(Hand.objects.values_list("number", flat=True)) == [2]

    history = sam_client.get(f"/sheets/{sheet.pk}/history/").text
    assert "deleted hand 1" in history
    assert "was: Mum &amp; Dad bid 3; made 1 · 2" in history
    delete = Change.objects.filter(kind=Change.Kind.DELETE).get()
    response = sam_client.post(f"/sheets/{sheet.pk}/history/{delete.pk}/undo/", follow=True)
    assert "Undone." in response.text
    assert list(Hand.objects.values_list("number", flat=True)) == [1, 2]


def test_undo_refused_for_an_older_change_says_why(sam_client, sheet, sam):
    add(sheet, sam, 1, 3, (1, 2))
    services.hand_delete(sheet_id=sheet.pk, owner=owner_of(sam), number=1, revision=1)
    added = Change.objects.get(kind=Change.Kind.ADD)

    response = sam_client.post(f"/sheets/{sheet.pk}/history/{added.pk}/undo/", follow=True)

    assert "has changed since: undo the later change first" in response.text
    assert not Hand.objects.exists()


def test_undo_of_another_sheets_change_is_not_found(sam_client, sheet, sam, make_sheet):
    other = make_sheet(sam)
    add(other, sam, 1, 3, (1, 2))
    change = other.changes.get()

    response = sam_client.post(f"/sheets/{sheet.pk}/history/{change.pk}/undo/", follow=True)

    assert "There is no such change on this sheet." in response.text
    assert other.hands.count() == 1


# --- End, strike, rematch ------------------------------------------------------------------


def test_end_match_strike_and_rematch_buttons(sam_client, sheet, sam):
    for _ in range(6):
        add(sheet, sam, 0, 4, (4, 0))

    response = sam_client.post(f"/sheets/{sheet.pk}/end/", {"winner": "0"}, follow=True)
    assert "Match banked for Sam &amp; Alex" in response.text
    assert "Save hand" not in response.text
    assert "Rematch with the same sides" in response.text

    response = sam_client.post(f"/sheets/{sheet.pk}/rematch/", follow=True)
    rematch = Sheet.objects.get(rematch_of=sheet)
    assert response.redirect_chain[-1][0] == f"/sheets/{rematch.pk}/"
    assert "Save hand 1" in response.text

    response = sam_client.post(f"/sheets/{rematch.pk}/strike/", follow=True)
    assert "Match struck: nobody banks it." in response.text


def test_end_match_refused_before_anyone_wins(sam_client, sheet):
    response = sam_client.post(f"/sheets/{sheet.pk}/end/", {"winner": "0"}, follow=True)

    assert "cannot be banked yet" in response.text
    sheet.refresh_from_db()
    assert sheet.status == Sheet.Status.OPEN


# --- Members, the live link, exports -------------------------------------------------------


def test_join_by_link_asks_first_then_joins(client, sheet, stranger):
    client.force_login(stranger)

    page = client.get(f"/sheets/join/{sheet.invite_code}/")
    assert "Join Sam &amp; Alex v Mum &amp; Dad?" in page.text
    assert not sheet.members.filter(user=stranger).exists()

    response = client.post(f"/sheets/join/{sheet.invite_code}/")
    assert response["Location"] == f"/sheets/{sheet.pk}/"
    assert sheet.members.filter(user=stranger).exists()


def test_join_by_code_and_a_wrong_code(client, sheet, stranger):
    client.force_login(stranger)

    wrong = client.post("/sheets/join/", {"code": "ZZZZZZ"})
    assert "No sheet has that code" in wrong.text
    assert client.get("/sheets/join/ZZZZZZ/").status_code == 404

    client.post("/sheets/join/", {"code": sheet.invite_code.lower()})
    assert sheet.members.filter(user=stranger).exists()


def test_read_only_link_needs_no_log_in_and_offers_no_changes(client, sheet, sam):
    add(sheet, sam, 1, 3, (1, 2))

    page = client.get(f"/sheets/watch/{sheet.watch_token}/")
    assert page.status_code == 200
    assert 'id="hand-1"' in page.text
    assert f'ws-connect="/ws/sheets/watch/{sheet.watch_token}/"' in page.text
    assert "<form" not in page.text.split("<main", 1)[1].split("</main>")[0]
    assert "Edit hand" not in page.text

    partial = client.get(f"/sheets/watch/{sheet.watch_token}/sheet/")
    assert partial.text.lstrip().startswith('<div id="watched"')

    assert client.get("/sheets/watch/not-the-token/").status_code == 404
    assert client.get("/sheets/watch/not-the-token/sheet/").status_code == 404


def test_my_sheets_lists_only_my_sheets(sam_client, sheet, stranger, make_sheet):
    make_sheet(stranger, sides=("Strangers", "Others"))

    body = sam_client.get("/sheets/").text

    assert "Sam &amp; Alex v Mum &amp; Dad" in body
    assert "Strangers" not in body


def test_csv_export_has_one_row_per_hand_and_five_columns_per_side(sam_client, sheet, sam):
    add(sheet, sam, 1, 3, (1, 2))
    add(sheet, sam, 0, 2, (2, 2))

    response = sam_client.get(f"/sheets/{sheet.pk}/export.csv")

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:6] == ["hand", "dealer", "bidder", "bidding player", "bid", "bid made"]
    assert rows[0][6:11] == [
        "Sam & Alex made",
        "Sam & Alex entry",
        "Sam & Alex debt",
        "Sam & Alex total",
        "Sam & Alex standing",
    ]
    assert rows[1] == "1,,Mum & Dad,,3,no,1,1,0,1,1,2,0,3,0,-3".split(",")
    assert rows[2][11:] == ["2", "0", "1", "0", "-1"]


def test_json_export_holds_rules_hands_rows_and_stats(sam_client, sheet, sam):
    add(sheet, sam, 1, 3, (1, 2), takers=(0, None, 1, 1))

    document = json.loads(sam_client.get(f"/sheets/{sheet.pk}/export.json").content)

    assert document["format"] == "smear-scoresheet/1"
    assert document["rules"] == {
        "target": 21,
        "points_per_hand": 4,
        "min_bid": 2,
        "max_bid": 4,
        "missed_bid": "debt",
        "bidder_only_out": False,
    }
    assert document["sides"] == ["Sam & Alex", "Mum & Dad"]
    (hand,) = document["hands"]
    assert hand["made"] == [1, 2] and hand["takers"] == [0, None, 1, 1]
    assert hand["entries"] == [1, 0] and hand["debts"] == [0, 3]
    assert hand["standings"] == [1, -3] and hand["bid_made"] is False
    assert document["stats"][1] == {
        "side": "Mum & Dad",
        "bids": 1,
        "bids_made": 0,
        "points": 2,
        "points_per_hand": 2.0,
    }


def test_stats_count_bids_made_and_points_per_hand_for_sides_and_players(sam, make_sheet):
    sheet = make_sheet(sam, seats=[("Sam", 0), ("Mum", 1), ("Alex", 0), ("Dad", 1)])
    add(sheet, sam, 1, 3, (1, 2), bidder_seat=3)
    add(sheet, sam, 0, 2, (2, 2), bidder_seat=2)
    add(sheet, sam, 0, 2, (3, 1), bidder_seat=2)

    view = selectors.sheet_view(sheet=sheet)

    sides = {
        s.name: (s.bids, s.bids_made, s.points, round(s.points_per_hand, 2))
        for s in view.side_stats
    }
    assert sides == {"Sam & Alex": (2, 2, 6, 2.0), "Mum & Dad": (1, 0, 5, 1.67)}
    players = {p.name: (p.bids, p.bids_made, p.points_per_bid) for p in view.player_stats}
    assert players == {
        "Sam": (0, 0, 0.0),
        "Mum": (0, 0, 0.0),
        "Alex": (2, 2, 2.5),
        "Dad": (1, 0, 2.0),
    }


def test_nav_links_the_score_sheet(client):
    nav = client.get("/").text.split('aria-label="Main"', 1)[1].split("</nav>", 1)[0]

    assert '<a href="/sheets/">Score sheet</a>' in nav


def test_csv_export_makes_formula_cells_inert(sam_client, sam, make_sheet):
    evil = '=HYPERLINK("http://evil.example","x")'
    sheet = make_sheet(
        sam, sides=(evil, "+Them"), seats=[("@SUM(1+1)", 0), ("\tTab", 1), ("-Dash", 0)]
    )
    add(sheet, sam, 1, 3, (1, 2))

    rows = list(csv.reader(io.StringIO(sam_client.get(f"/sheets/{sheet.pk}/export.csv").text)))

    cells = [cell for row in rows for cell in row]
    assert f"'{evil} made" in rows[0] and "'+Them made" in rows[0]
    assert not any(cell.startswith(("=", "+", "@", "\t", "\r")) for cell in cells)
    assert rows[1][2] == "'+Them"
    # numbers stay numbers: a negative standing is not a formula
    assert rows[1][-1] == "-3"


def test_csv_export_makes_full_width_formula_starts_inert(sam_client, sam, make_sheet):
    # a spreadsheet may read a full-width sign as the ASCII one: NFKC says what it reads
    sheet = make_sheet(
        sam, sides=("\uff1dSUM(1+1)", "\uff0bThem"), seats=[("\uff20Me", 0), ("\uff0dDash", 1)]
    )
    add(sheet, sam, 1, 3, (1, 2))

    rows = list(csv.reader(io.StringIO(sam_client.get(f"/sheets/{sheet.pk}/export.csv").text)))

    starts = ("\uff1d", "\uff0b", "\uff20", "\uff0d")
    cells = [cell for row in rows for cell in row]
    assert not any(cell.startswith(starts) for cell in cells)
    assert "'\uff1dSUM(1+1) made" in rows[0]


def test_the_creator_rotates_the_codes_and_the_old_ones_stop_working(sheet, sam, mum, stranger):
    old_code, old_token = sheet.invite_code, sheet.watch_token
    owner = Client()
    owner.force_login(sam)

    response = owner.post(f"/sheets/{sheet.pk}/codes/")

    sheet.refresh_from_db()
    assert response["Location"] == f"/sheets/{sheet.pk}/"
    assert sheet.invite_code != old_code and sheet.watch_token != old_token
    assert len(sheet.invite_code) == 10
    assert "the old ones no longer work" in owner.get(f"/sheets/{sheet.pk}/").text
    assert sheet.members.filter(user=mum).exists()
    joiner = Client()
    joiner.force_login(stranger)
    assert joiner.get(f"/sheets/join/{old_code}/").status_code == 404
    assert joiner.get(f"/sheets/watch/{old_token}/").status_code == 404
    assert joiner.get(f"/sheets/join/{sheet.invite_code}/").status_code == 200


def test_only_the_creator_may_rotate_the_codes(sheet, mum, stranger):
    before = (sheet.invite_code, sheet.watch_token)
    member = Client()
    member.force_login(mum)

    response = member.post(f"/sheets/{sheet.pk}/codes/", follow=True)

    assert "Only the person who made this sheet can change its codes" in response.text
    outsider = Client()
    outsider.force_login(stranger)
    assert outsider.post(f"/sheets/{sheet.pk}/codes/").status_code == 404
    sheet.refresh_from_db()
    assert (sheet.invite_code, sheet.watch_token) == before


def test_only_the_creator_sees_the_rotate_button(sheet, sam, mum):
    owner, member = Client(), Client()
    owner.force_login(sam)
    member.force_login(mum)

    assert "New code and links" in owner.get(f"/sheets/{sheet.pk}/").text
    assert "New code and links" not in member.get(f"/sheets/{sheet.pk}/").text


# --- The analysis board, set up as the sheet's game --------------------------------------


def test_analyse_a_hand_opens_the_board_set_as_the_game_its_seats_dealer_and_score(
    sam_client, sam, make_sheet
):
    sheet = make_sheet(sam, seats=[("Sam", 0), ("Mum", 1), ("Alex", 0), ("Dad", 1)])
    for made in ((4, 0), (0, 3), (2, 2)):
        add(sheet, sam, 0, 2, made, bidder_seat=0)
    body = sam_client.get(f"/sheets/{sheet.pk}/").text
    link = html.unescape(re.search(r'<a href="([^"]+)" data-board-link>', body).group(1))
    assert "set for hand 3 (Alex dealt)" in body and "Sam 0, Mum 1, Alex 2, Dad 3" in body
    form = sam_client.get(link).text  # the position's step: the table is set
    assert re.search(r'<option value="classic" selected>', form)
    assert re.search(r'<option value="4" selected>', form)
    assert 'value="0,2:1,3"' in form
    dealer = re.search(r'name="dealer".*?</select>', form, re.S).group()
    assert re.search(r'<option value="2" selected>', dealer)  # hand 3: the third seat deals
    # the standings before hand 3: Sam & Alex made 4, then missed their bid of 2
    assert 'name="scores" value="2 3"' in form
    assert 'name="hand_0"' in form  # the cards are tapped in there, not on the sheet


def test_a_sheet_without_seats_or_a_game_sets_the_boards_score_and_carries_it_on(
    sam_client, sam, make_sheet
):
    sheet = make_sheet(sam, preset="custom")
    body = sam_client.get(f"/sheets/{sheet.pk}/").text
    assert "choose the game there" in body
    link = html.unescape(re.search(r'<a href="([^"]+)" data-board-link>', body).group(1))
    form = sam_client.get(link).text  # the table's step first, the score carried on
    assert "Next: the cards" in form
    assert '<input type="hidden" name="scores" value="0 0">' in form
