"""Explanations in plain words, built from a position's numbers and themes.

Every sentence is made from the analysis: the expected points of the best option, its
chance of making the bid, its match value, and what the learner's choice gives up. New
numbers make new sentences. Only the seat's view is read, never the hidden hands.
"""

from __future__ import annotations

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

EQUAL_WITHIN = 0.05  # match points: closer than this is a tie whatever the error says
LINE_STEPS = 8  # how much of the sampled line to tell


def explain(position: AnalysedPosition, chosen_code: str) -> list[str]:
    """A few short paragraphs: why the best option is best, and what the choice costs."""
    chosen = position.option(chosen_code)  # PositionError if it is not a legal choice
    view = position.view()
    paragraphs = [_why_best(position, view), _about_choice(position, view, chosen)]
    themes = _theme_sentences(position, view)
    if themes:
        paragraphs.append(" ".join(themes))
    if position.phase != "auction" and len(position.line) > 1:
        story = _line_story(position, view)
        if story:
            paragraphs.append(story)
    return paragraphs


def is_equivalent(position: AnalysedPosition, code: str) -> bool:
    """Whether ``code`` is as good as the best option within the sampling error."""
    best, chosen = position.best, position.option(code)
    return best.value - chosen.value <= _tolerance(best, chosen)


# --- Why the best option is best ------------------------------------------------------


def _why_best(position: AnalysedPosition, view: SeatView) -> str:
    best = position.best
    if position.phase == "auction":
        return _why_best_call(position, view)
    tied = level_with_best(position)
    if len(tied) > 1:
        names = _listed([_doing(o.code, position.phase, view) for o in tied])
        text = f"{_capital(names)} are level: each is worth {_pts(best.value, True)}."
    else:
        text = f"{_capital(_doing(best.code, position.phase, view))} is best."
    text += f" Over {position.deals} deals sampled from what you can see,"
    if best.points is not None:
        text += f" {_points_phrase(best.points, view)}{_made_phrase(best.made, view)};"
    text += (
        f" it is worth {_pts(best.value, True)} in match value (how far it moves your side"
        " against the best of the others, in match points)."
    )
    return text + _thin_note(position)


def level_with_best(position: AnalysedPosition) -> list[Option]:
    """The options whose shown match value equals the best one's: none is better."""
    return [o for o in position.options if grades.level(o.value, position.best.value)]


def _thin_note(position: AnalysedPosition) -> str:
    if not grades.is_thin(position.deals):
        return ""
    return (
        f" Only {position.deals} deals were sampled, fewer than the {grades.MIN_DEALS} a "
        "grade needs: take these figures as a rough guide."
    )


def _pts(value: float, signed: bool = False) -> str:
    return grades.points(value, signed=signed)


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _why_best_call(position: AnalysedPosition, view: SeatView) -> str:
    best = position.best
    if best.auction is not None:
        return _why_best_searched_call(position, view)
    bids = [o for o in position.options if o.code.startswith("bid:")]
    if best.code == "pass":
        text = (
            f"Passing is best. The expert bids only when a bid promises more than "
            f"{_pts(best.value)} match points, and over {position.deals} sampled deals none does"
        )
        top_bid = max(bids, key=lambda o: o.value, default=None)
        if top_bid is not None:
            text += f": the best of them, {_doing(top_bid.code, 'auction', view)},"
            text += f" {_bid_outlook(top_bid)}, worth {_pts(top_bid.value, True)}"
        return text + "."
    amount = bid_amount(parse_action_code(best.code))
    return (
        f"Bidding {amount} is best. Over {position.deals} deals sampled from what you can "
        f"see, as the bidder you {_bid_outlook(best)}; counting the match score that is "
        f"worth {_pts(best.value, True)} match points."
    )


def _why_best_searched_call(position: AnalysedPosition, view: SeatView) -> str:
    """The rest of the auction was searched: say where the best call leads. What the
    learner's call (or the next best) leads to follows in the next paragraph."""
    best = position.best
    rest = ", with the rest of the auction played out in each," if _seats_after(view) else ""
    text = (
        f"{_capital(_doing(best.code, 'auction', view))} is best: over {position.deals} deals "
        f"sampled from what you can see{rest} it is worth {_pts(best.value, True)} in match value."
    )
    return text + _sentence(call_outcome(best, view))


def _sentence(text: str) -> str:
    return f" {text}" if text else ""


def _bid_outlook(option: Option) -> str:
    amount = bid_amount(parse_action_code(option.code))
    parts = []
    if option.points is not None:
        parts.append(f"would take about {option.points[0]:.1f} points")
    if option.made is not None:
        parts.append(f"make {amount} in {_percent(option.made)} of the deals")
    return " and ".join(parts) or "cannot be priced"


# --- The auction's outcome: the one place its words are made --------------------------------


def call_outcome(option: Option, view: SeatView) -> str:
    """Where an auction call leads over the sampled deals, as one sentence: "If you bid 2,
    a player after you outbids you in 64% of the deals; ..." Empty without an outcome."""
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
        clauses.append(
            f"your side wins the auction in {_percent(found.lead)} of the deals (your partner bids)"
        )
    clauses.append(_others_clause(found, view, after_us=through_partner))
    return clauses


def _outbid_clause(found: AuctionOutcome, view: SeatView) -> str:
    if _seats_after(view) == 0:
        return "you are the last to bid, so nobody can outbid you"
    if found.outbid == 0:
        return "nobody after you outbids you in any of the deals"
    return f"a player after you outbids you in {_percent(found.outbid)} of the deals"


def _lead_clauses(found: AuctionOutcome, view: SeatView) -> list[str]:
    clauses = []
    if found.made is not None:
        of = "of the deals" if found.lead == 1 else "of those deals"
        whose = "your" if _cutthroat(view) else "its"
        clauses.append(
            f"when {_you(view, 'win')} the auction, {_you(view, 'make')} {whose} bid in "
            f"{_percent(found.made)} {of}"
        )
    if found.lead < 1:
        clauses.append(_others_clause(found, view, after_us=True))
    return clauses


def _others_clause(found: AuctionOutcome, view: SeatView, *, after_us: bool) -> str:
    """What another unit does with the auction when it wins it."""
    if found.others_made is None:
        return ""
    side, its = ("player", "their") if _cutthroat(view) else ("side", "its")
    made = f"makes {its} bid in {_percent(found.others_made)}"
    if after_us:
        text = f"when another {side} wins it, that {side} {made} of those deals"
    else:
        text = f"the {side} that wins the auction {made} of the deals"
    if found.others_points is not None:
        text += f", taking about {found.others_points:.1f} points"
    return text


def _you(view: SeatView, verb: str) -> str:
    """ "you win" alone, "your side wins" with partners."""
    return f"you {verb}" if _cutthroat(view) else f"your side {verb}s"


def _seats_after(view: SeatView) -> int:
    """Seats still to call after this one in the single lap of the auction."""
    return view.players - len(view.auction) - 1


def _cutthroat(view: SeatView) -> bool:
    return len(view.teams[view.unit]) == 1


# --- What the learner's choice costs ----------------------------------------------------


def _about_choice(position: AnalysedPosition, view: SeatView, chosen: Option) -> str:
    best = position.best
    doing = _doing(chosen.code, position.phase, view)
    if chosen.code == best.code:
        return _found_best(position, view)
    gap = best.value - chosen.value
    if grades.level(best.value, chosen.value):
        return f"{_capital(doing)} is level with the best: both are worth {_pts(best.value, True)}."
    if gap <= _tolerance(best, chosen):
        return (
            f"{_capital(doing)} is as good as the best as far as {position.deals} sampled deals "
            f"can tell: {_pts(gap)} match points apart, a difference chance alone could make."
        )
    rank = [o.code for o in position.options].index(chosen.code) + 1
    verdict = "worse" if grades.is_thin(position.deals) else _severity(gap)
    text = (
        f"{_capital(doing)} is {verdict}: it costs about {_pts(gap)} match points "
        f"against the best (it ranks {_ordinal(rank)} of {len(position.options)})"
    )
    details = _differences(best, chosen, view, position.phase)
    return text + (": " + "; ".join(details) if details else "") + "."


def _found_best(position: AnalysedPosition, view: SeatView) -> str:
    if len(position.options) < 2:
        return "It is the only choice."
    second = position.options[1]
    if grades.level(second.value, position.best.value):
        others = _listed(
            [_doing(o.code, position.phase, view) for o in level_with_best(position)[1:]]
        )
        return f"You found it; {others} would be level with it."
    text = (
        f"You found it. The next best, {_doing(second.code, position.phase, view)}, is worth "
        f"{_pts(position.margin)} match points less"
    )
    details = _differences(position.best, second, view, position.phase)
    return text + (": " + "; ".join(details) if details else "") + "."


def _differences(best: Option, other: Option, view: SeatView, phase: str) -> list[str]:
    if phase == "auction" and other.auction is not None:
        outcome = call_outcome(other, view)
        return [_uncapital(outcome.rstrip("."))] if outcome else []
    if phase == "auction" and "pass" in (best.code, other.code):
        return _call_differences(best, other)
    details = []
    if best.points is not None and other.points is not None:
        yours = "your side's points" if len(view.teams[view.unit]) > 1 else "your points"
        details += _moved(yours, best.points[0], other.points[0], ("fall", "rise"))
        details += _moved("the others'", best.points[1], other.points[1], ("fall", "rise"))
    if best.made is not None and other.made is not None and abs(best.made - other.made) >= 0.01:
        whose = "your bid" if phase == "auction" or _we_bid(view) else "the bidder's bid"
        details.append(
            f"the chance of making {whose} goes from {_percent(best.made)} "
            f"to {_percent(other.made)}"
        )
    return details


def _moved(whose: str, before: float, after: float, words: tuple[str, str]) -> list[str]:
    """ "your points fall from 2.4 to 1.9", unless the shown figures are equal."""
    shown_before, shown_after = f"{before:.1f}", f"{after:.1f}"
    if shown_before == shown_after:
        return []
    verb = words[1] if after > before else words[0]
    return [f"{whose} {verb} from {shown_before} to {shown_after}"]


def _call_differences(best: Option, other: Option) -> list[str]:
    """A pass has no points of its own: compare against the bid made or not made."""
    bid = other if best.code == "pass" else best
    amount = bid_amount(parse_action_code(bid.code))
    if bid.made is None:
        return []
    if best.code == "pass" and bid.made < 0.5:
        return [
            f"bidding {amount} is made in only {_percent(bid.made)} of the deals, "
            f"and a miss costs all {amount}"
        ]
    if best.code == "pass":
        worth = f"bidding {amount} is made in {_percent(bid.made)} of the deals but is worth "
        worth += f"only {_pts(bid.value, True)}"
        if bid.points is not None:
            ours, theirs = bid.points
            worth += f" (about {ours:.1f} points for you, {theirs:.1f} for the others)"
        return [worth + ", less than passing"]
    return [f"passing gives up a bid of {amount} that is made in {_percent(bid.made)} of the deals"]


def _tolerance(best: Option, other: Option) -> float:
    return max(EQUAL_WITHIN, other.margin_error(best))


def _severity(gap: float) -> str:
    return grades.words_for(gap)


# --- Themes -----------------------------------------------------------------------------


def _theme_sentences(position: AnalysedPosition, view: SeatView) -> list[str]:
    best = position.best
    card = None if position.phase == "auction" else parse_card(best.code)
    trump = view.trump if view.trump is not None else (None if card is None else SUIT_OF[card])
    sentences = []
    for theme in position.themes:
        sentence = _THEME_SENTENCES[theme](position, view, card, trump)
        if sentence:
            sentences.append(sentence)
    return sentences


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
    higher = higher_trumps_out(view, trump).bit_count()
    if higher:
        return (
            f"{held}; {higher} higher trump{'s' if higher != 1 else ''} you have not seen "
            f"could take it, so the best play keeps it back."
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
        f"You are defending: the best play holds the bidder to {_percent(best.made)} for "
        f"making {view.bid}, against {_percent(second.made)} after the next best."
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


def _points_phrase(points: tuple[float, float], view: SeatView) -> str:
    us = "your side takes" if len(view.teams[view.unit]) > 1 else "you take"
    return (
        f"{us} about {points[0]:.1f} of the round's points against {points[1]:.1f} for the others"
    )


def _made_phrase(made: float | None, view: SeatView) -> str:
    if made is None or view.bid is None:
        return ""
    if _we_bid(view):
        whose = "your" if view.bidder == view.seat else "your partner's"
        return f", and {whose} bid of {view.bid} is made in {_percent(made)} of them"
    return f", and the bidder makes {view.bid} in {_percent(made)} of them"


def _we_bid(view: SeatView) -> bool:
    return view.bidder is not None and view.unit_of[view.bidder] == view.unit


def _percent(chance: float | None) -> str:
    return "an unknown share" if chance is None else f"{chance:.0%}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _uncapital(text: str) -> str:
    return text[:1].lower() + text[1:]
