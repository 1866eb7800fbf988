"""What the analysis board's page draws: the position as entered, the expert's answer in
the trainer's words (``learn.presenters.option_rows`` and ``explanation`` over a
``answers.BoardPosition``) and the exact table in points per side.

The expert's part is drawn from its stored answer and the seat's view alone; the exact
part only where the board gives every hand (and so the visitor typed them in).
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import notation
from game.engine.board import Replayed, hand_unknown
from game.engine.cards import CARD_CODES, cards_of
from game.engine.rules import is_card
from learn import presenters as trainer
from learn.analysis_board import answers
from learn.core import explain
from learn.models import BoardAnswer

FOUND_IT = "You found it: "


@dataclass(frozen=True)
class Side:
    label: str  # "Seats 0 and 2 (you)"
    yours: bool


@dataclass(frozen=True)
class Moment:
    """The position as entered: the table, the hands given, the round so far."""

    game: str
    sides: tuple[Side, ...]
    dealer: int
    scores: tuple[tuple[str, int], ...]
    seat: int
    hand: tuple[str, ...]  # as dealt
    fill: tuple[str, ...]  # the cards it drew from the pack, where the board knows them
    held: tuple[str, ...]  # in its hand now, where the board knows them and play changed it
    hand_unknown: str  # why the board cannot know its hand now, or ""
    others: tuple[tuple[int, tuple[str, ...]], ...]  # the other hands given, by seat
    history: tuple[str, ...]  # "Seat 1: bid 2", "Seat 2: the ace of spades"
    to_act: int | None
    trump: str


@dataclass(frozen=True)
class ExpertShown:
    status: str  # a BoardAnswer.Status, or "" when not asked yet
    error: str = ""
    took: str = ""  # while it waits: how long answers at this table size have taken lately
    choice: str = ""  # the expert's choice, as a player names it
    rows: tuple[trainer.OptionRow, ...] = ()
    paragraphs: tuple[str, ...] = ()
    details: tuple[str, ...] = ()
    differs: str = ""  # the analysis's best, where the table's choice is another
    deals: int = 0
    has_made: bool = False
    has_points: bool = False


@dataclass(frozen=True)
class TableLine:
    lead: str  # a card code, or a suit's name
    is_card: bool
    points: tuple[int, ...]


@dataclass(frozen=True)
class CardValue:
    code: str
    points: int
    behind: int  # points behind the best card (0 for the best)


@dataclass(frozen=True)
class ExactShown:
    status: str
    error: str = ""
    took: str = ""  # while it waits, as ExpertShown's
    per: str = ""  # "opening lead" or "trump suit"
    per_trump_suit: bool = False  # each line names trump, the hands the same
    table: tuple[TableLine, ...] = ()
    table_note: str = ""
    cards: tuple[CardValue, ...] = ()
    cards_note: str = ""
    to_play: int | None = None
    to_play_side: str = ""


@dataclass(frozen=True)
class BoardPage:
    notation: str
    moment: Moment
    expert: ExpertShown | None  # None: the seat asking is not to act
    expert_why_not: str
    exact: ExactShown | None  # None: not every card is known
    sides: tuple[Side, ...]

    @property
    def waiting(self) -> bool:
        shown = [part for part in (self.expert, self.exact) if part is not None]
        return any(part.status in ("queued", "running") for part in shown)

    @property
    def unasked(self) -> bool:
        shown = [part for part in (self.expert, self.exact) if part is not None]
        return any(part.status == "" for part in shown)


def sides_of(replayed: Replayed) -> tuple[Side, ...]:
    board = replayed.board
    sides = []
    for unit in board.teams:
        seats = sorted(unit)
        words = (
            f"Seat {seats[0]}"
            if len(seats) == 1
            else "Seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"
        )
        yours = board.seat in unit
        sides.append(Side(words + (" (you)" if yours else ""), yours))
    return tuple(sides)


def moment_of(replayed: Replayed) -> Moment:
    board, state = replayed.board, replayed.state
    sides = sides_of(replayed)
    history = []
    for seat, (_, action) in zip(replayed.seats, board.actions, strict=True):
        what = f"the {notation.card_name(action)}" if is_card(action) else notation.said(action)
        history.append(f"Seat {seat}: {what}")
    view = state.view_for(board.seat)
    trump = view.trump  # named or led: public, once it is set
    unknown = hand_unknown(replayed)
    dealt = board.hands[board.seat]
    return Moment(
        game=notation.preset_name(board.rules.preset),
        sides=sides,
        dealer=board.dealer,
        scores=tuple((side.label, score) for side, score in zip(sides, board.scores, strict=True)),
        seat=board.seat,
        hand=_codes(dealt),
        fill=() if unknown else _codes(view.fill),
        held=() if unknown or view.hand == dealt else _codes(view.hand),
        hand_unknown=unknown,
        others=tuple(
            (seat, _codes(hand))
            for seat, hand in enumerate(board.hands)
            if hand is not None and seat != board.seat
        ),
        history=tuple(history),
        to_act=state.current_player(),
        trump="" if trump is None else notation.suit_name(trump),
    )


def _codes(mask: int | None) -> tuple[str, ...]:
    return () if mask is None else tuple(CARD_CODES[c] for c in cards_of(mask))


def time_taken(who: str, players: int, seconds: float | None) -> str:
    """How long ``who`` has taken lately at a table of ``players``, in words; "" before any
    answer there (the page then claims nothing about time)."""
    if seconds is None:
        return ""
    if seconds < 1:
        how_long = "under a second"
    elif seconds < 1.5:
        how_long = "about a second"
    elif seconds < 90:
        how_long = f"about {round(seconds)} seconds"
    else:
        how_long = f"about {round(seconds / 60)} minutes"
    table = _HOW_MANY.get(players, str(players))
    return f"At {table} players {who} has taken {how_long} here lately."


_HOW_MANY = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def expert_shown(
    replayed: Replayed, row: BoardAnswer | None, *, lately: float | None = None
) -> ExpertShown:
    """``lately``: the seconds answers like this one have taken (``selectors.recent_seconds``),
    said while it waits."""
    if row is None:
        return ExpertShown(status="")
    if row.status != BoardAnswer.Status.DONE:
        took = time_taken("the expert", replayed.board.players, lately)
        return ExpertShown(status=row.status, error=row.error, took=took)
    answer = row.answer
    position = answers.board_position(replayed, answer)
    best = position.best.code
    told = trainer.explanation(position, best)
    rows = trainer.option_rows(position, answer["choice"])
    hand = position.view().hand if position.phase == "discard" else None
    differs = ""
    if answer["choice"] != best and not explain.is_equivalent(position, answer["choice"]):
        differs = trainer.option_label(best, hand)
    return ExpertShown(
        status=row.status,
        choice=trainer.option_label(answer["choice"], hand),
        rows=rows,
        paragraphs=tuple(_for_the_board(p) for p in told.paragraphs),
        details=told.details,
        differs=differs,
        deals=position.deals,
        has_made=any(r.made is not None for r in rows),
        has_points=any(r.ours is not None for r in rows),
    )


def _for_the_board(paragraph: str) -> str:
    """The trainer's words, said of the expert's choice rather than of an answer given."""
    if FOUND_IT not in paragraph:
        return paragraph
    before, _, after = paragraph.partition(FOUND_IT)
    return before + after[:1].upper() + after[1:]


def exact_shown(
    replayed: Replayed, row: BoardAnswer | None, *, lately: float | None = None
) -> ExactShown:
    if row is None:
        return ExactShown(status="")
    if row.status != BoardAnswer.Status.DONE:
        took = time_taken("the solver", replayed.board.players, lately)
        return ExactShown(status=row.status, error=row.error, took=took)
    answer = row.answer
    lines = tuple(
        TableLine(
            lead=item["lead"] if len(item["lead"]) > 1 else notation.suit_name(item["lead"]),
            is_card=len(item["lead"]) > 1,
            points=tuple(item["points"]),
        )
        for item in answer["table"]
    )
    values = answer["cards"]
    top = max(values.values(), default=0)
    to_play = answer["to_play"]
    sides = sides_of(replayed)
    unit_of = replayed.state.setup.unit_of
    per_lead = any(line.is_card for line in lines)
    return ExactShown(
        status=row.status,
        per="opening lead" if per_lead else "trump suit",
        per_trump_suit=not per_lead,
        table=lines,
        table_note=answer["table_note"],
        cards=tuple(CardValue(code, points, top - points) for code, points in values.items()),
        cards_note=answer["cards_note"],
        to_play=to_play,
        to_play_side="" if to_play is None else sides[unit_of[to_play]].label,
    )
