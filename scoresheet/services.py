"""Services: the only code that writes score sheets. Keyword-only, named <thing>_<verb>.

Each one runs in a transaction with the sheet's row locked, records what it changed in
the sheet's history, and tells the live read-only pages once the transaction commits.
Who asks is a ``SeatOwner``: a user, or a guest by its session's token.
"""

import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from game.players.identity import GUEST_TOKEN, SeatOwner
from scoresheet import ledger, limits
from scoresheet.models import (
    Change,
    Hand,
    Member,
    Seat,
    Sheet,
    Side,
    new_invite_code,
    new_watch_token,
)
from scoresheet.selectors import is_creator, mine
from smearsite.kernel import Conflict, Refused, normal_code

logger = logging.getLogger(__name__)


class SheetError(Refused):
    """A change the sheet refuses, with a message for the person who asked for it."""


class StaleEntry(SheetError, Conflict):
    """The form was filled in from a sheet that has changed since."""


@dataclass(frozen=True)
class HandInput:
    """A hand as a member entered it; ``bidder`` is the side, ``bidder_seat`` the player."""

    bidder: int
    bid: int
    made: tuple[int, ...]
    takers: tuple[int | None, ...] | None = None
    bidder_seat: int | None = None


def group_name(sheet_id: int) -> str:
    return f"scoresheet.{sheet_id}"


def _notify(sheet_id: int) -> None:
    """Tell the live pages of this sheet to redraw, once the change is committed."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            async_to_sync(layer.group_send)(
                group_name(sheet_id), {"type": "sheet.changed", "sheet": sheet_id}
            )
        except Exception:
            # the change is saved; live pages catch up at their next poll (a minute at most)
            logger.warning("could not tell the live pages of sheet %s", sheet_id, exc_info=True)

    transaction.on_commit(send)


def _locked_sheet(sheet_id: int, owner: SeatOwner) -> Sheet:
    """The sheet, locked for this transaction; only its members may change it."""
    sheet = Sheet.objects.select_for_update().filter(pk=sheet_id).first()
    if sheet is None or not Member.objects.filter(mine(owner), sheet=sheet).exists():
        raise PermissionDenied("not a member of this sheet")
    return sheet


def _require_open(sheet: Sheet) -> None:
    if not sheet.is_open:
        raise SheetError(
            f"This match is {sheet.get_status_display()}: undo that in the history "
            "to change its hands."
        )


def _check_hands(sheet: Sheet) -> ledger.Tally:
    """Tally the sheet as it now stands; an impossible hand undoes the whole change."""
    hands = [hand.to_ledger() for hand in sheet.hands.order_by("number")]
    try:
        return ledger.tally(hands, sides=sheet.sides.count(), rules=sheet.rules)
    except ValueError as error:
        raise SheetError(f"That hand cannot be right: {error}") from error


def _check_input(sheet: Sheet, hand: HandInput) -> None:
    sides = sheet.sides.count()
    try:
        ledger.check_hand(
            ledger.Hand(bidder=hand.bidder, bid=hand.bid, made=hand.made),
            index=0,
            sides=sides,
            rules=sheet.rules,
        )
        if hand.takers is not None:
            if len(hand.takers) != sheet.points_per_hand:
                raise ValueError("one taker per point of the hand")
            if ledger.made_from_takers(hand.takers, sides=sides) != tuple(hand.made):
                raise ValueError("the points taken do not add up to the points made")
    except ledger.ImpossibleHand as error:
        raise SheetError(error.reason[:1].upper() + error.reason[1:] + ".") from error
    except ValueError as error:
        raise SheetError(str(error)[:1].upper() + str(error)[1:] + ".") from error
    if hand.bidder_seat is not None:
        seat = sheet.seats.filter(position=hand.bidder_seat).first()
        if seat is None or seat.side != hand.bidder:
            raise SheetError("That player does not sit on the bidding side.")


def _hand_fields(hand: HandInput) -> dict:
    return {
        "bidder": hand.bidder,
        "bidder_seat": hand.bidder_seat,
        "bid": hand.bid,
        "made": list(hand.made),
        "takers": None if hand.takers is None else list(hand.takers),
    }


def _record(sheet: Sheet, owner: SeatOwner | None, **fields) -> Change:
    # the sheet's updated_at orders the "my sheets" list (and dates a guest's sheet)
    Sheet.objects.filter(pk=sheet.pk).update(updated_at=timezone.now())
    user_id = None if owner is None else owner.user_id
    return Change.objects.create(sheet=sheet, user_id=user_id, **fields)


# --- Sheets and members ---------------------------------------------------------------


def _unique(field: str, make) -> str:
    for _ in range(20):
        value = make()
        if not Sheet.objects.filter(**{field: value}).exists():
            return value
    raise RuntimeError(f"no free {field} after 20 tries")


def sheet_create(
    *,
    owner: SeatOwner,
    sides: Sequence[str],
    rules: ledger.Rules,
    preset: str = "custom",
    title: str = "",
    seats: Sequence[tuple[str, int]] = (),
    rematch_of: Sheet | None = None,
) -> Sheet:
    """A new open sheet; its creator is its first member. ``seats`` are (name, side) pairs.
    A guest keeps at most ``limits.GUEST_SHEETS`` sheets."""
    if owner.user_id is None and not owner.session_key:
        raise SheetError("A guest needs a session (cookies) to keep a sheet.")
    if not ledger.MIN_SIDES <= len(sides) <= ledger.MAX_SIDES:
        raise SheetError(f"A sheet has {ledger.MIN_SIDES} to {ledger.MAX_SIDES} sides.")
    if preset not in ledger.PRESETS:
        raise SheetError(f"Unknown rules {preset!r}.")
    named = ledger.PRESETS[preset]
    if preset != "custom" and replace(rules, target=named.rules.target) != named.rules:
        # a preset's sheet keeps its table's bids, points and going out; only the target moves
        raise SheetError(
            f"{named.label} keeps its own rules ({named.note}); choose Custom for others."
        )
    if any(not 0 <= side < len(sides) for _, side in seats):
        raise SheetError("Every player must sit on one of the sides.")
    with transaction.atomic():
        if owner.user_id is None and limits.guest_sheets_full(guest_token=owner.session_key):
            raise SheetError(
                f"A guest keeps {limits.GUEST_SHEETS} sheets at most in a browser: sign up "
                "or log in (free) to keep more, and these become yours."
            )
        sheet = Sheet.objects.create(
            title=title.strip(),
            creator_id=owner.user_id,
            creator_guest=None if owner.user_id is not None else owner.session_key,
            preset=preset,
            target=rules.target,
            points_per_hand=rules.points_per_hand,
            min_bid=rules.min_bid,
            max_bid=rules.max_bid,
            missed_bid=rules.missed_bid,
            bidder_only_out=rules.bidder_only_out,
            invite_code=_unique("invite_code", new_invite_code),
            watch_token=_unique("watch_token", new_watch_token),
            rematch_of=rematch_of,
        )
        Side.objects.bulk_create(
            Side(sheet=sheet, position=position, name=name.strip())
            for position, name in enumerate(sides)
        )
        Seat.objects.bulk_create(
            Seat(sheet=sheet, position=position, name=name.strip(), side=side)
            for position, (name, side) in enumerate(seats)
        )
        Member.objects.create(sheet=sheet, **_member_fields(owner))
    return sheet


def _member_fields(owner: SeatOwner) -> dict:
    if owner.user_id is not None:
        return {"user_id": owner.user_id}
    return {"guest_token": owner.session_key}


def sheet_codes_rotate(*, sheet_id: int, owner: SeatOwner) -> Sheet:
    """A new invite code and read-only link for the sheet: the old ones stop working (a
    code shared too widely, or guessed). Only the sheet's creator may; members stay."""
    with transaction.atomic():
        sheet = _locked_sheet(sheet_id, owner)
        if not is_creator(sheet, owner):
            raise SheetError("Only the person who made this sheet can change its codes.")
        sheet.invite_code = _unique("invite_code", new_invite_code)
        sheet.watch_token = _unique("watch_token", new_watch_token)
        sheet.save(update_fields=["invite_code", "watch_token", "updated_at"])
    return sheet


def member_join(*, code: str, owner: SeatOwner) -> Sheet:
    """Join the sheet with this invite code (joining twice changes nothing)."""
    sheet = Sheet.objects.filter(invite_code=normal_code(code)).first()
    if sheet is None:
        raise SheetError("No sheet has that code. Check it with the person who made the sheet.")
    if owner.user_id is None and not owner.session_key:
        raise SheetError("A guest needs a session (cookies) to join a sheet.")
    try:
        with transaction.atomic():
            Member.objects.get_or_create(sheet=sheet, **_member_fields(owner))
    except IntegrityError:
        pass  # the same person joining twice at once: one membership is enough
    return sheet


def sheets_claim(*, user_id: int, guest_token: str | None) -> int:
    """What a guest made or joined in this browser becomes the user's, at sign-up or
    log-in (the guest's token outlives both). How many sheets."""
    if not guest_token:
        return 0
    with transaction.atomic():
        guest = list(
            Member.objects.select_for_update().filter(guest_token=guest_token, user__isnull=True)
        )
        already = set(
            Member.objects.filter(
                user_id=user_id, sheet_id__in=[m.sheet_id for m in guest]
            ).values_list("sheet_id", flat=True)
        )
        for member in guest:
            if member.sheet_id in already:
                member.delete()
            else:
                member.user_id, member.guest_token = user_id, None
                member.save(update_fields=["user", "guest_token"])
        Sheet.objects.filter(creator__isnull=True, creator_guest=guest_token).update(
            creator_id=user_id, creator_guest=None
        )
    return len(guest)


def sheets_claim_at_login(sender, request, user, **kwargs) -> None:
    """On ``user_logged_in``: the browser's guest sheets become the user's."""
    if request is not None and hasattr(request, "session"):
        sheets_claim(user_id=user.pk, guest_token=request.session.get(GUEST_TOKEN))


# --- Hands -------------------------------------------------------------------------


def _already_entered(sheet: Sheet, client_id: uuid.UUID | None) -> Hand | None:
    """The hand this phone already sent under ``client_id``, if it reached the sheet."""
    if client_id is None:
        return None
    hand = Hand.objects.filter(client_id=client_id).first()
    if hand is not None and hand.sheet_id != sheet.pk:
        raise SheetError("That hand belongs to another sheet.")
    return hand


def _stale(number: int) -> StaleEntry:
    return StaleEntry(
        f"Hand {number} was already entered by someone else: "
        "your entry was not saved. Check the sheet, then enter it again "
        "if it is a new hand."
    )


def hand_add(
    *,
    sheet_id: int,
    owner: SeatOwner,
    expected_number: int,
    hand: HandInput,
    client_id: uuid.UUID | None = None,
) -> Hand:
    """Enter the next hand. ``expected_number`` is the number the member's form showed:
    if someone else entered that hand first, this one is refused rather than doubled.
    A hand sent again under its ``client_id`` (a retry) is the hand already stored."""
    try:
        with transaction.atomic():
            sheet = _locked_sheet(sheet_id, owner)
            if (done := _already_entered(sheet, client_id)) is not None:
                return done
            _require_open(sheet)
            _check_input(sheet, hand)
            # compare-and-set: only one of two simultaneous entries moves the counter
            moved = Sheet.objects.filter(pk=sheet.pk, hands_entered=expected_number - 1).update(
                hands_entered=F("hands_entered") + 1
            )
            if not moved:
                raise _stale(expected_number)
            return _store_hand(sheet, owner, expected_number, hand, client_id=client_id)
    except IntegrityError as error:
        # the unique hand number is the last guard against a double entry, and the unique
        # client id against the same hand sent twice at once
        if client_id is not None:
            done = Hand.objects.filter(client_id=client_id, sheet_id=sheet_id).first()
            if done is not None:
                return done
        raise _stale(expected_number) from error


@dataclass(frozen=True)
class KeptHand:
    """A hand a phone kept without a network: its id, the number it showed, the hand."""

    client_id: uuid.UUID
    entered_as: int
    hand: HandInput


def hands_sync(
    *, sheet_id: int, owner: SeatOwner, kept: Sequence[KeptHand]
) -> list[tuple[Hand, bool]]:
    """The hands a phone kept while it had no network, sent together when it is back.
    They go at the end of the sheet, one after another in the phone's order, after any
    hand that reached the sheet first: two phones' hands never interleave. A hand sent
    again is stored once (it comes back with False). ``entered_as`` is the number the
    phone showed; when another hand took that number first, the page marks the later one
    as a possible double, for the table to undo."""
    try:
        with transaction.atomic():
            sheet = _locked_sheet(sheet_id, owner)
            results = []
            for one in kept:
                if (done := _already_entered(sheet, one.client_id)) is not None:
                    results.append((done, False))
                    continue
                _require_open(sheet)
                _check_input(sheet, one.hand)
                sheet.hands_entered += 1
                Sheet.objects.filter(pk=sheet.pk).update(hands_entered=sheet.hands_entered)
                stored = _store_hand(
                    sheet,
                    owner,
                    sheet.hands_entered,
                    one.hand,
                    client_id=one.client_id,
                    entered_as=one.entered_as,
                )
                results.append((stored, True))
            return results
    except IntegrityError:
        # the same hands sent twice at once: the first sending stored them all
        ids = [one.client_id for one in kept]
        done = {h.client_id: h for h in Hand.objects.filter(client_id__in=ids, sheet_id=sheet_id)}
        if len(done) != len(ids):
            raise
        return [(done[one.client_id], False) for one in kept]


def _store_hand(sheet: Sheet, owner: SeatOwner, number: int, hand: HandInput, **extra) -> Hand:
    if sheet.creator_id is None and number > limits.GUEST_HANDS:
        raise SheetError(
            f"A guest's sheet holds {limits.GUEST_HANDS} hands: sign up or log in to keep "
            "going on this one."
        )
    created = Hand.objects.create(
        sheet=sheet, number=number, created_by_id=owner.user_id, **_hand_fields(hand), **extra
    )
    _check_hands(sheet)
    _record(
        sheet,
        owner,
        kind=Change.Kind.ADD,
        hand_number=created.number,
        before=None,
        after=created.snapshot(),
    )
    _notify(sheet.pk)
    return created


def _locked_hand(sheet: Sheet, number: int, revision: int) -> Hand:
    hand = Hand.objects.select_for_update().filter(sheet=sheet, number=number).first()
    if hand is None:
        raise StaleEntry(f"Hand {number} is no longer on the sheet: someone deleted it.")
    if hand.revision != revision:
        raise StaleEntry(
            f"Hand {number} was changed by someone else while you had it open: "
            "your change was not saved. Look at it again."
        )
    return hand


def hand_edit(
    *, sheet_id: int, owner: SeatOwner, number: int, revision: int, hand: HandInput
) -> Hand:
    """Change an earlier hand: every hand after it is tallied again from it."""
    with transaction.atomic():
        sheet = _locked_sheet(sheet_id, owner)
        _require_open(sheet)
        _check_input(sheet, hand)
        current = _locked_hand(sheet, number, revision)
        before = current.snapshot()
        for name, value in _hand_fields(hand).items():
            setattr(current, name, value)
        current.revision += 1
        current.save()
        _check_hands(sheet)
        if current.snapshot() != before:
            _record(
                sheet,
                owner,
                kind=Change.Kind.EDIT,
                hand_number=number,
                before=before,
                after=current.snapshot(),
            )
        _notify(sheet.pk)
    return current


def hand_delete(*, sheet_id: int, owner: SeatOwner, number: int, revision: int) -> Change:
    """Take a hand off the sheet; the history keeps it, and undo puts it back."""
    with transaction.atomic():
        sheet = _locked_sheet(sheet_id, owner)
        _require_open(sheet)
        current = _locked_hand(sheet, number, revision)
        before = current.snapshot()
        current.delete()
        _check_hands(sheet)
        change = _record(
            sheet, owner, kind=Change.Kind.DELETE, hand_number=number, before=before, after=None
        )
        _notify(sheet.pk)
    return change


# --- The match: end, strike, rematch -----------------------------------------------


def sheet_end(*, sheet_id: int, owner: SeatOwner, winner: int) -> Sheet:
    """Bank the match for ``winner``, the side the member saw winning; any member may."""
    with transaction.atomic():
        sheet = _locked_sheet(sheet_id, owner)
        _require_open(sheet)
        tally = _check_hands(sheet)
        if not tally.bankable:
            raise SheetError("The match cannot be banked yet: no side has won it.")
        if tally.winner != winner:
            raise StaleEntry("The sheet has changed since you looked: check who is winning now.")
        sheet.status = Sheet.Status.ENDED
        sheet.save(update_fields=["status", "updated_at"])
        _record(
            sheet,
            owner,
            kind=Change.Kind.END,
            before={"status": Sheet.Status.OPEN},
            after={"status": Sheet.Status.ENDED, "winner": winner},
        )
        _notify(sheet.pk)
    return sheet


def sheet_strike(*, sheet_id: int, owner: SeatOwner) -> Sheet:
    """Strike the match: the table broke up, nobody banks it."""
    with transaction.atomic():
        sheet = _locked_sheet(sheet_id, owner)
        _require_open(sheet)
        sheet.status = Sheet.Status.STRUCK
        sheet.save(update_fields=["status", "updated_at"])
        _record(
            sheet,
            owner,
            kind=Change.Kind.STRIKE,
            before={"status": Sheet.Status.OPEN},
            after={"status": Sheet.Status.STRUCK},
        )
        _notify(sheet.pk)
    return sheet


def sheet_rematch(*, sheet_id: int, owner: SeatOwner) -> Sheet:
    """A new sheet with the same sides, seating, rules and members (one per match)."""
    with transaction.atomic():
        sheet = _locked_sheet(sheet_id, owner)
        if sheet.is_open:
            raise SheetError("End or strike this match before starting a rematch.")
        existing = Sheet.objects.filter(rematch_of=sheet).first()
        if existing is not None:
            return existing
        rematch = sheet_create(
            owner=owner,
            title=sheet.title,
            sides=[side.name for side in sheet.sides.all()],
            seats=[(seat.name, seat.side) for seat in sheet.seats.all()],
            preset=sheet.preset,
            rules=sheet.rules,
            rematch_of=sheet,
        )
        Member.objects.bulk_create(
            [
                Member(sheet=rematch, user_id=member.user_id, guest_token=member.guest_token)
                for member in sheet.members.exclude(mine(owner))
            ]
        )
    return rematch


# --- Undo ---------------------------------------------------------------------------


def _latest_for(sheet: Sheet, change: Change) -> Change | None:
    same_target = sheet.changes.filter(hand_number=change.hand_number)
    if change.hand_number is None:
        same_target = sheet.changes.filter(hand_number__isnull=True)
    return same_target.order_by("-pk").first()


def _what(change: Change) -> str:
    return "the match" if change.hand_number is None else f"hand {change.hand_number}"


def change_undo(*, sheet_id: int, owner: SeatOwner, change_id: int) -> Change:
    """Put back what a change replaced. The undo is a change too, so it can be undone."""
    with transaction.atomic():
        sheet = _locked_sheet(sheet_id, owner)
        change = sheet.changes.filter(pk=change_id).first()
        if change is None:
            raise SheetError("There is no such change on this sheet.")
        if Change.objects.filter(undoes=change).exists():
            raise StaleEntry("That change has already been undone.")
        if _latest_for(sheet, change).pk != change.pk:
            raise StaleEntry(
                f"{_what(change).capitalize()} has changed since: undo the later change first."
            )
        if change.hand_number is None:
            current, restored = _restore_status(sheet, change.before)
        else:
            _require_open(sheet)
            current = _restore_hand(sheet, change.hand_number, change.before)
            restored = change.before
        undo = _record(
            sheet,
            owner,
            kind=Change.Kind.UNDO,
            hand_number=change.hand_number,
            before=current,
            after=restored,
            undoes=change,
        )
        _notify(sheet.pk)
    return undo


def _restore_status(sheet: Sheet, before: dict) -> tuple[dict, dict]:
    """Set the sheet's status back; returns the status it had and the one it has now."""
    previous = {"status": sheet.status}
    restored = {"status": before["status"]}
    if restored["status"] == Sheet.Status.ENDED:
        # banked again only if the hands still decide the match
        tally = _check_hands(sheet)
        if not tally.bankable:
            raise SheetError("The match cannot be banked now: no side has won it.")
        restored["winner"] = tally.winner
    sheet.status = restored["status"]
    sheet.save(update_fields=["status", "updated_at"])
    return previous, restored


def _restore_hand(sheet: Sheet, number: int, snapshot: dict | None) -> dict | None:
    """Put hand ``number`` back as ``snapshot`` (None: off the sheet); returns what it was."""
    current = Hand.objects.select_for_update().filter(sheet=sheet, number=number).first()
    previous = None if current is None else current.snapshot()
    if snapshot is None:
        if current is not None:
            current.delete()
    else:
        fields = {key: value for key, value in snapshot.items() if key != "number"}
        if current is None:
            Hand.objects.create(sheet=sheet, number=number, **fields)
        else:
            for name, value in fields.items():
                setattr(current, name, value)
            current.revision += 1
            current.save()
    _check_hands(sheet)
    return previous
