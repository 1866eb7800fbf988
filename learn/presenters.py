"""Presenters: what a trainer page is handed, built from a position's SeatView alone.

A position's page (``PositionPage``) is drawn with the table's page models
(``game.presenters``): the seat's hand, the auction, trump, the tricks so far, the scores.
The stored record holds every seat's cards, and nothing here passes it to a template. The
reveal adds the analysis once the learner has answered; the progress page's rows name a
position by its key alone. Nothing here queries or writes the database.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.card_chooser import CardChooser, card_chooser
from game.engine import notation, rules
from game.engine.cards import game_total
from game.engine.view import SeatView
from game.players import glicko
from game.presenters import pieces as game_pieces
from learn.analysis_board.links import analysis_link
from learn.core import discards as core_discards
from learn.core import explain, explain_family, grades, lines
from learn.core import positions as core_positions
from learn.core import themes as core_themes
from learn.models import Attempt, Learner, PracticePosition

# a deviation above this marks a rating as provisional
PROVISIONAL_DEVIATION = 110.0


@dataclass(frozen=True)
class LearnerShown:
    """What a page says of a learner: the rating line, never the row."""

    rating: float
    deviation: float

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION


def learner_shown(learner: Learner | None) -> LearnerShown:
    """The rating line; someone who has not practised yet is shown the rating they start at."""
    if learner is None:
        return LearnerShown(glicko.DEFAULT_RATING, glicko.DEFAULT_DEVIATION)
    return LearnerShown(learner.rating, learner.deviation)


@dataclass(frozen=True)
class ServeButton:
    """A button that posts for a position to be served: the trainer's pages only read, so
    a new position is asked for by a form (``fields``: its hidden inputs)."""

    url: str
    label: str
    fields: tuple[tuple[str, str], ...] = ()


# --- What the seat sees ------------------------------------------------------------------


@dataclass(frozen=True)
class PositionPage(game_pieces.SeatHand):
    """A position as the learner's seat sees it: the table's page models (game.presenters)
    drawn from the seat's view alone, each seat named from the learner's place."""

    view: SeatView
    phase: str
    dealer: str
    auction: tuple[tuple[str, str], ...]  # (seat name, "bid 3" / "pass")
    bidder_name: str | None
    trump: str | None  # suit letter
    trump_name: str | None
    tricks: tuple[game_pieces.Trick, ...]  # finished tricks, then the current one if begun
    units: tuple[game_pieces.UnitInfo, ...]
    # at a discard: the hand to tap the cards to keep (or to throw) from; any discard the
    # rule allows is an answer, so nothing here hints at the ones the analysis priced
    chooser: CardChooser | None = None
    game: str = ""  # the table's game, in words ("Classic four-point")

    @property
    def bidder_unit(self) -> int | None:
        view = self.view
        return None if view.bidder is None else view.unit_of[view.bidder]

    @property
    def bid_is_ours(self) -> bool:
        return self.bidder_unit == self.view.unit

    @property
    def sides(self) -> tuple[tuple[game_pieces.UnitInfo, int], ...]:
        """(side, the game count of what it has captured so far)."""
        taken = self.view.taken
        return tuple((unit, game_total(taken[unit.index])) for unit in self.units)

    @property
    def trick_in_play(self) -> game_pieces.Trick | None:
        """The trick being played, if it has begun: the decision's own trick."""
        last = self.tricks[-1] if self.tricks else None
        return last if last is not None and last.winner is None else None

    @property
    def cards_shown(self) -> set[str]:
        """Every card code this page may draw: the hand and the cards played."""
        shown = {code for code, _ in self.hand}
        for trick in self.tricks:
            shown.update(play.code for play in trick.plays)
        return shown


def seat_name(view: SeatView, seat: int) -> str:
    """ "You", or where the seat sits from yours ("On your left (partner)"), as the
    explanation's sentences say it."""
    if seat == view.seat:
        return "You"
    place = explain.seat_place(view, seat).capitalize()
    return f"{place} (partner)" if view.unit_of[seat] == view.unit else place


def seat_names(view: SeatView) -> dict[int, str]:
    return {seat: seat_name(view, seat) for seat in range(view.players)}


def option_label(code: str, hand: int | None = None) -> str:
    """An option as a player names it. A discard by the fewer of its two halves: the cards
    kept, when ``hand`` is known and they are fewer (the six-handed dealer keeps 6 of 23),
    else the cards thrown."""
    action = notation.parse_action(code)
    if rules.is_discard(action):
        thrown = rules.discarded(action)
        if hand is not None and (hand & ~thrown).bit_count() < thrown.bit_count():
            return "Keep " + ", ".join(map(describe_card, notation.cards(hand & ~thrown)))
        return "Discard " + ", ".join(map(describe_card, notation.cards(thrown)))
    if not rules.is_card(action):
        return game_pieces.bid_label(code)
    return describe_card(code)


def describe_card(code: str) -> str:
    name = notation.card_name(code)
    return "a joker" if name == "joker" else name


def position_page(*, position: PracticePosition) -> PositionPage:
    """A position drawn from the seat's view: nothing else is passed to the template."""
    return core_position_page(position.core)


def core_position_page(core: core_positions.AnalysedPosition) -> PositionPage:
    """The page of a position not (or not yet) in the bank: a reviewed decision's."""
    view = core.view()
    names = seat_names(view)
    trump, trump_name = game_pieces.trump_words(view)
    return PositionPage(
        view=view,
        phase=core.phase,
        dealer=names[view.dealer],
        auction=game_pieces.auction(view, names),
        bidder_name=None if view.bidder is None else names[view.bidder],
        trump=trump,
        trump_name=trump_name,
        tricks=game_pieces.tricks(view, names),
        units=game_pieces.mark_yours(game_pieces.units(view, names, view.scores), view.seat),
        chooser=discard_chooser(core),
        game=notation.preset_name(view.rules.preset),
    )


def discard_chooser(core: core_positions.AnalysedPosition) -> CardChooser | None:
    """The chooser a discard position is answered with; None at any other decision."""
    view = core.view()
    if core.phase != "discard" or view.discard_rule is None:
        return None
    return card_chooser(view.discard_rule, view.hand)


# --- The reveal ------------------------------------------------------------------------------


@dataclass(frozen=True)
class OptionRow:
    """An option's row, on the reveal and on the review of a round alike: its chance of
    making the bid and its points as bars, its verdict on the one scale
    (``grades.verdict``), and its match value rounded once (``grades.points``)."""

    code: str
    label: str
    is_card: bool
    value: float
    value_se: float
    ours: float | None
    theirs: float | None
    made: float | None  # percent
    bar: int  # 4..100, the match value's bar width in percent, the best at 100
    is_best: bool
    is_chosen: bool
    cost: float  # expected match value lost against the best option
    tied: bool = False  # one of several options showing the best value: "level", not "best"
    verdict: grades.Verdict | None = None  # this option judged against the best

    @property
    def value_text(self) -> str:
        return grades.points(self.value, signed=True).replace("-", "\u2212")

    @property
    def cost_text(self) -> str:
        return grades.points(self.cost)

    @property
    def error_text(self) -> str:
        """The standard error of this option's margin behind the best ("" for the best)."""
        if self.verdict is None or self.verdict.best:
            return ""
        return grades.points(self.verdict.error)

    @property
    def tag(self) -> str:
        """ "best" for the one best option, "level" for each of several that tie."""
        return "level" if self.tied else "best" if self.is_best else ""

    @property
    def grade_label(self) -> str:
        """The verdict's word, as the review's heading would say it."""
        return "" if self.verdict is None else self.verdict.label

    @property
    def grade_kind(self) -> str:
        return "" if self.verdict is None else self.verdict.kind

    @property
    def made_words(self) -> str:
        """ "8 times in 10": the chance of making the bid, as the explanation says it."""
        return "" if self.made is None else grades.odds(self.made / 100)

    @property
    def made_bar(self) -> int:
        """The chance of making the bid in whole percent, a <meter>'s value."""
        return 0 if self.made is None else round(self.made)

    @property
    def points_total(self) -> float:
        """The round's points both ways: the points bar's scale."""
        return max((self.ours or 0.0) + (self.theirs or 0.0), 0.1)

    @property
    def ours_share(self) -> int:
        """Your side's share of the round's points in whole percent, a <meter>'s value."""
        return 0 if self.ours is None else round(100 * self.ours / self.points_total)

    @property
    def ours_text(self) -> str:
        return "" if self.ours is None else grades.round_points(self.ours)

    @property
    def theirs_text(self) -> str:
        return "" if self.theirs is None else grades.round_points(self.theirs)


@dataclass(frozen=True)
class ScaleRow:
    """One row of the legend, drawn from ``grades.SCALE``: the one table of thresholds."""

    grade: str
    label: str
    range_text: str  # "from 1.00 to 2.00"
    meaning: str


def scale_legend() -> tuple[ScaleRow, ...]:
    """The scale of mistakes as the legend shows it, from ``grades.SCALE`` row by row."""
    steps = grades.SCALE
    rows = []
    for step, above in zip(steps, [*steps[1:], None], strict=True):
        if above is None:
            span = f"{grades.points(step.start)} or more"
        elif step.start == 0:
            span = f"under {grades.points(above.start)}"
        else:
            span = f"{grades.points(step.start)} to {grades.points(above.start)}"
        rows.append(ScaleRow(step.grade, step.label, span, step.meaning))
    return tuple(rows)


# the noise rule, said once for every legend
SCALE_RULE = (
    f"A choice is marked only when its cost is more than {grades.Z:g} standard errors of the "
    f"gap (so beyond what chance could make) and at least {grades.MIN_DEALS} sampled deals "
    "stand behind it; a cost within the noise is too close to call, and a thinner analysis "
    "is not graded."
)


@dataclass(frozen=True)
class Explained:
    """The trainer's explanation of a choice, as a page shows it: for a player first,
    the analyst's figures behind a "details" control."""

    paragraphs: tuple[str, ...]
    details: tuple[str, ...]


@dataclass(frozen=True)
class DealShown:
    hands: tuple[tuple[str, tuple[str, ...]], ...]  # (seat name, cards)
    auction: tuple[tuple[str, str], ...]  # the rest of the auction in the line
    tricks: tuple[game_pieces.Trick, ...]


@dataclass(frozen=True)
class Reveal:
    correct: bool
    chosen: OptionRow
    best: OptionRow
    rows: tuple[OptionRow, ...]
    explanation: tuple[str, ...]  # for a player: the deciding fact, the verdict, the cards
    details: tuple[str, ...]  # match value, errors and deal counts, behind <details>
    themes: tuple[str, ...]  # labels
    rated: bool
    rating_before: float
    rating_after: float
    rating_change: float
    deals: int
    deal: DealShown | None
    has_points: bool
    has_made: bool
    # a discard the analysis had not priced, priced when answered (learn.core.discards)
    unpriced: UnpricedShown | None = None
    legend: tuple[ScaleRow, ...] = ()
    board: str = ""  # the position on the analysis board, as the seat saw it (its notation)

    @property
    def change_text(self) -> str:
        return f"{self.rating_change:+.0f}".replace("-", "\u2212")

    @property
    def scale_rule(self) -> str:
        return SCALE_RULE


def _bars(values: list[float]) -> list[int]:
    low, high = min(values), max(values)
    if high - low < 1e-9:
        return [100 for _ in values]
    return [round(4 + 96 * (v - low) / (high - low)) for v in values]


def option_rows(core: core_positions.AnalysedPosition, chosen: str) -> tuple[OptionRow, ...]:
    """Every option of ``core`` as a row, against the best and with ``chosen`` marked."""
    options = list(core.options)
    bars = _bars([o.value for o in options])
    best = core.best
    tied = len(explain.level_with_best(core)) > 1
    hand = core.view().hand if core.phase == "discard" else None
    return tuple(
        OptionRow(
            code=o.code,
            label=option_label(o.code, hand),
            is_card=rules.is_card(notation.parse_action(o.code)),
            value=o.value,
            value_se=o.value_se,
            ours=None if o.points is None else o.points[0],
            theirs=None if o.points is None else o.points[1],
            made=None if o.made is None else 100.0 * o.made,
            bar=bar,
            is_best=o.code == best.code,
            is_chosen=o.code == chosen,
            cost=max(0.0, best.value - o.value),
            tied=tied and grades.level(o.value, best.value),
            verdict=grades.verdict(best, o, core.deals),
        )
        for o, bar in zip(options, bars, strict=True)
    )


def reveal_for(*, attempt: Attempt) -> Reveal:
    """What the learner sees after answering: the why, then every option compared."""
    core = attempt.position.core
    rows = option_rows(core, attempt.answer)
    unpriced = unpriced_shown(core, attempt.answer, priced=attempt.priced)
    chosen = unpriced.row if unpriced else next(row for row in rows if row.is_chosen)
    try:
        # a discard priced as it was answered is explained among the priced ones
        told = explanation(
            core_discards.with_answer(core, unpriced.afresh) if unpriced else core,
            attempt.answer,
        )
    except core_positions.PositionError:
        told = Explained((), ())
    before = attempt.rating_before if attempt.rating_before is not None else 0.0
    after = attempt.rating_after if attempt.rating_after is not None else before
    return Reveal(
        correct=bool(attempt.correct),
        chosen=chosen,
        best=next(row for row in rows if row.is_best),
        rows=rows,
        explanation=told.paragraphs,
        details=told.details,
        themes=tuple(core_themes.THEMES.get(slug, slug) for slug in core.themes),
        rated=attempt.rated,
        rating_before=before,
        rating_after=after,
        rating_change=after - before,
        deals=core.deals,
        deal=deal_shown(core),
        has_points=any(row.ours is not None for row in rows),
        has_made=any(row.made is not None for row in rows),
        unpriced=unpriced,
        legend=scale_legend(),
        board=analysis_link(core),
    )


@dataclass(frozen=True)
class UnpricedShown:
    """A discard the analysis had not priced, priced when it was answered against the
    expert's on the same deals (``learn.core.discards``): the reveal's line on it."""

    afresh: core_discards.Afresh
    priced: int  # how many discards the analysis priced
    kept: tuple[str, ...]  # the cards the answer keeps
    best_kept: tuple[str, ...]  # the cards the expert's discard keeps
    row: OptionRow  # the answer as the reveal's chosen option

    @property
    def verdict(self) -> str:
        """How the answer compares with the expert's discard over those deals."""
        found = self.afresh
        judged = found.verdict
        cost = grades.points(abs(found.cost))
        if judged.tie:
            return "level with it"
        if found.cost < 0:
            return f"{cost} match points better"
        if judged.noise:
            return f"{cost} match points less, too close to call"
        if judged.thin:
            return f"{cost} match points less"
        return f"{cost} match points less: {grades.STEPS[judged.step.grade].said}"


def unpriced_shown(
    core: core_positions.AnalysedPosition, answer: str, *, priced: dict | None = None
) -> UnpricedShown | None:
    """The reveal's line on ``answer`` when it is a discard the analysis had not priced:
    by the figures it was graded on (``priced``, kept with the answer), else priced."""
    if priced is not None:
        found = core_discards.Afresh(**priced)
    else:
        found = core_discards.afresh(core, answer)
    if found is None:
        return None
    hand = core.view().hand
    thrown = rules.discarded(notation.parse_action(answer))
    best = core.best
    row = OptionRow(
        code=answer,
        label=option_label(answer, hand),
        is_card=False,
        value=round(best.value - found.cost, 3),
        value_se=found.error,
        ours=None,
        theirs=None,
        made=None,
        bar=4,
        is_best=False,
        is_chosen=True,
        cost=max(0.0, found.cost),
        verdict=found.verdict,
    )
    return UnpricedShown(
        afresh=found,
        priced=len(core.options),
        kept=notation.cards(hand & ~thrown),
        best_kept=notation.cards(hand & ~rules.discarded(notation.parse_action(best.code))),
        row=row,
    )


def explanation(core: core_positions.AnalysedPosition, chosen: str) -> Explained:
    """The trainer's explanation of ``chosen``, in the words of the position's game: the
    full-deck tables' analysis keeps no points or line, and has words of its own
    (``explain_family``)."""
    explained = explain.explained if core.rules.is_house else explain_family.explained
    told = explained(core, chosen)
    return Explained(told.paragraphs, told.details)


def deal_shown(core: core_positions.AnalysedPosition) -> DealShown | None:
    """One sampled deal consistent with the seat's view, and the best line played in it,
    trick by trick as the engine plays it out (``lines.walk_through``)."""
    walk = lines.walk_through(core, lines.shown_line(core)) if core.line_hands else None
    if walk is None:
        return None
    names = seat_names(core.view())
    hands = tuple((names[seat], tuple(codes)) for seat, codes in enumerate(core.line_hands))
    auction = tuple((names[seat], notation.said(action)) for seat, action in walk.calls)
    tricks = tuple(
        game_pieces.Trick(
            trick.number,
            game_pieces.plays(trick.plays, names),
            None if trick.winner is None else names[trick.winner],
        )
        for trick in walk.tricks
    )
    return DealShown(hands=hands, auction=auction, tricks=tricks)


# --- Progress ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThemeStats:
    slug: str
    label: str
    tried: int
    right: int

    @property
    def percent(self) -> int:
        return round(100 * self.right / self.tried) if self.tried else 0


@dataclass(frozen=True)
class PositionShown:
    """What a page says of a position: never its record, which holds every hand."""

    key: str
    phase: str
    players: int


@dataclass(frozen=True)
class AttemptShown:
    """What a page says of an attempt: its position by key only."""

    token: str
    mode: str
    rated: bool
    correct: bool | None
    rating_before: float | None
    rating_after: float | None
    rating_change: float | None
    position_rating_after: float | None
    position: PositionShown
    unrated_because: str = ""  # why it does not count toward a rating, in words


@dataclass(frozen=True)
class MissedShown:
    misses: int
    position: PositionShown


def position_shown(position: PracticePosition) -> PositionShown:
    return PositionShown(key=position.key, phase=position.phase, players=position.players)


def attempt_shown(attempt: Attempt) -> AttemptShown:
    return AttemptShown(
        token=attempt.token,
        mode=attempt.mode,
        rated=attempt.rated,
        correct=attempt.correct,
        rating_before=attempt.rating_before,
        rating_after=attempt.rating_after,
        rating_change=attempt.rating_change,
        position_rating_after=attempt.position_rating_after,
        position=position_shown(attempt.position),
        unrated_because=_unrated_because(attempt),
    )


def _unrated_because(attempt: Attempt) -> str:
    if attempt.rated:
        return ""
    if attempt.unrated_reason:
        return Attempt.Unrated(attempt.unrated_reason).label
    # an attempt served before the reasons were kept (December 2026)
    return "a practice position, or one you had met before"


@dataclass(frozen=True)
class Progress:
    rating: float
    deviation: float
    provisional: bool
    answered: int
    right: int
    history: tuple[float, ...]  # the rating after each rated answer, oldest first
    chart_points: str  # an SVG polyline of the history
    themes: tuple[ThemeStats, ...]
    due: tuple[MissedShown, ...]
    waiting: int  # missed positions not yet due
    recent: tuple[AttemptShown, ...]

    @property
    def percent(self) -> int:
        return round(100 * self.right / self.answered) if self.answered else 0


CHART_WIDTH, CHART_HEIGHT = 300, 80


def chart_points(history: list[float]) -> str:
    """The rating history as an SVG polyline's points."""
    if len(history) < 2:
        return ""
    low, high = min(history), max(history)
    span = max(high - low, 1.0)
    step = CHART_WIDTH / (len(history) - 1)
    return " ".join(
        f"{i * step:.1f},{CHART_HEIGHT - 4 - (value - low) / span * (CHART_HEIGHT - 8):.1f}"
        for i, value in enumerate(history)
    )
