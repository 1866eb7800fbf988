"""Every sentence of every explanation in the starter bank agrees with its position.

Each explanation is cut into sentences, and each one that states a fact about the
position (a count, a card held, who is winning, a chance) is checked against the seat's
view and the option's numbers. The bank's auction positions are checked twice: as
stored, and with the auction outcomes the expert's search of the rest of the auction
adds (made up here, until the bank is regenerated with them).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from game.engine.cards import (
    JOKER_1,
    JOKERS,
    SUIT_MASK,
    SUIT_OF,
    card_code,
    game_total,
    jack_of,
    parse_card,
)
from game.engine.rules import (
    MAX_BID,
    is_bid,
    point_roles,
    trick_winner,
    trick_winner_full,
    trumps_of,
)
from game.engine.view import SeatView
from learn.core.explain import explain, is_equivalent
from learn.core.explain_family import explain as explain_family
from learn.core.explain_family import trump_card
from learn.core.positions import AnalysedPosition, Option
from tests.learn.fixtures.factories import (
    STARTER_BANK,
    sample_positions,
    starter_positions,
    with_outcomes,
)

SENTENCE = re.compile(r"(?<=\.)\s+")


@dataclass(frozen=True)
class Case:
    position: AnalysedPosition
    view: SeatView
    chosen: Option

    @property
    def trump(self) -> int | None:
        """Trump, or the suit the best opening lead makes trump."""
        if self.view.trump is not None or self.position.phase == "auction":
            return self.view.trump
        return SUIT_OF[parse_card(self.position.best.code)]


Check = Callable[[re.Match, Case], str | None]
CHECKS: list[tuple[re.Pattern, Check]] = []


def check(pattern: str):
    def register(function: Check) -> Check:
        CHECKS.append((re.compile(pattern), function))
        return function

    return register


def _unseen_trumps(case: Case) -> int:
    return case.view.unseen & SUIT_MASK[case.trump]


# --- Counts that justify a conclusion ----------------------------------------------------


@check(r"(\d+) higher trumps? you have not seen could take it")
def higher_trumps_over_the_jack(m, case):
    jack = jack_of(case.trump)
    higher = (_unseen_trumps(case) & ~((2 << jack) - 1)).bit_count()
    if int(m[1]) != higher:
        return f"says {m[1]} higher trumps are out, the view has {higher}"
    if higher == 0:
        return "no higher trump is out, yet it could take the jack"
    return None


@check(r"no trump you have not seen is higher")
def no_higher_trump(m, case):
    jack = jack_of(case.trump)
    if not case.view.hand >> jack & 1 or _unseen_trumps(case) & ~((2 << jack) - 1):
        return "a higher trump is out, or the jack is not held"
    return None


@check(r"(the [\w ]+?) in this trick would take it")
def taken_in_the_trick(m, case):
    jack = jack_of(case.trump)
    higher = [
        card
        for _, card in case.view.current_trick
        if card < JOKER_1 and SUIT_OF[card] == case.trump and card > jack
    ]
    if m[1] not in {_name(card) for card in higher}:
        return f"{m[1]} is not a higher trump in this trick"
    return None


@check(r"(\d+) trump cards? you have not seen may still be out")
def trumps_still_out(m, case):
    out = _unseen_trumps(case).bit_count()
    if int(m[1]) != out or out == 0:
        return f"says {m[1]} trumps may be out, the view has {out}"
    return None


@check(r"a suit in which you hold (\d+) cards? \(([^)]*)\)")
def trumps_held(m, case):
    held = (case.view.hand & SUIT_MASK[case.trump]).bit_count()
    if int(m[1]) != held or len(m[2].split(", ")) != held:
        return f"says {m[1]} cards ({m[2]}) are held in trump, the hand has {held}"
    return None


@check(r"With (\d+) tricks? left and only (\d+) cards in the other hands")
def tricks_left(m, case):
    left = 6 - len(case.view.trick_winners)
    cards = case.view.unseen.bit_count() - case.view.hidden_count
    if (int(m[1]), int(m[2])) != (left, cards):
        return f"says {m[1]} tricks and {m[2]} cards, the view has {left} and {cards}"
    return None


@check(r"so far your side has (\d+) and the best of the others (\d+)")
def game_so_far(m, case):
    taken = [game_total(cards) for cards in case.view.taken]
    ours = taken[case.view.unit]
    theirs = max(t for u, t in enumerate(taken) if u != case.view.unit)
    if (int(m[1]), int(m[2])) != (ours, theirs):
        return f"says game stands {m[1]} to {m[2]}, it is {ours} to {theirs}"
    return None


@check(r"\b0 [\w' ]+? (could|may|might|can|will)\b")
def zero_that_could(m, case):
    return "a count of zero with a conclusion that needs more"


@check(r"\b(\d+) (higher trumps?|trump cards?|tricks?|cards?|deals?)\b")
def plural_agrees(m, case):
    plural = m[2].endswith("s")
    if plural == (int(m[1]) == 1):
        return f"{m[0]!r}: the plural does not agree with the count"
    return None


# --- Cards and seats the clause names ----------------------------------------------------


@check(r"A joker scores a point")
def joker_hint(m, case):
    trick = [card for _, card in case.view.current_trick]
    if case.view.hand & JOKERS or any(card >= JOKER_1 for card in trick):
        return None
    return "a joker hint with no joker in hand or in the trick"


@check(r"is (certainly|very likely) the low")
def low_card(m, case):
    card = parse_card(case.position.best.code)
    if card >= JOKER_1 or SUIT_OF[card] != case.trump:
        return "the low named is not a trump"
    below = case.view.deck & SUIT_MASK[case.trump] & ((1 << card) - 1)
    if (m.group(1) == "certainly") != (below == 0):
        return "certain is said of a low that is not certain, or the reverse"
    return None


@check(r"(\S[^,;:]*) is winning this trick")
def partner_winning(m, case):
    trick = case.view.current_trick
    if not trick:
        return "someone is winning a trick nobody has played to"
    winner = trick[trick_winner([card for _, card in trick], case.view.trump)][0]
    if winner == case.view.seat or case.view.unit_of[winner] != case.view.unit:
        return "the trick is not being won by a partner"
    return None


@check(r"\b[Pp]artner\b")
def has_partner(m, case):
    if len(case.view.teams[case.view.unit]) < 2:
        return "a partner mentioned at a cutthroat table"
    return None


@check(r"Your partner already holds the bid at (\d)")
def partner_holds_bid(m, case):
    bids = [(seat, action) for seat, action in case.view.auction if is_bid(action)]
    if not bids or case.view.unit_of[bids[-1][0]] != case.view.unit:
        return "the high bid is not the partner's"
    if int(m[1]) != case.view.high_bid:
        return f"says the bid is {m[1]}, it is {case.view.high_bid}"
    return None


@check(r"The high bid is (\d): outbidding it means making at least (\d)")
def high_bid(m, case):
    if int(m[1]) != case.view.high_bid or int(m[2]) != int(m[1]) + 1 or int(m[2]) > MAX_BID:
        return f"high bid {m[1]}, outbid at {m[2]}: the auction says {case.view.high_bid}"
    return None


@check(r"Nobody has bid yet")
def nobody_bid(m, case):
    if any(is_bid(action) for _, action in case.view.auction):
        return "somebody has bid"
    return None


@check(r"Your opening lead sets trump")
def opening_lead(m, case):
    if case.position.phase != "lead" or case.view.trump is not None:
        return "trump is not set by this lead"
    return None


@check(r"You are defending: your side gains when the bidder falls short of (\d)")
def defending(m, case):
    if case.view.bidder is None or case.view.unit_of[case.view.bidder] == case.view.unit:
        return "the learner's side holds the bid"
    best, second = case.position.options[0].made, case.position.options[1].made
    if int(m[1]) != case.view.bid or best is None or second is None or best >= second:
        return "the best play does not make the bidder's miss likelier"
    return None


@check(r"(?:^|[,;:] )(?:then )?you play (the [\w ]+?)(?=[,;.]| …)")
def own_card_in_the_story(m, case):
    if case.position.phase == "auction":
        return None
    names = {_name(card) for card in _cards(case.view.hand)}
    if m[1] not in names:
        return f"the learner plays {m[1]}, which is not in the hand"
    return None


@check(r"could take it \(([^)]*)\)")
def higher_trumps_named(m, case):
    jack = jack_of(case.trump)
    higher = _unseen_trumps(case) & ~((2 << jack) - 1)
    named = set(re.split(r", | and ", m[1]))
    if named != {_name(card) for card in _cards(higher)}:
        return f"names {m[1]}, the higher trumps unseen are {_cards(higher)}"
    return None


# --- Chances in words ------------------------------------------------------------------------

ODDS = r"(every time|more than 9 times in 10|less than 1 time in 10|\d+ times? in 10)"


def _odds_disagree(said: str, share: float | None) -> str | None:
    """Why "8 times in 10" (or "every time", ...) misstates ``share``, worked out here
    rather than by the explanation's own wording."""
    if share is None:
        return f"{said!r} of a chance the analysis does not have"
    if said == "every time":
        fits = share >= 0.995
    elif said == "0 times in 10":
        fits = share <= 0.005
    elif said == "more than 9 times in 10":
        fits = 0.9 < share < 0.995
    elif said == "less than 1 time in 10":
        fits = 0.005 < share < 0.1
    else:
        tenths = int(said.split()[0])
        fits = 1 <= tenths <= 9 and abs(share * 10 - tenths) <= 0.5 + 1e-9
    return None if fits else f"{said!r} for a chance of {share:.3f}"


def _option_named(case: Case, name: str) -> Option | None:
    """The option an explanation names by its card ("the ace of clubs") or call."""
    for option in case.position.options:
        if option.code == "pass" and name == "passing":
            return option
        if option.code.startswith("bid:") and name == f"bidding {option.code[4:]}":
            return option
        if ":" not in option.code and option.code != "pass":
            if _name(parse_card(option.code)) == name:
                return option
    return None


def _against(case: Case) -> Option:
    """The option the explanation sets against the best: the choice, or the next best."""
    position = case.position
    return case.chosen if case.chosen.code != position.best.code else position.options[1]


@check(
    rf"(Your|Your partner's|The bidder's) bid of (\d) is made {ODDS} with (.+?)"
    rf"(?:, {ODDS} with (.+?)| or (.+?) alike)\."
)
def bid_made_compared(m, case):
    view = case.view
    whose = {"Your": "self", "Your partner's": "partner", "The bidder's": "other"}[m[1]]
    bidder = view.bidder
    actual = (
        "self"
        if bidder == view.seat
        else "partner"
        if bidder is not None and view.unit_of[bidder] == view.unit
        else "other"
    )
    if whose != actual or int(m[2]) != view.bid:
        return f"{m[1]} bid of {m[2]}: the bid is {view.bid}, by {actual}"
    first, second = _option_named(case, m[4]), _option_named(case, m[6] or m[7])
    if first is not case.position.best or second is not _against(case):
        return f"compares {m[4]} and {m[6] or m[7]}, not the best and the choice"
    said_second = m[3] if m[7] else m[5]
    return _odds_disagree(m[3], first.made) or _odds_disagree(said_second, second.made)


@check(
    r"(You take|Your side takes) about (\d+\.\d) of the round's points to the others' "
    r"(\d+\.\d) with (.+?); (\d+\.\d) to (\d+\.\d) with (.+?)\."
)
def points_compared(m, case):
    alone = len(case.view.teams[case.view.unit]) == 1
    if (m[1] == "You take") != alone:
        return f"{m[1]!r} at a table where the learner is {'alone' if alone else 'partnered'}"
    first, second = _option_named(case, m[4]), _option_named(case, m[7])
    if first is not case.position.best or second is not _against(case):
        return f"compares {m[4]} and {m[7]}, not the best and the choice"
    said = ((float(m[2]), float(m[3])), (float(m[5]), float(m[6])))
    for (ours, theirs), option in zip(said, (first, second), strict=True):
        if (ours, theirs) != (round(option.points[0], 1), round(option.points[1], 1)):
            return f"says {ours}-{theirs} for {option.code}, the analysis has {option.points}"
    return None


@check(rf"Bidding (\d) (is made|fails) {ODDS}(?:, taking about (\d+\.\d) of the round's points)?\.")
def bid_chances(m, case):
    option = _option_named(case, f"bidding {m[1]}")
    if option is None or option.made is None:
        return f"bidding {m[1]} is no priced call here"
    if (m[2] == "fails") != (option.made < 0.5):
        return f"{m[2]!r} of a bid made with chance {option.made}"
    share = option.made if m[2] == "is made" else 1 - option.made
    if m[4] is not None and float(m[4]) != round(option.points[0], 1):
        return f"takes {m[4]} points, the analysis has {option.points[0]}"
    return _odds_disagree(m[3], share)


@check(r"A miss costs all (\d)\.")
def a_miss_costs(m, case):
    option = _option_named(case, f"bidding {m[1]}")
    if case.position.best.code != "pass" or option is None or option.made >= 0.5:
        return "a miss told of a bid that is not the seldom-made rival of a pass"
    return None


# --- The verdict: the one scale, worked out here from the numbers ---------------------------


def _gap_and_error(case: Case) -> tuple[float, float]:
    best, chosen = case.position.best, case.chosen
    error = chosen.margin_error(best)
    return best.value - chosen.value, error


def _shown_equal(a: float, b: float) -> bool:
    return abs(round(a, 2) - round(b, 2)) < 1e-9


@check(r"You found it")
def found(m, case):
    if case.chosen.code != case.position.best.code:
        return "praises a choice that is not the best"
    return None


@check(r"is level with (?!the best)")
def level_with(m, case):
    if not _shown_equal(case.position.best.value, case.chosen.value):
        return "calls level a choice whose value shows apart from the best's"
    return None


@check(r"is as good as the best")
def as_good(m, case):
    gap, error = _gap_and_error(case)
    if gap > max(0.05, 2 * error) or not is_equivalent(case.position, case.chosen.code):
        return f"calls a choice {gap:.2f} behind (error {error:.2f}) as good as the best"
    return None


@check(r"is (an inaccuracy|a mistake|a blunder): ")
def marked(m, case):
    gap, error = _gap_and_error(case)
    start = {"an inaccuracy": 0.3, "a mistake": 1.0, "a blunder": 2.0}[m[1]]
    end = {"an inaccuracy": 1.0, "a mistake": 2.0, "a blunder": float("inf")}[m[1]]
    if not start <= gap < end:
        return f"calls a cost of {gap:.2f} {m[1]}"
    if gap <= max(0.05, 2 * error) or case.position.deals < 60:
        return f"marks a cost within the noise ({gap:.2f}, error {error:.2f}) or a thin analysis"
    return None


@check(r"is close to the best")
def close(m, case):
    gap, error = _gap_and_error(case)
    if not max(0.05, 2 * error) < gap < 0.3 or case.position.deals < 60:
        return f"calls a cost of {gap:.2f} (error {error:.2f}) close"
    return None


@check(r"too few deals were sampled to grade it")
def too_few(m, case):
    gap, error = _gap_and_error(case)
    if case.position.deals >= 60 or gap <= max(0.05, 2 * error):
        return "says too few deals, or leaves ungraded a cost within the noise"
    return None


@check(r"(-?\d+(?:\.\d+)?)%")
def percent_in_range(m, case):
    if not 0 <= float(m[1]) <= 100:
        return f"{m[0]} is not a share"
    return None


@check(r"-0\.00")
def no_negative_zero(m, case):
    return "a value that rounds to nothing shows a sign"


# --- The details: the analyst's figures ------------------------------------------------------


@check(r"Over (\d+) (?:sampled )?deals")
def deals(m, case):
    if int(m[1]) != case.position.deals:
        return f"says {m[1]} deals, the analysis has {case.position.deals}"
    return None


@check(r"over (\d+) sampled deals")
def deals_lower(m, case):
    return deals(m, case)


@check(r"costs about (\d+\.\d+) match points")
def costs(m, case):
    gap = case.position.best.value - case.chosen.value
    if (
        float(m[1]) <= 0
        or abs(float(m[1]) - gap) > 0.006
        or is_equivalent(case.position, case.chosen.code)
    ):
        return f"costs {m[1]}, the gap is {gap:.2f}"
    return None


@check(r"The best leads the next by (\d+\.\d+) match points")
def best_leads(m, case):
    if case.chosen.code != case.position.best.code:
        return "the best's lead told to a choice that is not the best"
    if abs(float(m[1]) - case.position.margin) > 0.006:
        return f"leads by {m[1]}, the margin is {case.position.margin:.3f}"
    return None


@check(r"deals sampled from what you can see[^,]*, (.+?) is worth ([+-]?\d+\.\d\d) in match value")
def best_worth(m, case):
    if _option_named(case, m[1].removeprefix("leading ").removeprefix("playing ")) is None and (
        _option_named(case, m[1]) is None
    ):
        return None  # a card lead named with its trump: checked by its value alone
    if abs(float(m[2]) - case.position.best.value) > 0.006:
        return f"the best is worth {m[2]}, the analysis has {case.position.best.value}"
    return None


# --- The auction's outcome ------------------------------------------------------------------


def _seats_after(case: Case) -> int:
    return case.view.players - len(case.view.auction) - 1


def _call_clause(clause: str, said: str, found, case: Case) -> str | None:
    """Why one clause of "If you bid 2, ...; ...; ..." disagrees with the call's outcome."""
    alone = len(case.view.teams[case.view.unit]) == 1
    you = r"(?:you win|your side wins)"
    if m := re.fullmatch(rf"a player after you outbids you {ODDS}", clause):
        if said == "pass" or not _seats_after(case):
            return "an outbid told of a pass, or of the last to bid"
        return _odds_disagree(m[1], found.outbid)
    elif clause == "nobody after you outbids you in any of the deals":
        if said == "pass" or not _seats_after(case) or found.outbid:
            return "nobody outbids, yet the outcome says otherwise"
    elif clause == "you are the last to bid, so nobody can outbid you":
        if _seats_after(case):
            return "seats are still to bid after the learner"
    elif m := re.fullmatch(
        rf"when {you} the auction, (?:you make your|your side makes its) bid {ODDS}", clause
    ):
        return _odds_disagree(m[1], found.made)
    elif m := re.fullmatch(
        r"(?:when another (player|side) wins it, that \1|the (player|side) that wins the "
        rf"auction) makes (?:its|their) bid {ODDS}"
        r"(?:, taking about (\d+\.\d) points)?",
        clause,
    ):
        side = m[1] or m[2]
        if (side == "player") != alone:
            return f"a {side} at a table where the learner is {'alone' if alone else 'partnered'}"
        if m[1] is not None and said == "pass" and found.lead == 0:
            return "'another' side wins after a pass, when the learner's side never does"
        if m[4] is not None and float(m[4]) != round(found.others_points, 1):
            return f"others take {m[4]} points: the outcome has {found.others_points}"
        return _odds_disagree(m[3], found.others_made)
    elif m := re.fullmatch(rf"{you} the auction {ODDS}(?: \(your partner bids\))?", clause):
        if said != "pass":
            return "a side that wins the auction by a pass, told of a bid"
        return _odds_disagree(m[1], found.lead)
    else:
        return "a clause no check knows"
    return None


@check(r"If you (pass|bid (\d)), (.*?)\.(?=\s|$)")
def call_outcome(m, case):
    code = "pass" if m[1] == "pass" else f"bid:{m[2]}"
    if code not in case.position.legal_codes():
        return f"an outcome told for {code}, which is not a legal call"
    found = case.position.option(code).auction
    if found is None:
        return f"an outcome told for {code}, which has none"
    problems = [_call_clause(clause, m[1], found, case) for clause in m[3].split("; ")]
    return "; ".join(p for p in problems if p) or None


# --- Running the checks ----------------------------------------------------------------------


def _cards(mask: int) -> list[int]:
    return [card for card in range(54) if mask >> card & 1]


RANK_WORDS = {"10": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def _name(card: int) -> str:
    """A card as the explanations name it, spelled here from its code and not by the
    explanation's own naming, which a check that used it would agree with, mistakes and all."""
    if card >= JOKER_1:
        return "the joker" if card == JOKER_1 else "the second joker"
    code = card_code(card)
    return f"the {RANK_WORDS.get(code[:-1], code[:-1])} of {SUIT_WORDS[code[-1]]}"


def sentences(paragraphs: list[str]) -> Iterator[str]:
    for paragraph in paragraphs:
        yield from SENTENCE.split(paragraph)


def problems(position: AnalysedPosition) -> list[str]:
    view = position.view()
    found = []
    for option in position.options:
        case = Case(position, view, option)
        paragraphs = explain(position, option.code)
        text = " ".join(paragraphs)
        if re.search(r"\bNone\b|\bnan\b|\binf\b", text):
            found.append(f"{position.key} {option.code}: a missing number shows: {text}")
        for sentence in sentences(paragraphs):
            for pattern, rule in CHECKS:
                for m in pattern.finditer(sentence):
                    why = rule(m, case)
                    if why:
                        found.append(f"{position.key} {option.code}: {why}: {sentence!r}")
    return found


@pytest.fixture(scope="module")
def bank() -> list[AnalysedPosition]:
    return starter_positions()


def test_every_explanation_in_the_starter_bank_agrees_with_its_position(bank):
    found = [problem for position in bank for problem in problems(position)]
    assert not found, f"{len(found)} clauses disagree, e.g.:\n" + "\n".join(found[:15])


def test_every_explanation_in_the_tests_sample_bank_agrees_with_its_position():
    """The sample bank keeps older lines: auctions priced without the rest of the auction
    searched, told by each bid's chance of being made."""
    found = [problem for position in sample_positions() for problem in problems(position)]
    assert not found, f"{len(found)} clauses disagree, e.g.:\n" + "\n".join(found[:15])


def test_every_auction_explanation_with_searched_outcomes_agrees_with_its_position(bank):
    auctions = [with_outcomes(p) for p in bank if p.phase == "auction"]
    found = [problem for position in auctions for problem in problems(position)]
    assert not found, f"{len(found)} clauses disagree, e.g.:\n" + "\n".join(found[:15])


# they check what the bank happens not to say: the last two, what an auction analysis
# without searched outcomes (an older bank line) says
GUARDS = {
    "zero_that_could",
    "as_good",
    "deals_lower",
    "percent_in_range",
    "no_negative_zero",
    "close",
    "too_few",
    "level_with",
}


def test_every_check_meets_its_sentence_somewhere_in_the_bank(bank):
    """A check whose pattern matches nothing checks nothing: the wording moved on."""
    positions = [
        *bank,
        *(with_outcomes(p) for p in bank if p.phase == "auction"),
        *sample_positions(),
    ]
    said = [
        sentence
        for position in positions
        for option in position.options
        for sentence in sentences(explain(position, option.code))
    ]
    idle = [
        rule.__name__
        for pattern, rule in CHECKS
        if rule.__name__ not in GUARDS and not any(pattern.search(s) for s in said)
    ]
    assert not idle


def test_the_checks_catch_a_contradiction():
    """A check that never fires proves nothing: feed each kind a sentence it must refuse."""
    position = next(
        p for p in starter_positions() if p.phase == "follow" and not p.view().hand & JOKERS
    )
    case = Case(position, position.view(), position.best)
    assert not position.view().hand & JOKERS and not position.options[0].auction
    bad = [
        "0 higher trumps you have not seen could take it, so the best play keeps it back.",
        "1 trump cards you have not seen may still be out",
        "the chance of making your bid goes from 40% to 140%.",
        "If you bid 2, a player after you outbids you in 64% of the deals.",
        "If you bid 2, a player after you outbids you 12 times in 10.",
        "You take about 9.9 of the round's points to the others' 0.0 with the ace of spades; "
        "0.0 to 9.9 with the king of spades.",
        "Worth -0.00 in match value.",
        "Playing it is a blunder: the best is better.",  # said of the best itself
        "It is close to the best: a little behind it.",
        "Bidding 3 fails 6 times in 10.",  # no bid at a follow
    ]
    if not any(card >= JOKER_1 for _, card in position.view().current_trick):
        bad.append("A joker scores a point for whoever captures it.")
    for sentence in bad:
        fired = [
            rule(m, case)
            for pattern, rule in CHECKS
            for m in pattern.finditer(sentence)
            if rule(m, case)
        ]
        assert fired, sentence


# --- The full-deck tables: the same verdict, and what captures a card ------------------------

FAMILY_BANK = STARTER_BANK.parent / "starter_family_positions.jsonl"
# the checks that read only the options and the deals, whatever the table
SHARED = {
    "found",
    "level_with",
    "as_good",
    "marked",
    "close",
    "too_few",
    "no_negative_zero",
    "deals",
    "costs",
    "best_leads",
    "plural_agrees",
    "zero_that_could",
}
FAMILY_CHECKS: list[tuple[re.Pattern, Check]] = []


def family_check(pattern: str):
    def register(function: Check) -> Check:
        FAMILY_CHECKS.append((re.compile(pattern), function))
        return function

    return register


def _family_card(case: Case, words: str) -> int | None:
    """The card option whose words ("the high joker", "the jack of clubs (the jick)") these are."""
    for option in case.position.options:
        if ":" in option.code or option.code == "pass":
            continue
        card = parse_card(option.code)
        if trump_card(card, case.view.trumps) == words:
            return card
    return None


@family_check(r"(?:Leading|Playing) (.+?): (\d+) higher trumps? you have not seen could capture it")
def unseen_capturers(m, case):
    card = _family_card(case, m[1])
    if card is None:
        return f"{m[1]} is no card on offer"
    trumps = case.view.trumps
    above = [
        c
        for c in _cards(case.view.unseen & trumps.cards)
        if trumps.strength[c] > trumps.strength[card]
    ]
    if int(m[2]) != len(above) or not above:
        return f"says {m[2]} higher trumps are out, the view has {len(above)}"
    if not point_roles(case.view.rules.points, trumps)[0] >> card & 1:
        return f"{m[1]} scores for no capture"
    return None


@family_check(
    r"(?:Leading|Playing) (.+?): (your partner's|an opponent's) (.+?) "
    r"(?:in this trick outranks it|is winning this trick)"
)
def capturer_in_the_trick(m, case):
    card = _family_card(case, m[1])
    trick = case.view.current_trick
    if card is None or not trick:
        return f"{m[1]} faces no trick"
    trumps = case.view.trumps
    seat, winning = trick[trick_winner_full([c for _, c in trick], trumps)]
    ours = case.view.unit_of[seat] == case.view.unit
    if trump_card(winning, trumps) != f"the {m[3]}" or (m[2] == "your partner's") != ours:
        return f"{m[2]} {m[3]} is not what wins this trick"
    if trumps.strength[winning] <= trumps.strength[card]:
        return f"{m[3]} does not outrank {m[1]}"
    return None


@family_check(r"with (\w+) trump you hold (\d+|no) trumps?")
def family_trumps_held(m, case):
    suit = "SHDC"[["spades", "hearts", "diamonds", "clubs"].index(m[1])]
    trumps = trumps_of("SHDC".index(suit), case.view.rules.jick, case.view.rules.jokers)
    held = (case.view.hand & trumps.cards).bit_count()
    if (0 if m[2] == "no" else int(m[2])) != held:
        return f"says {m[2]} {m[1]} trumps held, the hand has {held}"
    return None


def family_problems(position: AnalysedPosition) -> list[str]:
    view = position.view()
    checks = [(p, rule) for p, rule in CHECKS if rule.__name__ in SHARED] + FAMILY_CHECKS
    found = []
    for option in position.options:
        case = Case(position, view, option)
        for sentence in sentences(explain_family(position, option.code)):
            for pattern, rule in checks:
                for m in pattern.finditer(sentence):
                    why = rule(m, case)
                    if why:
                        found.append(f"{position.key} {option.code}: {why}: {sentence!r}")
    return found


def test_every_full_deck_explanation_in_the_starter_bank_agrees_with_its_position():
    bank = [
        AnalysedPosition.from_json(json.loads(line))
        for line in FAMILY_BANK.read_text().splitlines()
    ]
    found = [problem for position in bank for problem in family_problems(position)]
    assert not found, f"{len(found)} clauses disagree, e.g.:\n" + "\n".join(found[:15])
    said = [
        sentence
        for position in bank
        for option in position.options
        for sentence in sentences(explain_family(position, option.code))
    ]
    idle = [
        rule.__name__ for pattern, rule in FAMILY_CHECKS if not any(pattern.search(s) for s in said)
    ]
    assert not idle


def test_the_full_deck_checks_catch_a_contradiction():
    bank = [
        AnalysedPosition.from_json(json.loads(line))
        for line in FAMILY_BANK.read_text().splitlines()
    ]
    position = next(p for p in bank if p.phase == "lead" and "J1" in p.legal_codes())
    case = Case(position, position.view(), position.option("J1"))
    bad = [
        "Leading the high joker: 9 higher trumps you have not seen could capture it.",
        "Leading the high joker: an opponent's ace of spades in this trick outranks it.",
        "Naming spades: with spades trump you hold 9 trumps.",
    ]
    for sentence in bad:
        fired = [
            rule(m, case)
            for pattern, rule in FAMILY_CHECKS
            for m in pattern.finditer(sentence)
            if rule(m, case)
        ]
        assert fired, sentence
