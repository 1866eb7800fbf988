"""The analysis board: a position anyone sets up by hand, checked by the engine itself.

A ``Board`` is the table (its ``Rules``, the scoring units, the dealer and the match
scores), the seat asking, the cards each seat was dealt as far as they are known (the
asking seat's always), and the actions so far. ``replay(board)`` plays those actions
through ``RoundState``: the engine is the only judge of what is legal, and a refusal
comes back as a ``BoardError`` whose sentence names the seat, the card or the bid at
fault. Where a hand is not given, the round is replayed over a stand-in deal: the seat
holds every card it is seen to play or discard, and the rest of its hand is filled
with unseen cards the engine accepts (``_StandIn``).

With every card known, ``opening_table`` is the exact table at the first lead (per
opening lead where the first card led sets trump, per trump suit where the bidder names
it) and ``card_values`` the exact value of each legal card at any moment of card play;
both ask ``solver`` and restate nothing.

The board's notation is ``board_notation`` (``docs/analysis-board.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import rules, solver
from .cards import card_code, cards_of
from .notation import card_name, said
from .rules import (
    PASS,
    TRUMPS,
    Phase,
    bid_amount,
    is_bid,
    is_card,
    is_discard,
    is_trump_action,
)
from .rules import discarded as discarded_cards
from .state import Deal, IllegalAction, MatchSetup, RoundState
from .variants import Rules


class BoardError(ValueError):
    """A position that cannot be: ``reason`` says what is wrong in words; ``field`` names
    the part of the board at fault (``rules``, ``teams``, ``dealer``, ``scores``,
    ``seat``, ``hands``, ``pack``, ``actions``), ``action`` the 0-based index of the
    refused action, if one was, and ``seat`` the seat whose hand is at fault, if one is."""

    def __init__(self, field: str, reason: str, action: int | None = None, seat: int | None = None):
        super().__init__(reason)
        self.field = field
        self.reason = reason
        self.action = action
        self.seat = seat


@dataclass(frozen=True)
class Board:
    """A position as set up on the board.

    ``hands`` holds each seat's dealt cards as a mask, or None where it is not known
    (the asking ``seat``'s hand is always known). ``actions`` are ``(seat, action)``
    pairs in the engine's numbering; a seat of None means whoever is to act. ``pack`` is
    the undealt cards, top first, where known (a fill deals from its front). ``fill`` is
    the cards the asking seat got from the pack (its fill in discard and fill, the pack
    the dealer takes), where given: with the pack not given, it is how the board knows
    the seat's hand past the fill.
    """

    rules: Rules
    teams: tuple[tuple[int, ...], ...]
    dealer: int
    scores: tuple[int, ...]
    seat: int
    hands: tuple[int | None, ...]
    actions: tuple[tuple[int | None, int], ...] = ()
    pack: tuple[int, ...] | None = None
    fill: int | None = None

    @property
    def players(self) -> int:
        return sum(len(unit) for unit in self.teams)

    @property
    def every_card_known(self) -> bool:
        """Every hand is given, and the pack's order where a fill deals from it."""
        if any(hand is None for hand in self.hands):
            return False
        return self.pack is not None or self.rules.exchange != "discard_and_fill"


@dataclass(frozen=True)
class Replayed:
    """A board played through the engine: the round now, and each action's seat."""

    board: Board
    state: RoundState
    seats: tuple[int, ...]


def setup_of(board: Board) -> MatchSetup:
    """The board's table as the engine's ``MatchSetup``; BoardError names what is wrong."""
    try:
        setup = MatchSetup(board.players, board.teams, board.rules.target, board.rules)
    except ValueError as error:
        raise BoardError("teams", str(error)) from None
    if not 0 <= board.dealer < setup.players:
        raise BoardError("dealer", f"the dealer must be a seat 0 to {setup.players - 1}")
    if not 0 <= board.seat < setup.players:
        raise BoardError("seat", f"the seat asking must be a seat 0 to {setup.players - 1}")
    if len(board.scores) != setup.units:
        raise BoardError(
            "scores", f"{len(board.scores)} match scores for {setup.units} scoring units"
        )
    return setup


def check_cards(board: Board, setup: MatchSetup) -> None:
    """The cards as dealt: the right number of hands, each of the deal's size, every card
    of this table's deck and in one place only."""
    players, size = setup.players, setup.rules.deal
    if len(board.hands) != players:
        raise BoardError("hands", f"{len(board.hands)} hands for {players} players")
    if board.hands[board.seat] is None:
        raise BoardError(
            "hands", f"the hand of seat {board.seat}, the seat asking, is needed", seat=board.seat
        )
    deck_name = f"the {players}-player deck" if setup.rules.is_house else "this table's deck"
    held: dict[int, int] = {}
    for seat, hand in enumerate(board.hands):
        if hand is None:
            continue
        if hand & ~setup.deck:
            stray = cards_of(hand & ~setup.deck)[0]
            raise BoardError("hands", f"{card_code(stray)} is not in {deck_name}", seat=seat)
        if hand.bit_count() != size:
            raise BoardError(
                "hands", f"seat {seat} holds {hand.bit_count()} cards; a hand is {size}", seat=seat
            )
        for c in cards_of(hand):
            if c in held:
                raise BoardError(
                    "hands",
                    f"{card_code(c)} is in two hands: seat {held[c]}'s and seat {seat}'s",
                    seat=seat,
                )
            held[c] = seat
    if board.pack is not None:
        undealt = setup.deck.bit_count() - size * players
        if len(board.pack) != len(set(board.pack)):
            raise BoardError("pack", "a card is in the pack twice")
        for c in board.pack:
            if not setup.deck >> c & 1:
                raise BoardError("pack", f"{card_code(c)} is not in {deck_name}")
            if c in held:
                raise BoardError(
                    "pack", f"{card_code(c)} is in the pack and in seat {held[c]}'s hand"
                )
        if len(board.pack) != undealt:
            raise BoardError(
                "pack", f"the pack holds {len(board.pack)} cards; {undealt} are left undealt"
            )
    if board.fill is not None:
        for c in cards_of(board.fill):
            if not setup.deck >> c & 1:
                raise BoardError("fill", f"{card_code(c)} is not in {deck_name}")
            if c in held:
                raise BoardError(
                    "fill",
                    f"{card_code(c)} is in seat {held[c]}'s hand and in seat {board.seat}'s fill",
                )


def replay(board: Board) -> Replayed:
    """The board played through the engine. Raises BoardError with the reason in words."""
    setup = setup_of(board)
    check_cards(board, setup)
    stand_in = _StandIn(board, setup)
    replayed = stand_in.replay()
    _check_fill(replayed)
    return replayed


def _check_fill(replayed: Replayed) -> None:
    """The asking seat's fill, where given, is the one the round dealt it."""
    board, state = replayed.board, replayed.state
    if board.fill is None:
        return
    seat, got = board.seat, state.fills[board.seat]
    if not got:
        raise BoardError(
            "fill",
            f"seat {seat} has drawn no cards from the pack at this point of the round: "
            "its fill is given only once it has come",
        )
    if got.bit_count() != board.fill.bit_count():
        raise BoardError("fill", _fill_size_refusal(seat, got.bit_count(), board.fill))
    if got != board.fill:
        raise BoardError(
            "fill",
            f"the pack deals seat {seat} {_codes(got)} in its fill, not {_codes(board.fill)}",
        )


def _fill_size_refusal(seat: int, size: int, fill: int) -> str:
    return (
        f"seat {seat} drew {size} card{'s' if size != 1 else ''} from the pack; "
        f"its fill gives {fill.bit_count()}"
    )


def _codes(mask: int) -> str:
    return "".join(card_code(c) for c in cards_of(mask))


def known_hand(replayed: Replayed, seat: int) -> int | None:
    """The cards ``seat`` holds now, where the board knows them: its hand given and, once
    it has drawn from the pack, the pack given (or, for the seat asking, its fill); else
    None, for what the stand-in holds there is a guess."""
    board, state = replayed.board, replayed.state
    if board.hands[seat] is None:
        return None
    drawn_known = board.pack is not None or seat == board.seat and board.fill is not None
    if state.fills[seat] and not drawn_known:
        return None
    return state.hands[seat]


def hand_unknown(replayed: Replayed) -> str:
    """Why the board cannot know the asking seat's hand now, or "" when it can: past its
    fill (or the pack the dealer takes) with neither the pack nor its fill given, the cards
    it drew are a stand-in's guess."""
    board, state = replayed.board, replayed.state
    if known_hand(replayed, board.seat) is not None:
        return ""
    drew = state.fills[board.seat].bit_count()
    return (
        f"seat {board.seat} drew {drew} card{'s' if drew != 1 else ''} from the pack, and "
        "the board is not told which: give its fill (or the pack) and the expert answers "
        "for the hand it holds"
    )


_TRUMP_ACTIONS = TRUMPS  # spades, hearts, diamonds, clubs: the suits' order

# --- Replaying over a stand-in deal ----------------------------------------------------

_PACK = -1  # the pack, where the stand-in deal fills it like a seat
_FILL = -10  # _FILL - seat: that seat's fill, where the stand-in deal fills it
# how many refusals the stand-in deal may learn from before the board is refused (each
# pins a card or rules some out, so a round needs far fewer; a bound on a hostile board)
_LESSONS = 400


class _StandIn:
    """A deal that holds the given hands (and pack), and for each hand not given the cards
    the actions show it held, the rest of it filled from the unseen cards.

    Each refusal by the engine teaches the deal one thing and it is dealt again: a card a
    seat plays or discards and does not hold is pinned to that seat's hand (or to the
    pack, where the table deals from it after the deal); a stand-in card that the engine's
    legal cards or discard rule say stood in the way is kept out of that seat's hand. A
    refusal nothing can teach is the board's fault. With every card given it is the deal
    itself."""

    def __init__(self, board: Board, setup: MatchSetup):
        self.board = board
        self.setup = setup
        players = setup.players
        known = 0
        for hand in board.hands:
            known |= hand or 0
        self.given = known | (_mask(board.pack) if board.pack is not None else 0)
        self.given |= board.fill or 0
        # the asking seat's fill, given and placed in the stand-in pack (the pack not given)
        self.own_fill = cards_of(board.fill) if board.fill and board.pack is None else []
        self.unseen = setup.deck & ~self.given
        self.hidden = tuple(seat for seat, hand in enumerate(board.hands) if hand is None)
        self.pins = [0] * players  # cards a hidden seat is shown to hold
        self.avoid = [0] * players  # cards that may not stand in a hidden seat's hand
        self.pack_pins = 0  # cards the dealer took from the pack after the deal
        self.avoid_dealt = [0] * players  # cards a hidden seat was not dealt (its discard)
        # discard and fill: the cards each seat is shown to get in its fill, and how many
        # cards each fill is (seen once a replay passes the fill)
        self.fill_pins: dict[int, list[int]] = {}
        # trumps a seat but the dealer was seen to play after the fill and that the
        # stand-in placed in its dealt hand: kept from its deal, or come in its fill
        self.kept_or_filled = [0] * players
        self.fill_sizes: dict[int, int] = {}
        self.fills = board.pack is None and setup.rules.exchange == "discard_and_fill"
        # a seat may hold cards from the pack only where the table deals it out later
        self.from_pack = board.pack is None and setup.rules.exchange in (
            "dealer_takes_pack",
            "discard_and_fill",
        )

    def deal(self) -> Deal:
        size = self.setup.rules.deal
        hands = [hand or 0 for hand in self.board.hands]
        for seat in self.hidden:
            hands[seat] = self.pins[seat]
        filled = [c for cards in self.fill_pins.values() for c in cards]
        pinned = self.pack_pins | sum(self.pins) | _mask(filled)
        free = cards_of(self.unseen & ~pinned)
        needs = {seat: size - self.pins[seat].bit_count() for seat in self.hidden}
        avoid = {seat: self.avoid[seat] | self.avoid_dealt[seat] for seat in self.hidden}
        order = self._fill_order()
        for seat in order:  # each fill is a place of its own, after the seat's discard
            needs[_FILL - seat] = self._fill_room(seat)
            avoid[_FILL - seat] = self.avoid[seat]
        if self.from_pack:
            # the rest goes to the dealer: it may hold nothing the dealer may not
            needs[_PACK] = len(free) - sum(needs.values())
            avoid[_PACK] = self.avoid[self.board.dealer]
            if self._own_take() and needs[_PACK] and (self.fill_sizes or not order):
                taken = needs[_PACK] + len(self.own_fill)
                raise BoardError(
                    "fill", _fill_size_refusal(self.board.seat, taken, self.board.fill)
                )
        fill = _match(free, needs, avoid) if min(needs.values(), default=0) >= 0 else None
        if fill is None:
            raise BoardError("actions", "no deal of the hands not given fits every action")
        for c, seat in fill.items():
            if seat >= 0:
                hands[seat] |= 1 << c
        if self.board.pack is not None:
            rest = list(self.board.pack)
        else:
            # each fill from the top, in turn; then the rest, which the dealer takes
            rest = []
            for seat in order:
                if seat == self.board.seat:
                    rest += self.own_fill
                rest += self.fill_pins.get(seat, [])
                rest += [c for c in free if fill.get(c) == _FILL - seat]
            rest += [c for c in free if c not in fill or fill[c] == _PACK]
            rest += cards_of(self.pack_pins)
            if self._own_take():
                rest += self.own_fill
        pack = () if self.setup.rules.is_house else tuple(rest)
        return Deal(self.board.dealer, tuple(hands), _mask(rest), pack)

    def _fill_room(self, seat: int) -> int:
        """How many stand-in cards the seat's fill still needs; none while the fills' sizes
        are not seen (the next replay sees them, and the fills are dealt again)."""
        size = self.fill_sizes.get(seat)
        if size is None:
            return 0
        pinned = len(self.fill_pins.get(seat, ()))
        if seat == self.board.seat and self.own_fill:
            if size != len(self.own_fill):
                raise BoardError("fill", _fill_size_refusal(seat, size, self.board.fill))
            pinned += size
        return size - pinned

    def _own_take(self) -> bool:
        """The asking seat is the dealer and its take from the pack is given."""
        return bool(self.own_fill) and self.board.seat == self.board.dealer

    def _fill_order(self) -> tuple[int, ...]:
        """The seats that are filled, in turn (discard and fill with no pack given)."""
        if not self.fills:
            return ()
        players, dealer = self.setup.players, self.board.dealer
        return tuple((dealer + step) % players for step in range(1, players))

    def replay(self) -> Replayed:
        for _ in range(_LESSONS):
            sizes = dict(self.fill_sizes)
            found = self._try()
            if isinstance(found, Replayed):
                if self.own_fill and sizes != self.fill_sizes:
                    continue  # the fills' sizes came to light: the given fill goes in its place
                return found
            if not self._learn(found):
                index, seat, error, _ = found
                raise BoardError("actions", _refusal(index, seat, self.board, error), index)
        raise BoardError("actions", "no deal of the hands not given fits every action")

    def _try(self):
        """The replay, or (index, seat, error, state before it) for the first refused action."""
        state = RoundState(self.setup, self.deal(), self.board.scores)
        seats = []
        for index, (given, action) in enumerate(self.board.actions):
            seat = state.current_player()
            try:
                after = state.apply(action, given)
            except IllegalAction as error:
                self._see_fills(state)
                return index, seat if given is None else given, error, state
            state = after
            seats.append(seat)
        self._see_fills(state)
        return Replayed(self.board, state, tuple(seats))

    def _see_fills(self, state: RoundState) -> None:
        if self.fills and not self.fill_sizes and any(state.fills):
            self.fill_sizes = {seat: state.fills[seat].bit_count() for seat in self._fill_order()}

    def _learn(self, found) -> bool:
        """What the refusal teaches the stand-in deal; False if it teaches nothing."""
        index, seat, _, state = found
        if state.current_player() != seat:
            return False  # out of turn: no deal changes whose turn it is
        action = self.board.actions[index][1]
        missing = _cards_of_action(action) & ~state.hands[seat]
        if missing and seat == self.board.seat and self.board.fill is not None:
            return False  # its dealt hand and its fill are given: nothing to learn
        if missing:
            c = cards_of(missing)[0]
            filled = _mask(c for cards in self.fill_pins.values() for c in cards)
            if not self.unseen >> c & 1 or (self.pack_pins | sum(self.pins) | filled) >> c & 1:
                return False  # a given card, or one another seat was shown to hold
            filled_seat = self.fills and seat != self.board.dealer
            played_after_fill = filled_seat and state.phase() is Phase.PLAY
            if played_after_fill and not state.trumps.cards >> c & 1:
                # a seat but the dealer keeps only trumps from its deal in discard and
                # fill: a plain card it plays came in its fill
                self.fill_pins.setdefault(seat, []).append(c)
            elif seat in self.hidden and self.pins[seat].bit_count() < self.setup.rules.deal:
                self.pins[seat] |= 1 << c
                if played_after_fill:
                    self.kept_or_filled[seat] |= 1 << c
            elif not played_after_fill and self.pins[seat] & self.kept_or_filled[seat]:
                # its dealt hand is full, and a card it discards shows it was dealt: a
                # trump it was only seen to play after the fill came in its fill instead
                moved = cards_of(self.pins[seat] & self.kept_or_filled[seat])[0]
                self.pins[seat] = self.pins[seat] & ~(1 << moved) | 1 << c
                self.kept_or_filled[seat] &= ~(1 << moved)
                self.fill_pins.setdefault(seat, []).append(moved)
            elif played_after_fill:
                # in discard and fill, what a seat but the dealer plays and was not dealt
                # came in its fill
                self.fill_pins.setdefault(seat, []).append(c)
            elif self.from_pack:
                self.pack_pins |= 1 << c
            else:
                return False
            return True
        if self.fills and is_discard(action) and seat != self.board.dealer:
            # a card the seat was shown to hold that its discard keeps against the rule
            # came to it in its fill
            moved = self._in_the_way(state, action) & self.pins[seat]
            if moved:
                self.pins[seat] &= ~moved
                self.fill_pins.setdefault(seat, []).extend(cards_of(moved))
                return True
        # stand-in cards only: a hidden hand's, or what a seat took from a stand-in pack
        in_the_way = (
            self._in_the_way(state, action) & ~self.pins[seat] & ~self.pack_pins & self.unseen
        )
        learned = self.avoid_dealt if is_discard(action) else self.avoid
        if not in_the_way or in_the_way & learned[seat] == in_the_way:
            return False
        learned[seat] |= in_the_way
        return True

    def _in_the_way(self, state: RoundState, action: int) -> int:
        """The stand-in cards of the seat to act that make ``action`` illegal: each card
        that alone, added to the cards the seat is known to hold, leaves the card played
        illegal (by the engine's legal cards), or each card the discard rule wants thrown."""
        seat = state.current_player()
        hand = state.hands[seat]
        if is_card(action):
            if state.legal_mask() >> action & 1:
                return 0
            sure = hand & (self.given | self.pins[seat] | self.pack_pins) | 1 << action
            if not _legal_cards(state, sure) >> action & 1:
                return 0  # the cards it surely held forbid it: no stand-in is to blame
            return sum(
                1 << c
                for c in cards_of(hand & ~sure)
                if not _legal_cards(state, sure | 1 << c) >> action & 1
            )
        if is_discard(action) and state.phase() is Phase.EXCHANGE:
            return state.discard_rule().must & ~discarded_cards(action)
        return 0


def _legal_cards(state: RoundState, hand: int) -> int:
    """The cards the seat to act could play holding ``hand``: the rules module's answer,
    as the state asks it."""
    led = state.trick[0] if state.trick else -1
    if state.trumps is None:
        return rules.legal_cards(hand, led, state.trump)
    return rules.legal_cards_full(hand, led, state.trumps, state.setup.rules.follow)


def _match(cards: list[int], needs: dict[int, int], avoid: dict[int, int]) -> dict[int, int] | None:
    """Cards for each seat's empty places, none that the seat must avoid (augmenting
    paths), or None when no such filling exists."""
    holder: dict[int, int] = {}
    held: dict[int, list[int]] = {seat: [] for seat in needs}

    def place(seat: int, seen: set[int]) -> bool:
        for c in cards:
            if avoid[seat] >> c & 1 or c in seen:
                continue
            seen.add(c)
            other = holder.get(c)
            if other is None or _move_on(other, c, seen):
                if other is not None:
                    held[other].remove(c)
                holder[c] = seat
                held[seat].append(c)
                return True
        return False

    def _move_on(seat: int, c: int, seen: set[int]) -> bool:
        # the seat holding c takes another card instead
        return place(seat, seen)

    for seat, count in needs.items():
        for _ in range(count):
            if not place(seat, set()):
                return None
    return holder


def _mask(cards) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def _cards_of_action(action: int) -> int:
    if is_card(action):
        return 1 << action
    if is_discard(action):
        return discarded_cards(action)
    return 0


def _refusal(index: int, seat: int | None, board: Board, error: IllegalAction) -> str:
    """The engine's refusal as a sentence naming the action, the seat and the card."""
    action = board.actions[index][1]
    who = f"seat {seat}" if seat is not None else "nobody"
    if is_card(action):
        what = f"could not play the {card_name(action)} ({card_code(action)})"
    elif action == PASS:
        what = "could not pass"
    elif is_bid(action):
        what = f"could not bid {bid_amount(action)}"
    elif is_trump_action(action):
        what = f"could not name {said(action)} trump"
    elif is_discard(action):
        what = "could not make that discard"
    else:
        what = "could not do that"
    return f"action {index + 1}: {who} {what}: {error}"


# --- The exact table, every card known ---------------------------------------------------


@dataclass(frozen=True)
class TableRow:
    """One line of the exact table: an opening lead (``AS``) where the first card led
    sets trump, or a trump suit (``S``) where the bidder names it; ``points`` holds, for
    each scoring unit, the most points it takes with perfect play against every other
    unit's."""

    lead: str
    points: tuple[int, ...]


def points_utility(rules: Rules, unit: int) -> solver.Utility:
    """The points ``unit`` takes, whatever the others take: the search's question for one
    entry of the table."""
    size = rules.point_count + 1
    return solver.Utility(
        frozenset({unit}), tuple(tuple(a for _ in range(size)) for a in range(size))
    )


def opening_table(board: Board) -> tuple[TableRow, ...]:
    """The exact table at the first lead, every hand known: per opening lead where the
    first card led sets trump (the auction over), per trump suit where the bidder names
    it (before trump is named where no exchange follows; after the exchange the same
    hands are valued under each suit). The bidder leads."""
    found = _known(board)
    state = found.state
    setup = state.setup
    if any(is_card(action) for action in state.history):
        raise BoardError(
            "actions", "the exact table is of the first lead: no card may be played yet"
        )
    phase = state.phase()
    units = range(setup.units)
    if setup.rules.is_house:
        if phase is not Phase.PLAY:
            raise BoardError(
                "actions", "the exact table starts at the first lead: finish the auction"
            )
        position = solver.position_of(state)
        values = [solver.action_values(position, points_utility(setup.rules, u)) for u in units]
        return tuple(TableRow(card_code(c), tuple(v[c] for v in values)) for c in sorted(values[0]))
    if phase is Phase.TRUMP and setup.rules.exchange == "none":
        positions = [solver.position_of(state.apply(trump)) for trump in _TRUMP_ACTIONS]
    elif phase is Phase.PLAY:
        played = solver.position_of(state)
        positions = [replace(played, trump=suit) for suit in range(4)]
    else:
        raise BoardError(
            "actions",
            "the table per trump needs the hands held for the tricks: "
            + ("finish the auction" if phase is Phase.AUCTION else "finish the exchange"),
        )
    return tuple(
        TableRow(
            "SHDC"[suit],
            tuple(solver.solve(positions[suit], points_utility(setup.rules, u)) for u in units),
        )
        for suit in range(4)
    )


def card_values(board: Board) -> dict[str, int]:
    """Every legal card's exact value to the seat to play, every hand known: the most
    points its unit takes after that card, with perfect play by every unit."""
    state = _known(board).state
    if state.phase() is not Phase.PLAY:
        raise BoardError("actions", "cards are valued in card play: nobody is playing a card now")
    seat = state.current_player()
    unit = state.setup.unit_of[seat]
    values = solver.action_values(
        solver.position_of(state), points_utility(state.setup.rules, unit)
    )
    return {card_code(c): values[c] for c in sorted(values)}


def _known(board: Board) -> Replayed:
    if not board.every_card_known:
        missing = [seat for seat, hand in enumerate(board.hands) if hand is None]
        raise BoardError(
            "hands",
            "the exact table needs every card: "
            + (
                f"the hands of seats {', '.join(map(str, missing))}"
                if missing
                else "the pack's order"
            ),
        )
    return replay(board)
