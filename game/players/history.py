"""A player's own tables: the history on the profile and the stats drawn from it.

Read only. Every figure comes from the table's finished rounds (``store.finished_match_for_
table``): a round still being played is neither listed nor counted, and nothing here reads
a hand. The chart is an SVG drawn on the server (a polyline, no script and no style).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Max

from game import store
from game.engine.state import MatchState
from game.models import Seat, Table

HISTORY_KEPT = 50  # the newest tables listed and counted
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 112, 8
# room for the axes' labels: the values at the left, the first and last at the bottom
CHART_LEFT, CHART_BOTTOM = 48, 20


def layout_name(teams) -> str:
    """ "cutthroat" when everyone plays alone, else the units' sizes: "2v2", "2v2v2"."""
    sizes = [len(unit) for unit in teams]
    if all(size == 1 for size in sizes):
        return "cutthroat"
    return "v".join(str(size) for size in sizes)


@dataclass(frozen=True)
class RoundLine:
    number: int  # 1-based, as the step-through's address spells it
    bid_won: bool  # this seat won the auction
    made: bool  # ... and made its bid
    points: int  # what the seat's unit took in the round


@dataclass(frozen=True)
class TableLine:
    code: str
    date: datetime
    players: int
    layout: str
    names: tuple[str, ...]  # everyone at the table, seat by seat
    seat: int
    result: str  # "Won", "Lost", "Playing", "Left unfinished"
    score: str  # the match score, your unit first
    rounds: tuple[RoundLine, ...]  # finished rounds only

    @property
    def points_a_round(self) -> float | None:
        if not self.rounds:
            return None
        return sum(line.points for line in self.rounds) / len(self.rounds)


def tables_for(*, user_id: int, limit: int = HISTORY_KEPT) -> list[TableLine]:
    """Every dealt table the user sat at, newest first."""
    seats = (
        Seat.objects.filter(user_id=user_id, table__status__in=DEALT)
        .select_related("table")
        .annotate(last_move=Max("table__actions__created"))
        .order_by("-table__created", "-pk")[:limit]
    )
    seats = list(seats)
    names = _names([seat.table_id for seat in seats])
    return [_line(seat, names[seat.table_id]) for seat in seats]


DEALT = (Table.Status.PLAYING, Table.Status.FINISHED)


def _names(table_ids: list[int]) -> dict[int, tuple[str, ...]]:
    found: dict[int, list[str]] = defaultdict(list)
    for table_id, name in (
        Seat.objects.filter(table_id__in=table_ids)
        .order_by("table_id", "number")
        .values_list("table_id", "display_name")
    ):
        found[table_id].append(name)
    return {table_id: tuple(found[table_id]) for table_id in table_ids}


def _line(seat: Seat, names: tuple[str, ...]) -> TableLine:
    table = seat.table
    match = store.finished_match_for_table(table)
    unit = match.setup.unit_of[seat.number]
    return TableLine(
        code=table.code,
        date=seat.last_move or table.created,
        players=table.players,
        layout=layout_name(table.teams),
        names=names,
        seat=seat.number,
        result=_result(table, match, unit),
        score=_score(match, unit),
        rounds=tuple(_round_line(match, n, seat.number) for n in range(len(match.rounds))),
    )


def _result(table: Table, match: MatchState, unit: int) -> str:
    if match.is_terminal():
        return "Won" if match.winner == unit else "Lost"
    return "Playing" if table.status == Table.Status.PLAYING else "Left unfinished"


def _score(match: MatchState, unit: int) -> str:
    scores = match.scores
    others = [str(score) for n, score in enumerate(scores) if n != unit]
    return f"{scores[unit]}–{'–'.join(others)}"


def _round_line(match: MatchState, number: int, seat: int) -> RoundLine:
    state = match.rounds[number]
    unit = match.setup.unit_of[seat]
    won = state.bidder_seat == seat
    return RoundLine(
        number=number + 1,
        bid_won=won,
        made=won and state.result.made,
        points=state.result.raw[unit],
    )


# --- Stats by table size and layout -----------------------------------------------------


@dataclass(frozen=True)
class StatsLine:
    players: int
    layout: str
    tables: int
    won: int  # matches won
    rounds: int
    auctions_won: int
    bids_made: int
    points: int  # taken by your unit over those rounds

    @property
    def points_a_round(self) -> float:
        return self.points / self.rounds if self.rounds else 0.0

    @property
    def made_share(self) -> int | None:
        """Bids made, in percent of auctions won."""
        return round(100 * self.bids_made / self.auctions_won) if self.auctions_won else None


def stats_for(lines: list[TableLine]) -> list[StatsLine]:
    """The history summed by table size and layout, smallest table first."""
    groups: dict[tuple[int, str], list[TableLine]] = defaultdict(list)
    for line in lines:
        groups[(line.players, line.layout)].append(line)
    return [
        StatsLine(
            players=players,
            layout=layout,
            tables=len(group),
            won=sum(line.result == "Won" for line in group),
            rounds=sum(len(line.rounds) for line in group),
            auctions_won=sum(r.bid_won for line in group for r in line.rounds),
            bids_made=sum(r.made for line in group for r in line.rounds),
            points=sum(r.points for line in group for r in line.rounds),
        )
        for (players, layout), group in sorted(groups.items())
    ]


@dataclass(frozen=True)
class Chart:
    """A line over time, laid out for an SVG ``viewBox`` of ``width`` by ``height``, with
    its axes: values up the left (``low`` to ``high``), order along the bottom (1 to
    ``count``)."""

    points: str  # the polyline's "x,y x,y ..."
    dots: tuple[tuple[float, float], ...]
    low: float
    high: float
    first: float
    last: float
    digits: int = 0  # decimals the figures are shown with
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT

    @property
    def count(self) -> int:
        return len(self.dots)

    @property
    def axis_left(self) -> int:
        return CHART_LEFT

    @property
    def axis_bottom(self) -> int:
        return CHART_HEIGHT - CHART_BOTTOM

    @property
    def top(self) -> int:
        return CHART_PAD

    @property
    def right(self) -> int:
        return CHART_WIDTH - CHART_PAD

    def _shown(self, value: float) -> str:
        return f"{value:.{self.digits}f}"

    @property
    def low_text(self) -> str:
        return self._shown(self.low)

    @property
    def high_text(self) -> str:
        return self._shown(self.high)

    @property
    def trend(self) -> str:
        """The change from the first value to the last, in time order: "fell from 1500 to
        1464", "rose from ...", or "ended where it began, at ..."."""
        first, last = self._shown(self.first), self._shown(self.last)
        if first == last:
            return f"ended where it began, at {last}"
        verb = "rose" if self.last > self.first else "fell"
        return f"{verb} from {first} to {last}"


def chart(values: list[float], digits: int = 0) -> Chart | None:
    """Values in time order as a polyline; None for fewer than two."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    left, right = CHART_LEFT + CHART_PAD, CHART_WIDTH - CHART_PAD
    top, bottom = CHART_PAD, CHART_HEIGHT - CHART_BOTTOM - CHART_PAD
    step = (right - left) / (len(values) - 1)
    dots = tuple(
        (round(left + n * step, 1), round(top + (bottom - top) * (high - v) / span, 1))
        for n, v in enumerate(values)
    )
    points = " ".join(f"{x},{y}" for x, y in dots)
    return Chart(points, dots, low, high, values[0], values[-1], digits)


def points_chart(lines: list[TableLine]) -> Chart | None:
    """Points a round at each table, oldest first."""
    values = [line.points_a_round for line in reversed(lines) if line.points_a_round is not None]
    return chart(values, digits=2)
