"""Services: hands stored, the ledger replayed, every change kept and undoable."""

import threading
from dataclasses import replace

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection

from scoresheet import ledger, selectors, services
from scoresheet.models import Change, Hand, Member, Sheet
from scoresheet.services import HandInput
from smearsite import kernel
from tests.scoresheet.conftest import add, owner_of

pytestmark = pytest.mark.django_db


def standings(sheet):
    return selectors.sheet_view(sheet=sheet).tally.standings


def test_sheet_create_stores_sides_seats_rules_and_the_creator_as_member(sam, make_sheet):
    sheet = make_sheet(
        sam,
        sides=["Sam & Alex", "Mum & Dad"],
        seats=[("Sam", 0), ("Mum", 1), ("Alex", 0), ("Dad", 1)],
        rules=ledger.SEVEN_POINT,
        preset="seven_point",
        title="Boxing Day",
    )

    assert [side.name for side in sheet.sides.all()] == ["Sam & Alex", "Mum & Dad"]
    assert [(seat.name, seat.side) for seat in sheet.seats.all()] == [
        ("Sam", 0),
        ("Mum", 1),
        ("Alex", 0),
        ("Dad", 1),
    ]
    assert sheet.rules == ledger.SEVEN_POINT
    assert list(sheet.members.values_list("user__username", flat=True)) == ["sam"]
    assert len(sheet.invite_code) == kernel.CODE_LENGTH and len(sheet.watch_token) >= 20
    assert sheet.status == Sheet.Status.OPEN


def test_a_preset_sheet_takes_its_tables_rules_and_only_a_target_of_its_own(sam, make_sheet):
    short = make_sheet(sam, rules=replace(ledger.CLASSIC_FOUR_POINT, target=11))
    assert short.rules == replace(ledger.PRESETS["classic"].rules, target=11)

    for wrong in (
        replace(ledger.CLASSIC_FOUR_POINT, min_bid=1),
        replace(ledger.CLASSIC_FOUR_POINT, bidder_only_out=True),
        replace(ledger.CLASSIC_FOUR_POINT, missed_bid="negative"),
        ledger.HOUSE_RULES,
    ):
        with pytest.raises(services.SheetError, match="Classic four-point keeps its own rules"):
            make_sheet(sam, rules=wrong)
    assert make_sheet(sam, rules=ledger.HOUSE_RULES, preset="custom").rules == ledger.HOUSE_RULES


def test_seed_002_worked_hand_stored_and_tallied(sheet, sam):
    hand = add(sheet, sam, bidder=1, bid=3, made=(1, 2), takers=(0, None, 1, 1))

    assert hand.number == 1
    view = selectors.sheet_view(sheet=sheet)
    (row,) = view.rows
    assert row.row.entries == (1, 0)
    assert row.row.debts == (0, 3)
    assert view.tally.standings == (1, -3)
    assert row.takers == [("High", "Sam & Alex"), ("Jack", "Mum & Dad"), ("Game", "Mum & Dad")]


def test_a_stale_hand_number_is_refused_and_nothing_is_saved(sheet, sam, mum):
    add(sheet, sam, 1, 3, (1, 2))

    # mum's form still says hand 1: sam entered it first
    with pytest.raises(services.StaleEntry, match="Hand 1 was already entered"):
        services.hand_add(
            sheet_id=sheet.pk,
            owner=owner_of(mum),
            expected_number=1,
            hand=HandInput(bidder=1, bid=3, made=(1, 2)),
        )
    assert sheet.hands.count() == 1
    assert sheet.changes.count() == 1
    sheet.refresh_from_db()
    assert sheet.hands_entered == 1


def test_the_unique_hand_number_is_the_last_guard_against_a_double(sheet, sam):
    add(sheet, sam, 1, 3, (1, 2))
    # as if the counter had not moved: the second insert of hand 1 breaks the constraint
    Sheet.objects.filter(pk=sheet.pk).update(hands_entered=0)

    with pytest.raises(services.StaleEntry):
        services.hand_add(
            sheet_id=sheet.pk,
            owner=owner_of(sam),
            expected_number=1,
            hand=HandInput(bidder=0, bid=2, made=(2, 2)),
        )
    assert list(sheet.hands.values_list("bidder", flat=True)) == [1]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="real concurrent writers need PostgreSQL"
)
def test_two_members_entering_the_same_hand_at_once_make_one_hand(sheet, sam, mum):
    barrier = threading.Barrier(2)
    outcomes = []

    def enter(user):
        barrier.wait()
        try:
            services.hand_add(
                sheet_id=sheet.pk,
                owner=owner_of(user),
                expected_number=1,
                hand=HandInput(bidder=1, bid=3, made=(1, 2)),
            )
            outcomes.append("saved")
        except services.StaleEntry:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=enter, args=(user,)) for user in (sam, mum)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["refused", "saved"]
    assert sheet.hands.count() == 1


def test_an_impossible_hand_saves_nothing(sheet, sam):
    with pytest.raises(services.SheetError, match="more than the 4"):
        add(sheet, sam, 0, 2, (3, 2))
    with pytest.raises(services.SheetError, match="A bid is 2 to 4"):
        add(sheet, sam, 0, 5, (3, 1))
    with pytest.raises(services.SheetError, match="do not add up"):
        add(sheet, sam, 0, 2, (3, 1), takers=(0, 0, 1, 1))

    sheet.refresh_from_db()
    assert sheet.hands_entered == 0
    assert not sheet.hands.exists() and not sheet.changes.exists()


def test_only_members_may_change_a_sheet(sheet, stranger):
    with pytest.raises(PermissionDenied):
        add(sheet, stranger, 1, 3, (1, 2))
    with pytest.raises(PermissionDenied):
        services.sheet_strike(sheet_id=sheet.pk, owner=owner_of(stranger))
    assert not sheet.hands.exists()


def test_editing_a_hand_replays_every_hand_after_it(sheet, sam, mum):
    hands = [(1, 3, (1, 2)), (0, 2, (2, 2)), (1, 2, (1, 3))]
    for bidder, bid, made in hands:
        add(sheet, sam, bidder, bid, made)
    assert standings(sheet) == (4, 2)

    edited = services.hand_edit(
        sheet_id=sheet.pk,
        owner=owner_of(mum),
        number=2,
        revision=1,
        hand=HandInput(bidder=0, bid=2, made=(3, 1)),
    )

    assert edited.revision == 2
    expected = ledger.tally(
        [ledger.Hand(1, 3, (1, 2)), ledger.Hand(0, 2, (3, 1)), ledger.Hand(1, 2, (1, 3))],
        sides=2,
        rules=sheet.rules,
    )
    view = selectors.sheet_view(sheet=sheet)
    assert [row.row for row in view.rows] == list(expected.rows)
    change = sheet.changes.first()
    assert (change.kind, change.hand_number, change.user) == (Change.Kind.EDIT, 2, mum)
    assert change.before["made"] == [2, 2] and change.after["made"] == [3, 1]


def test_an_edit_from_an_old_copy_of_the_hand_is_refused(sheet, sam, mum):
    add(sheet, sam, 1, 3, (1, 2))
    services.hand_edit(
        sheet_id=sheet.pk, owner=owner_of(sam), number=1, revision=1, hand=HandInput(1, 3, (1, 3))
    )

    with pytest.raises(services.StaleEntry, match="changed by someone else"):
        services.hand_edit(
            sheet_id=sheet.pk,
            owner=owner_of(mum),
            number=1,
            revision=1,
            hand=HandInput(1, 2, (2, 2)),
        )
    assert Hand.objects.get(sheet=sheet, number=1).made == [1, 3]


def test_delete_then_undo_puts_the_hand_back_in_its_place_and_undo_can_be_undone(sheet, sam):
    for bidder, bid, made in [(1, 3, (1, 2)), (0, 2, (2, 2)), (1, 2, (1, 3))]:
        add(sheet, sam, bidder, bid, made)
    before = selectors.sheet_view(sheet=sheet).tally

    delete = services.hand_delete(sheet_id=sheet.pk, owner=owner_of(sam), number=2, revision=1)
    assert list(sheet.hands.values_list("number", flat=True)) == [1, 3]
    assert standings(sheet) == (2, 0)

    undo = services.change_undo(sheet_id=sheet.pk, owner=owner_of(sam), change_id=delete.pk)
    assert list(sheet.hands.values_list("number", flat=True)) == [1, 2, 3]
    assert selectors.sheet_view(sheet=sheet).tally == before
    assert undo.undoes == delete and undo.before is None

    # the undo is a change too: undoing it deletes the hand again
    services.change_undo(sheet_id=sheet.pk, owner=owner_of(sam), change_id=undo.pk)
    assert list(sheet.hands.values_list("number", flat=True)) == [1, 3]
    # numbers are never reused: the next hand is 4
    assert add(sheet, sam, 0, 2, (2, 2)).number == 4


def test_undo_of_an_add_removes_the_hand_and_of_an_edit_restores_it(sheet, sam):
    add(sheet, sam, 1, 3, (1, 2))
    services.hand_edit(
        sheet_id=sheet.pk, owner=owner_of(sam), number=1, revision=1, hand=HandInput(1, 2, (1, 2))
    )
    edit, added = list(sheet.changes.order_by("-pk"))

    # only the newest change of a hand can be undone
    with pytest.raises(services.StaleEntry, match="undo the later change first"):
        services.change_undo(sheet_id=sheet.pk, owner=owner_of(sam), change_id=added.pk)

    services.change_undo(sheet_id=sheet.pk, owner=owner_of(sam), change_id=edit.pk)
    assert Hand.objects.get(sheet=sheet, number=1).bid == 3
    with pytest.raises(services.StaleEntry, match="already been undone"):
        services.change_undo(sheet_id=sheet.pk, owner=owner_of(sam), change_id=edit.pk)
    assert sheet.changes.count() == 3


def reach_target(sheet, user):
    """Sam & Alex bid 4 and take all four points until they have 21."""
    for _ in range(6):
        add(sheet, user, 0, 4, (4, 0))


def test_end_match_banks_it_for_the_winner_and_closes_the_sheet(sheet, sam, mum):
    with pytest.raises(services.SheetError, match="cannot be banked yet"):
        services.sheet_end(sheet_id=sheet.pk, owner=owner_of(mum), winner=0)
    reach_target(sheet, sam)

    with pytest.raises(services.StaleEntry):
        services.sheet_end(sheet_id=sheet.pk, owner=owner_of(mum), winner=1)
    # any member may end the match, not only the bidder
    services.sheet_end(sheet_id=sheet.pk, owner=owner_of(mum), winner=0)

    sheet.refresh_from_db()
    assert sheet.status == Sheet.Status.ENDED
    assert selectors.sheet_view(sheet=sheet).winner == "Sam & Alex"
    with pytest.raises(services.SheetError, match="banked"):
        add(sheet, sam, 1, 2, (0, 4))
    end = sheet.changes.first()
    assert end.after == {"status": "ended", "winner": 0}

    # undoing the end reopens the sheet
    services.change_undo(sheet_id=sheet.pk, owner=owner_of(sam), change_id=end.pk)
    sheet.refresh_from_db()
    assert sheet.status == Sheet.Status.OPEN


def test_strike_then_rematch_with_the_same_sides_and_members(sheet, sam, mum):
    services.member_join(
        code=sheet.invite_code, owner=owner_of(mum)
    )  # joining twice changes nothing
    add(sheet, sam, 1, 3, (1, 2))
    with pytest.raises(services.SheetError, match="before starting a rematch"):
        services.sheet_rematch(sheet_id=sheet.pk, owner=owner_of(mum))

    services.sheet_strike(sheet_id=sheet.pk, owner=owner_of(mum))
    rematch = services.sheet_rematch(sheet_id=sheet.pk, owner=owner_of(mum))

    assert rematch.rematch_of_id == sheet.pk
    assert [side.name for side in rematch.sides.all()] == ["Sam & Alex", "Mum & Dad"]
    assert set(rematch.members.values_list("user__username", flat=True)) == {"sam", "mum"}
    assert rematch.rules == sheet.rules and not rematch.hands.exists()
    # a second tap on Rematch finds the same sheet
    assert services.sheet_rematch(sheet_id=sheet.pk, owner=owner_of(sam)) == rematch
    assert Member.objects.filter(sheet=rematch).count() == 2


def test_group_message_is_sent_only_after_the_change_commits(
    sheet, sam, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        add(sheet, sam, 1, 3, (1, 2))
    assert len(callbacks) == 1


def test_join_with_a_wrong_code_says_so(stranger):
    with pytest.raises(services.SheetError, match="No sheet has that code"):
        services.member_join(code="NOPE12", owner=owner_of(stranger))


def test_join_code_is_forgiving_about_case_and_spaces(sheet, stranger):
    code = sheet.invite_code.lower()
    joined = services.member_join(code=f" {code[:3]} {code[3:]} ", owner=owner_of(stranger))

    assert joined == sheet
