"""Explanations in plain words, built from a position's numbers and themes.

Every sentence is made from the analysis: each option's chance of making the bid, the
round's points it takes, where an auction call leads, and the cards the seat can see. New
numbers make new sentences. Only the seat's view is read, never the hidden hands.

An explanation is written for a player first (``Explanation.paragraphs``): the deciding
fact in the game's words (how often the bid is made, the points each side takes), the
verdict on the choice from the one scale (``grades.verdict``), then the cards that win or
fall. The analyst's figures (match value, standard errors, the number of sampled deals)
follow apart, in ``Explanation.details``, which a page shows behind a "details" control.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import notation
from game.engine.cards import (
    HAND_SIZE,
    JOKER_1,
    JOKERS,
    RANK_OF,
    RANKS,
    SUIT_MASK,
    SUIT_OF,
    cards_of,
    game_total,
    parse_card,
)
from game.engine.notation import listed
from game.engine.rules import MAX_BID, bid_amount, parse_action_code
from game.engine.view import SeatView

from . import grades, lines
from .positions import AnalysedPosition, AuctionOutcome, Option
from .themes import (
    certainly_high,
    certainly_low,
    higher_in_trick,
    higher_trumps_out,
    may_be_low,
    partner_holds_bid,
    partner_winning,
)

LINE_STEPS = 8  # how much of the sampled line to tell
MATCH_VALUE = (
    "Match value is how far a choice moves your side against the best of the others, in "
    "points of the match score, the end of the match counted."
)


@dataclass(frozen=True)
class Explanation:
    """Why one choice is good or bad: for a player first, the analyst's figures apart."""

    verdict: grades.Verdict  # the choice judged on the one scale
    paragraphs: tuple[str, ...]  # the deciding fact, the verdict, the cards; no match value
    details: tuple[str, ...]  # match value, errors and deal counts

    def all(self) -> list[str]:
        return [*self.paragraphs, *self.details]


def explain(position: AnalysedPosition, chosen_code: str) -> list[str]:
    """A few short paragraphs, the player's then the details: ``explained(...).all()``."""
    return explained(position, chosen_code).all()


def explained(position: AnalysedPosition, chosen_code: str) -> Explanation:
    """Why the best option is best, and what the choice costs, in the game's words."""
    chosen = position.option(chosen_code)  # PositionError if it is not a legal choice
    view = position.view()
    judged = grades.verdict_of(position, chosen_code)
    cards, themes = _theme_sentences(position, view)
    paragraphs = [_deciding(position, view, chosen, judged, cards)]
    if themes:
        paragraphs.append(" ".join(themes))
    if position.phase != "auction" and len(position.line) > 1:
        story = _line_story(position, view)
        if story:
            paragraphs.append(story)
    return Explanation(judged, tuple(paragraphs), (_figures(position, view, chosen, judged),))


def is_equivalent(position: AnalysedPosition, code: str) -> bool:
    """Whether ``code`` is as good as the best: level with it, or within the sampling
    noise (``grades.Verdict.as_good``, the rule every sentence and grade follows)."""
    return grades.verdict_of(position, code).as_good


def level_with_best(position: AnalysedPosition) -> list[Option]:
    """The options whose shown match value equals the best one's: none is better."""
    return [o for o in position.options if grades.level(o.value, position.best.value)]


# --- The deciding fact and the verdict ------------------------------------------------------


def _deciding(
    position: AnalysedPosition,
    view: SeatView,
    chosen: Option,
    judged: grades.Verdict,
    cards: list[str],
) -> str:
    """The card that wins or falls (``cards``: the themes' sentences about a capture), the
    options compared in the game's words (bids made, points taken), then the verdict."""
    best = position.best
    if len(position.options) < 2:
        return " ".join([*cards, "It is the only choice."])
    other = chosen if chosen.code != best.code else position.options[1]
    facts = _compared(position, view, best, other)
    return " ".join([*cards, *facts, _verdict_sentence(position, view, chosen, judged)])


def _verdict_sentence(
    position: AnalysedPosition, view: SeatView, chosen: Option, judged: grades.Verdict
) -> str:
    phase, best = position.phase, position.best
    tied = [o for o in level_with_best(position) if o.code != best.code]
    return verdict_words(
        judged,
        _doing(chosen.code, phase, view),
        _doing(best.code, phase, view),
        listed([_doing(o.code, phase, view) for o in tied]) if tied else "",
    )


def verdict_words(judged: grades.Verdict, doing: str, best: str, also_level: str = "") -> str:
    """The verdict on ``doing`` against ``best`` in the scale's words: the same rule
    (``judged``) as the review's heading and count. ``also_level``: the options level with
    the best, said when the best was found."""
    if judged.best:
        if also_level:
            return f"You found it: {doing} is level best with {also_level}, none ahead."
        return f"You found it: {doing} is best."
    doing = _capital(doing)
    if judged.tie:
        return f"{doing} is level with {best}: neither comes out ahead."
    if judged.noise:
        return (
            f"{doing} is as good as the best, {best}, as far as the sampled deals can tell: "
            "chance alone could make the difference between them."
        )
    if judged.thin:
        return f"{doing} comes out behind {best}, but too few deals were sampled to grade it."
    if judged.grade is None:
        return f"{doing} is close to the best, {best}: a little behind it, too little to mark."
    return f"{doing} is {judged.step.said}: {best} is better."


def _compared(position: AnalysedPosition, view: SeatView, best: Option, other: Option) -> list[str]:
    """Sentences comparing the best option with ``other`` in bids made and points."""
    phase = position.phase
    if phase == "auction":
        return _calls_compared(view, best, other)
    facts = []
    made = _made_compared(view, best, other)
    if made:
        facts.append(made)
    if best.points is not None and other.points is not None:
        facts.append(_points_compared(view, best, other))
    return facts


def _made_compared(view: SeatView, best: Option, other: Option) -> str:
    """ "Your bid of 5 is made 8 times in 10 with the ace of clubs, 3 times in 10 with the
    queen of clubs." """
    if best.made is None or other.made is None or view.bid is None:
        return ""
    if _we_bid(view):
        whose = "your" if view.bidder == view.seat else "your partner's"
        subject = f"{_capital(whose)} bid of {view.bid} is made"
    else:
        subject = f"The bidder's bid of {view.bid} is made"
    first, second = grades.odds(best.made), grades.odds(other.made)
    if first == second:
        return f"{subject} {first} with {_named(best.code)} or {_named(other.code)} alike."
    return f"{subject} {first} with {_named(best.code)}, {second} with {_named(other.code)}."


def _points_compared(view: SeatView, best: Option, other: Option) -> str:
    """ "You take about 4.9 of the round's points to the others' 1.0 with the ace of
    clubs; 4.2 to 1.7 with the queen of clubs." """
    us = "Your side takes" if not _cutthroat(view) else "You take"
    (ours, theirs), (ours2, theirs2) = best.points, other.points
    return (
        f"{us} about {_round_points(ours)} of the round's points to the others' "
        f"{_round_points(theirs)} with {_named(best.code)}; {_round_points(ours2)} to "
        f"{_round_points(theirs2)} with {_named(other.code)}."
    )


def _calls_compared(view: SeatView, best: Option, other: Option) -> list[str]:
    """Two auction calls: where each leads (a searched auction), else each bid's chance
    of being made and the points it takes."""
    if best.auction is not None and other.auction is not None:
        return [text for text in (call_outcome(best, view), call_outcome(other, view)) if text]
    facts = []
    for option in (best, other):
        if option.code == "pass":
            continue
        fact = _bid_chances(option)
        if fact:
            facts.append(fact)
    if not facts:
        return []
    if "pass" in (best.code, other.code):
        bid = other if best.code == "pass" else best
        if best.code == "pass" and bid.made is not None and bid.made < 0.5:
            facts.append(f"A miss costs all {bid_amount(parse_action_code(bid.code))}.")
    return facts


def _bid_chances(option: Option) -> str:
    """ "Bidding 3 is made 8 times in 10, taking about 3.4 of the round's points." """
    amount = bid_amount(parse_action_code(option.code))
    if option.made is None:
        return ""
    text = f"Bidding {amount} {_made_or_failed(option.made)}"
    if option.points is not None:
        text += f", taking about {_round_points(option.points[0])} of the round's points"
    return text + "."


def _made_or_failed(chance: float) -> str:
    """ "is made 8 times in 10" or, when it fails more often than not, "fails 6 times in 10" """
    if chance >= 0.5:
        return f"is made {grades.odds(chance)}"
    return f"fails {grades.odds(1 - chance)}"


def _round_points(points: float) -> str:
    return grades.round_points(points)


# --- The details: the analyst's figures ---------------------------------------------------


def _figures(
    position: AnalysedPosition, view: SeatView, chosen: Option, judged: grades.Verdict
) -> str:
    """Match value, its standard errors and the deals behind it, and the scale's rule."""
    best, phase = position.best, position.phase
    rest = (
        ", with the rest of the auction played out in each"
        if phase == "auction" and best.auction is not None and _seats_after(view)
        else ""
    )
    text = f"Over {position.deals} deals sampled from what you can see{rest}, "
    text += f"{_doing(best.code, phase, view)} is worth {_pts(best.value, True)} in match value"
    if chosen.code != best.code:
        text += (
            f" and {_doing(chosen.code, phase, view)} {_pts(chosen.value, True)}, "
            f"{_ordinal(_rank(position, chosen))} of {len(position.options)}"
        )
    elif len(position.options) > 1:
        second = position.options[1]
        text += f"; the next best, {_doing(second.code, phase, view)}, {_pts(second.value, True)}"
    text += f". {MATCH_VALUE}"
    text += _gap_note(position, chosen, judged)
    return text + _thin_note(position)


def _gap_note(position: AnalysedPosition, chosen: Option, judged: grades.Verdict) -> str:
    best = position.best
    if judged.best:
        if len(position.options) < 2:
            return ""
        second = position.options[1]
        return (
            f" The best leads the next by {_pts(position.margin)} match points "
            f"(standard error {_pts(second.margin_error(best))})."
        )
    gap, error = judged.cost, judged.error
    if judged.tie:
        return " The two show the same match value: they are level."
    apart = f"{_pts(gap)} match points apart (standard error {_pts(error)})"
    if judged.noise:
        return (
            f" They are {apart}: within {grades.Z:g} standard errors, a difference chance "
            "alone could make."
        )
    step = judged.step
    text = f" The choice costs about {_pts(gap)} match points (standard error {_pts(error)})"
    if judged.thin or step.grade == grades.LEVEL:
        return text + "."
    return text + f"; {step.said} costs {_pts(step.start)} or more."


def _rank(position: AnalysedPosition, option: Option) -> int:
    return [o.code for o in position.options].index(option.code) + 1


def _thin_note(position: AnalysedPosition) -> str:
    if not grades.is_thin(position.deals):
        return ""
    return (
        f" Only {position.deals} deals were sampled, fewer than the {grades.MIN_DEALS} a "
        "grade needs: take these figures as a rough guide."
    )


def _pts(value: float, signed: bool = False) -> str:
    return grades.points(value, signed=signed)


def _sentence(text: str) -> str:
    return f" {text}" if text else ""


# --- The auction's outcome: the one place its words are made --------------------------------


def call_outcome(option: Option, view: SeatView) -> str:
    """Where an auction call leads over the sampled deals, as one sentence: "If you bid 2,
    a player after you outbids you 6 times in 10; ..." Empty without an outcome."""
    found = option.auction
    if found is None:
        return ""
    said = notation.said(parse_action_code(option.code))
    if option.code == "pass":
        clauses = _pass_outcome(found, view)
    else:
        clauses = [_outbid_clause(found, view), *_lead_clauses(found, view)]
    clauses = [clause for clause in clauses if clause]
    return f"If you {said}, " + "; ".join(clauses) + "." if clauses else ""


def _pass_outcome(found: AuctionOutcome, view: SeatView) -> list[str]:
    clauses = []
    through_partner = found.lead > 0 and not _cutthroat(view)  # alone, a pass never leads
    if through_partner:
        clauses.append(f"your side wins the auction {grades.odds(found.lead)} (your partner bids)")
    clauses.append(_others_clause(found, view, after_us=through_partner))
    return clauses


def _outbid_clause(found: AuctionOutcome, view: SeatView) -> str:
    if _seats_after(view) == 0:
        return "you are the last to bid, so nobody can outbid you"
    if found.outbid == 0:
        return "nobody after you outbids you in any of the deals"
    return f"a player after you outbids you {grades.odds(found.outbid)}"


def _lead_clauses(found: AuctionOutcome, view: SeatView) -> list[str]:
    clauses = []
    if found.made is not None:
        whose = "your" if _cutthroat(view) else "its"
        clauses.append(
            f"when {_you(view, 'win')} the auction, {_you(view, 'make')} {whose} bid "
            f"{grades.odds(found.made)}"
        )
    if found.lead < 1:
        clauses.append(_others_clause(found, view, after_us=True))
    return clauses


def _others_clause(found: AuctionOutcome, view: SeatView, *, after_us: bool) -> str:
    """What another unit does with the auction when it wins it."""
    if found.others_made is None:
        return ""
    side, its = ("player", "their") if _cutthroat(view) else ("side", "its")
    made = f"makes {its} bid {grades.odds(found.others_made)}"
    if after_us:
        text = f"when another {side} wins it, that {side} {made}"
    else:
        text = f"the {side} that wins the auction {made}"
    if found.others_points is not None:
        text += f", taking about {_round_points(found.others_points)} points"
    return text


def _you(view: SeatView, verb: str) -> str:
    """ "you win" alone, "your side wins" with partners."""
    return f"you {verb}" if _cutthroat(view) else f"your side {verb}s"


def _seats_after(view: SeatView) -> int:
    """Seats still to call after this one in the single lap of the auction."""
    return view.players - len(view.auction) - 1


def _cutthroat(view: SeatView) -> bool:
    return len(view.teams[view.unit]) == 1


# --- Themes -----------------------------------------------------------------------------


# the themes whose sentence names the card that wins or falls: it leads the explanation
CAPTURES = ("protecting-jack", "joker")


def _theme_sentences(position: AnalysedPosition, view: SeatView) -> tuple[list[str], list[str]]:
    """The themes' sentences: (those about a capture, the rest)."""
    best = position.best
    card = None if position.phase == "auction" else parse_card(best.code)
    trump = view.trump if view.trump is not None else (None if card is None else SUIT_OF[card])
    captures, rest = [], []
    for theme in position.themes:
        sentence = _THEME_SENTENCES[theme](position, view, card, trump)
        if sentence:
            (captures if theme in CAPTURES else rest).append(sentence)
    return captures, rest


def _bidding(position, view, card, trump) -> str:
    bid = max(view.high_bid, 0)
    if not bid:
        return "Nobody has bid yet: a missed bid costs its whole amount, so bid what you can make."
    if bid >= MAX_BID:
        return ""  # nothing is left to outbid with
    return (
        f"The high bid is {bid}: outbidding it means making at least {bid + 1} of the "
        f"round's points, and a miss costs the whole bid."
    )


def _choosing_trump(position, view, card, trump) -> str:
    held = cards_of(view.hand & SUIT_MASK[trump])
    names = ", ".join(_rank_word(c) for c in reversed(held))
    text = (
        f"Your opening lead sets trump: it makes {notation.suit_name(trump)} trump, a suit "
        f"in which you hold {len(held)} card{'s' if len(held) != 1 else ''} ({names})."
    )
    return text + _sentence(_sure_points(view, held, trump))


def _sure_points(view: SeatView, held: list[int], trump: int) -> str:
    """The points the rules already give the seat in that trump: the deck's top trump is
    High and its bottom trump Low, whoever holds the rest."""
    suit = notation.suit_name(trump)
    high = next((c for c in held if certainly_high(view, c, trump)), None)
    low = next((c for c in held if certainly_low(view, c, trump)), None)
    if high is not None and low is not None:
        return (
            f"{_capital(_card_name(high))} is certainly High and {_card_name(low)} certainly "
            f"Low: this deck has no {suit} above or below them."
        )
    if high is not None:
        return (
            f"{_capital(_card_name(high))} is certainly High: no {suit} rank higher in this deck."
        )
    if low is not None:
        return f"{_capital(_card_name(low))} is certainly Low: no {suit} rank lower in this deck."
    return ""


def _drawing_trump(position, view, card, trump) -> str:
    out = (view.unseen & SUIT_MASK[trump]).bit_count()
    if not out:
        return ""  # nothing left to draw
    return (
        f"Leading trump draws the others' trump: {out} trump card{'s' if out != 1 else ''} "
        f"you have not seen may still be out (some may be among the hidden cards)."
    )


def _protecting_jack(position, view, card, trump) -> str:
    held = f"You hold the jack of {notation.suit_name(trump)}, worth a point to whoever captures it"
    out = higher_trumps_out(view, trump)
    higher = out.bit_count()
    if higher:
        names = listed([_card_name(c) for c in reversed(cards_of(out))])
        return (
            f"{held}; {higher} higher trump{'s' if higher != 1 else ''} you have not seen "
            f"could take it ({names}), so the best play keeps it back."
        )
    beaten_by = higher_in_trick(view, trump)
    if beaten_by is not None:
        return f"{held}; {_card_name(beaten_by)} in this trick would take it, so it waits."
    # a bank written before the theme asked for a threat
    return (
        f"{held}; no trump you have not seen is higher, so nobody can take it from you, and "
        f"the best play saves it for a later trick."
    )


def _tens_for_game(position, view, card, trump) -> str:
    taken = [game_total(cards) for cards in view.taken]
    ours = taken[view.unit]
    theirs = max((t for u, t in enumerate(taken) if u != view.unit), default=0)
    return (
        f"Game goes to the unique highest total of game value (a ten counts 10, an ace 4): "
        f"so far your side has {ours} and the best of the others {theirs}."
    )


def _joker(position, view, card, trump) -> str:
    in_trick = any(played >= JOKER_1 for _, played in view.current_trick)
    if not (view.hand & JOKERS or in_trick):
        return ""  # a joker hint only for a joker held or faced
    text = (
        "A joker scores a point for whoever captures it, and it wins a trick only when no "
        "trump is played to it."
    )
    trumps_in_trick = [c for _, c in view.current_trick if c < JOKER_1 and SUIT_OF[c] == trump]
    if view.hand & JOKERS and trumps_in_trick and (card is None or card < JOKER_1):
        text += f" Here {_card_name(max(trumps_in_trick))} in this trick would capture your joker."
    return text


def _low(position, view, card, trump) -> str:
    if card is None or not may_be_low(view, card, trump):
        return ""
    if certainly_low(view, card, trump):
        fact = f"{_card_name(card)} is certainly the low: no lower trump is in this deck."
    else:
        fact = f"{_card_name(card)} is very likely the low: at most one lower trump is unseen."
    return f"Low goes to whoever was dealt the lowest trump, whoever captures it: {fact}"


def _endgame(position, view, card, trump) -> str:
    left = HAND_SIZE - len(view.trick_winners)  # a trick for each card of a hand
    unseen = view.unseen.bit_count() - view.hidden_count
    return (
        f"With {left} trick{'s' if left != 1 else ''} left and only {unseen} cards in the "
        f"other hands, the rest of the round can nearly be counted."
    )


def _partner_support(position, view, card, trump) -> str:
    partner = [s for s in view.teams[view.unit] if s != view.seat]
    if position.phase == "auction":
        if not partner_holds_bid(view):
            return ""
        return (
            f"Your partner already holds the bid at {view.high_bid}: raising it only adds "
            f"risk to your side."
        )
    if not partner_winning(view, [c for _, c in view.current_trick], trump):
        return ""
    who = player_at(view, partner[0]).capitalize() if len(partner) == 1 else "A partner"
    return f"{who} is winning this trick."


def _defence(position, view, card, trump) -> str:
    best, second = position.options[0], position.options[1]
    if best.made is None or second.made is None or best.made >= second.made:
        return ""
    return (
        f"You are defending: your side gains when the bidder falls short of {view.bid}, "
        "and the best play makes that likelier than the next best does."
    )


def _match_score(position, view, card, trump) -> str:
    scores = ", ".join(str(s) for s in view.scores)
    return (
        f"The match stands at {scores} (to {view.target}); only the bidder can reach the "
        f"target, so the score changes what each point is worth."
    )


_THEME_SENTENCES = {
    "bidding": _bidding,
    "choosing-trump": _choosing_trump,
    "drawing-trump": _drawing_trump,
    "protecting-jack": _protecting_jack,
    "tens-for-game": _tens_for_game,
    "joker": _joker,
    "low": _low,
    "endgame": _endgame,
    "partner-support": _partner_support,
    "defence": _defence,
    "match-score": _match_score,
}


# --- The sampled line ---------------------------------------------------------------------


def _line_story(position: AnalysedPosition, view: SeatView) -> str:
    """The first LINE_STEPS cards of the line, trick by trick as the engine plays them
    out in the sampled deal (``lines.walk_through``); empty without a deal to play in."""
    walk = lines.walk_through(position)
    if walk is None:
        return ""
    tricks, left = [], LINE_STEPS
    for trick in walk.tricks:
        told = trick.line_plays[:left]
        if told:
            tricks.append(
                ", ".join(f"{_who(seat, view)} {_card_name(card)}" for seat, card in told)
            )
        left -= len(told)
    more = " …" if len(position.line) > LINE_STEPS else ""
    return (
        "In one sampled deal (the other hands are a guess that fits what you have seen) "
        f"play could go: {'; then '.join(tricks)}{more}."
    )


# --- Words --------------------------------------------------------------------------------


def _doing(code: str, phase: str, view: SeatView) -> str:
    if code == "pass":
        return "passing"
    if code.startswith("bid:"):
        return f"bidding {bid_amount(parse_action_code(code))}"
    card = parse_card(code)
    if phase == "follow":
        return f"playing {_card_name(card)}"
    if view.trump is None:
        return f"leading {_card_name(card)} (making {notation.suit_name(SUIT_OF[card])} trump)"
    return f"leading {_card_name(card)}"


def _named(code: str) -> str:
    """A card option by its card alone ("the ace of clubs"), a call as said ("passing")."""
    if code == "pass" or code.startswith("bid:"):
        return _doing(code, "auction", None)
    return _card_name(parse_card(code))


def _card_name(card: int) -> str:
    if card >= JOKER_1:
        return "the joker" if card == JOKER_1 else "the second joker"
    return f"the {_rank_word(card)} of {notation.suit_name(SUIT_OF[card])}"


def _rank_word(card: int) -> str:
    return notation.rank_name(RANKS[RANK_OF[card]], spelled=True)


def _who(seat: int, view: SeatView) -> str:
    if seat == view.seat:
        return "you play"
    return f"{player_at(view, seat)} plays"


_HOW_MANY = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def seat_place(view: SeatView, seat: int) -> str:
    """Where ``seat`` sits from the learner's chair; play passes to the left."""
    offset = (seat - view.seat) % view.players
    if offset == 1:
        return "on your left"
    if offset == view.players - 1:
        return "on your right"
    if view.players == 4 and offset == 2:
        return "across from you"
    return f"{_HOW_MANY.get(offset, offset)} seats to your left"


def player_at(view: SeatView, seat: int) -> str:
    """ "your partner on your left", "the player across from you", ..."""
    partner = view.unit_of[seat] == view.unit and seat != view.seat
    return f"{'your partner' if partner else 'the player'} {seat_place(view, seat)}"


def _we_bid(view: SeatView) -> bool:
    return view.bidder is not None and view.unit_of[view.bidder] == view.unit


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _uncapital(text: str) -> str:
    return text[:1].lower() + text[1:]
