"""Selectors: read score sheets and shape them for pages, exports and the live link.

Every number shown comes from ``ledger.tally`` over the stored hands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet
from django.http import Http404
from django.urls import reverse

from game.engine import variants
from game.players.identity import SeatOwner
from scoresheet import ledger
from scoresheet.models import Change, Hand, Member, Seat, Sheet
from smearsite.kernel import normal_code


def mine(owner: SeatOwner, *, prefix: str = "") -> Q:
    """The memberships of ``owner``: the user's, and the guest token's not yet claimed
    (``prefix`` reaches them from another model, e.g. ``members__``)."""
    found = Q(pk__in=[])
    if owner.user_id is not None:
        found |= Q(**{f"{prefix}user_id": owner.user_id})
    if owner.session_key:
        found |= Q(**{f"{prefix}user__isnull": True, f"{prefix}guest_token": owner.session_key})
    return found


def is_creator(sheet: Sheet, owner: SeatOwner) -> bool:
    if sheet.creator_id is not None:
        return sheet.creator_id == owner.user_id
    return bool(owner.session_key) and sheet.creator_guest == owner.session_key


def sheets_for_owner(*, owner: SeatOwner) -> QuerySet[Sheet]:
    if owner.user_id is None and not owner.session_key:
        return Sheet.objects.none()
    member_of = Member.objects.filter(mine(owner)).values("sheet_id")
    return Sheet.objects.filter(pk__in=member_of).prefetch_related("sides")


def sheet_for_member(*, sheet_id: int, owner: SeatOwner) -> Sheet:
    """The sheet if ``owner`` is one of its members; anyone else is told it does not exist."""
    if owner.user_id is None and not owner.session_key:
        raise Http404("No such sheet.")
    sheet = (
        Sheet.objects.filter(pk=sheet_id)
        .filter(pk__in=Member.objects.filter(mine(owner)).values("sheet_id"))
        .first()
    )
    if sheet is None:
        raise Http404("No such sheet.")
    return sheet


def sheet_for_watch_token(*, token: str) -> Sheet:
    sheet = Sheet.objects.filter(watch_token=token).first() if token else None
    if sheet is None:
        raise Http404("No such sheet.")
    return sheet


def sheet_for_invite_code(*, code: str) -> Sheet | None:
    return Sheet.objects.filter(invite_code=normal_code(code)).first()


# --- The sheet, shaped for a page ----------------------------------------------------


@dataclass(frozen=True)
class Cell:
    side: str
    made: int  # the points the side took in the hand
    entry: int
    debt: int
    total: int
    standing: int
    at_target: bool


@dataclass(frozen=True)
class RowView:
    number: int
    position: int  # 1 for the first hand still on the sheet
    hand: Hand
    row: ledger.Row
    bidder: str
    bidder_player: str | None
    dealer: str | None
    takers: list[tuple[str, str]] | None  # (point, side) for each point taken
    cells: list[Cell]


@dataclass(frozen=True)
class SideSummary:
    position: int
    name: str
    standing: int
    total: int
    debt: int
    at_target: bool
    players: list[str]


@dataclass(frozen=True)
class SideStats:
    name: str
    hands: int
    bids: int
    bids_made: int
    points: int

    @property
    def bids_missed(self) -> int:
        return self.bids - self.bids_made

    @property
    def points_per_hand(self) -> float:
        return self.points / self.hands if self.hands else 0.0


@dataclass(frozen=True)
class PlayerStats:
    name: str
    side: str
    bids: int
    bids_made: int
    points_when_bidding: int

    @property
    def points_per_bid(self) -> float:
        return self.points_when_bidding / self.bids if self.bids else 0.0


@dataclass(frozen=True)
class SheetView:
    sheet: Sheet
    rules: ledger.Rules
    preset: ledger.Preset
    point_names: tuple[str, ...]
    sides: list[str]
    seats: list[Seat]
    tally: ledger.Tally
    rows: list[RowView]
    summary: list[SideSummary]
    next_number: int
    next_dealer: str | None
    side_stats: list[SideStats] = field(default_factory=list)
    player_stats: list[PlayerStats] = field(default_factory=list)

    @property
    def title(self) -> str:
        return self.sheet.title or " v ".join(self.sides)

    @property
    def winner(self) -> str | None:
        return None if self.tally.winner is None else self.sides[self.tally.winner]

    @property
    def bankable(self) -> bool:
        return self.sheet.is_open and self.tally.bankable


@dataclass(frozen=True)
class BoardLink:
    """The analysis board's form set up as this game: its game and target, its players and
    teams (the seats numbered in the sheet's seating order), the dealer of a hand and the
    score before it. The sheet keeps points, not cards: the cards are tapped in there."""

    url: str
    hand: int  # the hand it is set for: the last entered (the first on an empty sheet)
    dealer: str | None
    seats: tuple[tuple[int, str], ...]  # (the board's seat number, the sheet's name)
    game_set: bool  # False for a sheet of its own points: the game is chosen on the board


def board_link(view: SheetView) -> BoardLink:
    sheet, rows, seats = view.sheet, view.rows, view.seats
    hand = len(rows) or 1
    query: dict[str, object] = {}
    game_set = sheet.preset in variants.PRESETS
    if game_set:
        query["preset"] = sheet.preset
    if variants.TARGETS[0] <= sheet.target <= variants.TARGETS[1]:
        query["target"] = sheet.target
    teams = [
        [i for i, seat in enumerate(seats) if seat.side == side] for side in range(len(view.sides))
    ]
    if seats and all(teams):
        query["players"] = len(seats)
        query["layout"] = "custom"
        query["custom_teams"] = ":".join(",".join(map(str, unit)) for unit in teams)
        query["dealer"] = (hand - 1) % len(seats)
    before = rows[-2].row.standings if len(rows) >= 2 else (0,) * len(view.sides)
    query["scores"] = " ".join(map(str, before))
    return BoardLink(
        url=f"{reverse('analysis:new')}?{urlencode(query)}",
        hand=hand,
        dealer=dealer_for(seats, hand),
        seats=tuple(enumerate(seat.name for seat in seats)) if "players" in query else (),
        game_set=game_set,
    )


def dealer_for(seats: list[Seat], position: int) -> str | None:
    """Who deals the hand at ``position`` (1 for the first): the deal moves one seat a hand."""
    if not seats:
        return None
    return seats[(position - 1) % len(seats)].name


def sheet_view(*, sheet: Sheet) -> SheetView:
    sides = [side.name for side in sheet.sides.all()]
    seats = list(sheet.seats.all())
    hands = list(sheet.hands.all())
    rules = sheet.rules
    tally = ledger.tally([hand.to_ledger() for hand in hands], sides=len(sides), rules=rules)
    points = ledger.point_names(sheet.preset, rules.points_per_hand)
    seat_names = {seat.position: seat.name for seat in seats}

    rows = []
    for position, (hand, row) in enumerate(zip(hands, tally.rows, strict=True), start=1):
        takers = None
        if hand.takers is not None:
            takers = [
                (points[i], sides[taker])
                for i, taker in enumerate(hand.takers)
                if taker is not None and i < len(points)
            ]
        rows.append(
            RowView(
                number=hand.number,
                position=position,
                hand=hand,
                row=row,
                bidder=sides[hand.bidder],
                bidder_player=seat_names.get(hand.bidder_seat),
                dealer=dealer_for(seats, position),
                takers=takers,
                cells=[
                    Cell(
                        side=sides[side],
                        made=hand.made[side],
                        entry=row.entries[side],
                        debt=row.debts[side],
                        total=row.totals[side],
                        standing=row.standings[side],
                        at_target=row.at_target[side],
                    )
                    for side in range(len(sides))
                ],
            )
        )

    summary = [
        SideSummary(
            position=side,
            name=name,
            standing=tally.standings[side],
            total=tally.totals[side],
            debt=tally.debts[side],
            at_target=tally.at_target[side],
            players=[seat.name for seat in seats if seat.side == side],
        )
        for side, name in enumerate(sides)
    ]
    return SheetView(
        sheet=sheet,
        rules=rules,
        preset=ledger.PRESETS.get(sheet.preset, ledger.PRESETS["custom"]),
        point_names=points,
        sides=sides,
        seats=seats,
        tally=tally,
        rows=rows,
        summary=summary,
        next_number=sheet.hands_entered + 1,
        next_dealer=dealer_for(seats, len(hands) + 1),
        side_stats=_side_stats(sides, hands, tally),
        player_stats=_player_stats(sides, seats, hands),
    )


@dataclass(frozen=True)
class Preview:
    """The row a hand would add to the end of the sheet."""

    bidder: str
    bid: int
    made: tuple[int, ...]
    bidder_made: int
    row: ledger.Row
    cells: list[Cell]


def preview(*, view: SheetView, hand) -> Preview:
    """What entering ``hand`` (a services.HandInput) next would put on the sheet."""
    new = ledger.Hand(bidder=hand.bidder, bid=hand.bid, made=tuple(hand.made))
    hands = [row.hand.to_ledger() for row in view.rows] + [new]
    row = ledger.tally(hands, sides=len(view.sides), rules=view.rules).rows[-1]
    return Preview(
        bidder=view.sides[hand.bidder],
        bid=hand.bid,
        made=new.made,
        bidder_made=new.made[new.bidder],
        row=row,
        cells=[
            Cell(
                side=name,
                made=new.made[side],
                entry=row.entries[side],
                debt=row.debts[side],
                total=row.totals[side],
                standing=row.standings[side],
                at_target=row.at_target[side],
            )
            for side, name in enumerate(view.sides)
        ],
    )


def _side_stats(sides: list[str], hands: list[Hand], tally: ledger.Tally) -> list[SideStats]:
    stats = []
    for side, name in enumerate(sides):
        bids = [row for row in tally.rows if row.hand.bidder == side]
        stats.append(
            SideStats(
                name=name,
                hands=len(hands),
                bids=len(bids),
                bids_made=sum(row.made for row in bids),
                points=sum(hand.made[side] for hand in hands),
            )
        )
    return stats


def _player_stats(sides: list[str], seats: list[Seat], hands: list[Hand]) -> list[PlayerStats]:
    """Bids per player, where the bidding player was entered."""
    stats = []
    for seat in seats:
        bid = [hand for hand in hands if hand.bidder_seat == seat.position]
        stats.append(
            PlayerStats(
                name=seat.name,
                side=sides[seat.side],
                bids=len(bid),
                bids_made=sum(hand.made[hand.bidder] >= hand.bid for hand in bid),
                points_when_bidding=sum(hand.made[hand.bidder] for hand in bid),
            )
        )
    return stats


# --- History ------------------------------------------------------------------------


@dataclass(frozen=True)
class ChangeView:
    change: Change
    who: str
    what: str
    before: str
    after: str
    undone: bool
    can_undo: bool


def _describe_hand(snapshot: dict | None, sides: list[str], seats: dict[int, str]) -> str:
    if snapshot is None:
        return "not on the sheet"
    bidder = sides[snapshot["bidder"]] if snapshot["bidder"] < len(sides) else "?"
    player = seats.get(snapshot.get("bidder_seat"))
    made = " · ".join(str(points) for points in snapshot["made"])
    return f"{player or bidder} bid {snapshot['bid']}; made {made}"


def _describe_status(snapshot: dict | None, sides: list[str]) -> str:
    if snapshot is None:
        return ""
    status = Sheet.Status(snapshot["status"])
    if status == Sheet.Status.ENDED and snapshot.get("winner") is not None:
        return f"banked for {sides[snapshot['winner']]}"
    return status.label


def history(*, sheet: Sheet) -> list[ChangeView]:
    """The sheet's changes, newest first, each saying what it replaced."""
    sides = [side.name for side in sheet.sides.all()]
    seats = {seat.position: seat.name for seat in sheet.seats.all()}
    changes = list(sheet.changes.select_related("user", "user__profile").order_by("-pk"))
    undone = {change.undoes_id for change in changes if change.undoes_id}
    latest: set[int | None] = set()
    views = []
    for change in changes:
        # only the newest change of each hand (or of the match) can be undone
        target = change.hand_number
        can_undo = target not in latest and change.pk not in undone
        latest.add(target)
        if target is None:
            what = f"{change.get_kind_display()}"
            before = _describe_status(change.before, sides)
            after = _describe_status(change.after, sides)
            if change.kind == Change.Kind.UNDO:
                what = "undid a change to the match"
        else:
            what = f"{change.get_kind_display()} hand {target}"
            if change.kind == Change.Kind.UNDO:
                what = f"undid a change to hand {target}"
            before = _describe_hand(change.before, sides, seats)
            after = _describe_hand(change.after, sides, seats)
        views.append(
            ChangeView(
                change=change,
                who=_display_name(change.user),
                what=what,
                before=before,
                after=after,
                undone=change.pk in undone,
                can_undo=can_undo and (sheet.is_open or target is None),
            )
        )
    return views


def _display_name(user: AbstractBaseUser | None) -> str:
    if user is None:
        return "someone"
    profile = getattr(user, "profile", None)
    return getattr(profile, "display_name", None) or user.get_username()


def members(*, sheet: Sheet) -> list[str]:
    return [
        "a guest" if member.user is None else _display_name(member.user)
        for member in sheet.members.select_related("user", "user__profile")
    ]


# --- Exports ------------------------------------------------------------------------


def export_rows(view: SheetView) -> tuple[list[str], list[list]]:
    """The sheet as a table: one row per hand, five columns per side."""
    header = ["hand", "dealer", "bidder", "bidding player", "bid", "bid made"]
    for side in view.sides:
        header += [f"{side} made", f"{side} entry", f"{side} debt", f"{side} total"]
        header += [f"{side} standing"]
    rows = []
    for row in view.rows:
        line = [
            row.number,
            row.dealer or "",
            row.bidder,
            row.bidder_player or "",
            row.hand.bid,
            "yes" if row.row.made else "no",
        ]
        for side, cell in enumerate(row.cells):
            line += [row.hand.made[side], cell.entry, cell.debt, cell.total, cell.standing]
        rows.append(line)
    return header, rows


def export_document(view: SheetView) -> dict:
    """The sheet as JSON: its rules, sides and hands, with every row of the tally."""
    sheet = view.sheet
    return {
        "format": "smear-scoresheet/1",
        "title": view.title,
        "status": sheet.status,
        "winner": view.winner if sheet.status == Sheet.Status.ENDED else None,
        "created_at": sheet.created_at.isoformat(),
        "preset": sheet.preset,
        "rules": {
            "target": view.rules.target,
            "points_per_hand": view.rules.points_per_hand,
            "min_bid": view.rules.min_bid,
            "max_bid": view.rules.max_bid,
            "missed_bid": view.rules.missed_bid,
            "bidder_only_out": view.rules.bidder_only_out,
        },
        "points": list(view.point_names),
        "sides": view.sides,
        "seats": [{"name": seat.name, "side": seat.side} for seat in view.seats],
        "hands": [
            {
                "number": row.number,
                "dealer": row.dealer,
                "bidder": row.hand.bidder,
                "bidder_seat": row.hand.bidder_seat,
                "bid": row.hand.bid,
                "made": list(row.hand.made),
                "takers": row.hand.takers,
                "bid_made": row.row.made,
                "entries": list(row.row.entries),
                "debts": list(row.row.debts),
                "totals": list(row.row.totals),
                "standings": list(row.row.standings),
            }
            for row in view.rows
        ],
        "standings": list(view.tally.standings),
        "stats": [
            {
                "side": stats.name,
                "bids": stats.bids,
                "bids_made": stats.bids_made,
                "points": stats.points,
                "points_per_hand": round(stats.points_per_hand, 2),
            }
            for stats in view.side_stats
        ],
    }


# --- What the page's scripts read -----------------------------------------------------


def page_data(view: SheetView) -> dict:
    """The sheet as data for the page (``json_script``): its rules, sides, seats, points
    and hands. The page folds the hands with ``static/scoresheet/ledger.js``, the ledger's
    rules in JavaScript (tested case for case against ``ledger.tally``), to draw the chart
    and the hands a phone keeps while offline."""
    rules = view.rules
    return {
        "sheet": view.sheet.pk,
        "open": view.sheet.is_open,
        "rules": {
            "target": rules.target,
            "points_per_hand": rules.points_per_hand,
            "min_bid": rules.min_bid,
            "max_bid": rules.max_bid,
            "missed_bid": rules.missed_bid,
            "bidder_only_out": rules.bidder_only_out,
        },
        "sides": view.sides,
        "seats": [{"name": s.name, "side": s.side, "position": s.position} for s in view.seats],
        "points": list(view.point_names),
        "hands": [
            {
                "number": row.number,
                "bidder": row.hand.bidder,
                "bid": row.hand.bid,
                "made": list(row.hand.made),
            }
            for row in view.rows
        ],
        "next_number": view.next_number,
    }
