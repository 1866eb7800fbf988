"""Properties over random deals, every player count and any team layout.

The naive_* functions read the seed's rules a second way (lists of card codes, no bit
masks) and serve as an oracle for the engine's one copy of the rules.
"""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import record, rules
from game.engine.cards import card_code, cards_of, functional_deck
from game.engine.rules import PASS
from game.engine.state import Deal, IllegalAction, MatchSetup, MatchState, RoundState
from tests.game.engine.test_state import play_out, snapshot

ALL_ACTIONS = range(PASS + 7)


@st.composite
def setups(draw) -> MatchSetup:
    players = draw(st.integers(3, 8))
    labels = draw(st.lists(st.integers(0, players - 1), min_size=players, max_size=players))
    teams = [[s for s in range(players) if labels[s] == label] for label in sorted(set(labels))]
    return MatchSetup(players, teams)


def random_states(setup: MatchSetup, seed: int) -> list[RoundState]:
    """Every state of one round played at random."""
    rng = Random(seed)
    state = RoundState(setup, shuffle(setup, rng))
    states = [state]
    while not state.is_terminal():
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def shuffle(setup: MatchSetup, rng: Random) -> Deal:
    from game.engine.state import shuffle_deal

    return shuffle_deal(setup, rng.randrange(setup.players), rng)


# --- Conservation, legality --------------------------------------------------------


@given(setups(), st.integers(0, 2**32))
def test_cards_are_conserved_and_every_legal_action_applies(setup, seed):
    for state in random_states(setup, seed):
        played = 0
        for c in state.history[setup.players :]:
            played |= 1 << c
        held = 0
        for hand in state.hands:
            assert not held & hand
            held |= hand
        assert not held & played and not (held | played) & state.deal.hidden
        assert held | played | state.deal.hidden == functional_deck(setup.players)
        for action in state.legal_actions():
            assert state.apply(action).history == state.history + (action,)


@settings(max_examples=40)
@given(setups(), st.integers(0, 2**32))
def test_every_illegal_action_is_refused_and_changes_nothing(setup, seed):
    for state in random_states(setup, seed):
        before = snapshot(state)
        legal = set(state.legal_actions())
        for action in ALL_ACTIONS:
            if action not in legal:
                try:
                    state.apply(action)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{rules.action_code(action)} was accepted")
        if state.current_player() is not None:
            other = (state.current_player() + 1) % setup.players
            for action in legal:
                try:
                    state.apply(action, seat=other)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError("an out-of-turn action was accepted")
        assert snapshot(state) == before


# --- The oracle --------------------------------------------------------------------


def naive_legal(hand: list[str], trick: list[str], trump: str | None) -> list[str]:
    def suit(code):
        return None if code in ("J1", "J2") else code[-1]

    if not trick:
        return [c for c in hand if trump is not None or suit(c) is not None]
    led = trick[0]
    if suit(led) is None:
        return list(hand)
    trump_capable = [c for c in hand if suit(c) in (trump, None)]
    if suit(led) == trump:
        return trump_capable or list(hand)
    followers = [c for c in hand if suit(c) == suit(led)]
    return followers + trump_capable if followers else list(hand)


RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
GAME_VALUE = {"10": 10, "J": 1, "Q": 2, "K": 3, "A": 4}


def naive_winner(trick: list[str], trump: str) -> int:
    def rank(code):
        return RANK_ORDER.index(code[:-1])

    trumps = [i for i, c in enumerate(trick) if c not in ("J1", "J2") and c[-1] == trump]
    if trumps:
        return max(trumps, key=lambda i: rank(trick[i]))
    for i, c in enumerate(trick):
        if c in ("J1", "J2"):
            return i
    led = trick[0][-1]
    return max((i for i, c in enumerate(trick) if c[-1] == led), key=lambda i: rank(trick[i]))


def naive_round(state: RoundState) -> tuple[list[int], dict]:
    """Replay a finished round from its seated actions with lists; return winners and points."""
    setup = state.setup
    dealt = [[card_code(c) for c in cards_of(hand)] for hand in state.deal.hands]
    plays = [(seat, card_code(a)) for seat, a in state.seated_history()[setup.players :]]
    trump = plays[0][1][-1]
    captured: list[list[str]] = [[] for _ in setup.teams]
    winners = []
    for t in range(6):
        trick = plays[t * setup.players : (t + 1) * setup.players]
        seat, _ = trick[naive_winner([c for _, c in trick], trump)]
        winners.append(seat)
        captured[setup.unit_of[seat]].extend(c for _, c in trick)
    in_play = [c for hand in dealt for c in hand]
    trumps = sorted((c for c in in_play if c[-1] == trump and c not in ("J1", "J2")),
                    key=lambda c: RANK_ORDER.index(c[:-1]))  # fmt: skip

    def owner(code):
        return next(u for u, pile in enumerate(captured) if code in pile)

    totals = [
        sum(GAME_VALUE.get(c[:-1], 0) for c in pile if c not in ("J1", "J2")) for pile in captured
    ]
    points = {
        "high": owner(trumps[-1]),
        "low": next(setup.unit_of[s] for s, hand in enumerate(dealt) if trumps[0] in hand),
        "jack": owner("J" + trump) if "J" + trump in in_play else None,
        "jokers": sorted(owner(j) for j in ("J1", "J2") if j in in_play),
        "game": totals.index(max(totals)) if totals.count(max(totals)) == 1 else None,
    }
    return winners, points


@given(setups(), st.integers(0, 2**32))
def test_legal_actions_agree_with_a_naive_reading_of_the_rules(setup, seed):
    for state in random_states(setup, seed):
        if state.in_auction() or state.is_terminal():
            continue
        hand = [card_code(c) for c in cards_of(state.hands[state.current_player()])]
        trick = [card_code(c) for c in state.trick]
        trump = None if state.trump < 0 else "SHDC"[state.trump]
        expected = sorted(naive_legal(hand, trick, trump))
        assert sorted(card_code(c) for c in state.legal_actions()) == expected


@given(setups(), st.integers(0, 2**32))
def test_tricks_and_round_points_agree_with_a_naive_reading_of_the_rules(setup, seed):
    final = random_states(setup, seed)[-1]
    winners, points = naive_round(final)
    assert list(final.trick_winners) == winners
    p = final.result.points
    assert {
        "high": p.high,
        "low": p.low,
        "jack": p.jack,
        "jokers": list(p.jokers),
        "game": p.game,
    } == points


@given(setups(), st.integers(0, 2**32))
def test_round_points_never_exceed_what_the_deal_holds(setup, seed):
    final = random_states(setup, seed)[-1]
    available = rules.points_available(trump=final.trump, dealt=final.deal.hands)
    game_tied = final.result.points.game is None
    assert sum(final.result.raw) == available - game_tied
    assert available <= 6


# --- What a seat may see -----------------------------------------------------------


@given(setups(), st.integers(0, 2**32))
def test_a_seat_view_holds_its_own_hand_and_derives_the_same_legal_actions(setup, seed):
    for state in random_states(setup, seed)[::3]:
        for seat in range(setup.players):
            view = state.view_for(seat)
            assert view.hand == state.hands[seat]
            others = 0
            for other, hand in enumerate(state.hands):
                others |= hand if other != seat else 0
            assert view.unseen == others | state.deal.hidden
            expected = state.legal_actions() if state.current_player() == seat else []
            assert view.legal_actions() == expected


@settings(max_examples=60)
@given(setups(), st.integers(0, 2**32), st.integers(0, 60), st.integers(0, 2**32))
def test_a_seat_view_is_the_same_whatever_the_cards_it_cannot_see(setup, seed, cut, reseed):
    states = random_states(setup, seed)
    state = states[min(cut, len(states) - 1)]
    seat = reseed % setup.players
    other_deal = reshuffle_unseen(state, seat, Random(reseed))
    try:
        twin = RoundState(setup, other_deal, state.scores)
        for action in state.history:
            twin = twin.apply(action)
    except IllegalAction:
        return  # the reshuffle contradicts a shown void; that world is not consistent
    assert twin.view_for(seat) == state.view_for(seat)


def reshuffle_unseen(state: RoundState, seat: int, rng: Random) -> Deal:
    """A deal that differs only in the cards ``seat`` has not seen."""
    played_by = {}
    for s, card in state.seated_history()[state.setup.players :]:
        played_by.setdefault(s, []).append(card)
    unseen = cards_of(state.view_for(seat).unseen)
    rng.shuffle(unseen)
    hands = []
    for s, original in enumerate(state.deal.hands):
        if s == seat:
            hands.append(original)
            continue
        held = original
        for card in played_by.get(s, []):
            held &= ~(1 << card)
        hand = 0
        for card in played_by.get(s, []) + [unseen.pop() for _ in range(held.bit_count())]:
            hand |= 1 << card
        hands.append(hand)
    hidden = 0
    for card in unseen:
        hidden |= 1 << card
    return Deal(state.deal.dealer, tuple(hands), hidden)


# --- Records -----------------------------------------------------------------------


@settings(max_examples=30)
@given(setups(), st.integers(0, 2**32), st.integers(1, 25))
def test_records_read_back_to_the_same_match_and_replay_its_scores(setup, seed, target):
    rng = Random(seed)
    setup = MatchSetup(setup.players, setup.teams, target)
    match = MatchState(setup, first_dealer=rng.randrange(setup.players))
    while not match.is_terminal() and len(match.rounds) < 8:
        match = play_out(match.deal_round(rng), rng)
    unfinished = match if match.is_terminal() else match.deal_round(rng).apply(PASS)

    for written in (match, unfinished):
        text = record.dumps(written)
        assert record.read(text) == written
        replayed = record.replay(text)
        finished = [r for r in written.rounds if r.result]
        assert [r["match_after"] for r in replayed["rounds"] if r["match_after"]] == [
            list(r.result.match_after) for r in finished
        ]
        assert replayed["winner"] == written.winner
