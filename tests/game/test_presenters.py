"""The table page's public part: the trick in the middle, the round at a glance, the
opening lead (game.presenters), from a match stepped through in memory."""

from dataclasses import replace
from random import Random

import pytest
from django.template.loader import render_to_string

from game.engine import cards, notation
from game.engine.cards import cards_of
from game.engine.rules import Phase, discard_action
from game.engine.state import MatchSetup, RoundState, shuffle_deal
from game.engine.variants import PRESETS
from game.live import redraw
from game.presenters import lobby_page, pieces, summary, table_page
from tests.game.test_table_views import start_table, truth

pytestmark = pytest.mark.django_db


def _page(table, match) -> table_page.PublicPage:
    return table_page.public_page(
        table=table, seat_rows=list(table.seats.all()), match=match, rematch_code=None
    )


def _step_until(match, done):
    while not done(match):
        match = match.apply(match.legal_actions()[0])
    return match


def test_a_finished_trick_stays_in_the_middle_with_its_winner_until_a_card_is_led(client):
    table = start_table(client)
    match = _step_until(truth(table), lambda m: not m.round.public_view().in_auction)
    page = _page(table, match)
    assert page.opening_lead and page.shown_trick == () and not page.trick_done
    assert "The suit you lead is trump, and a joker may not lead" in render_to_string(
        redraw.TABLE_PARTIAL,
        {"t": table_page.TableView(public=page, view=match.round.view_for(page.view.to_act))},
    )

    match = _step_until(match, lambda m: m.round.public_view().trick_winners)
    page = _page(table, match)
    view = match.round.public_view()
    assert [p.seat for p in page.shown_trick] == [s for s, _ in view.trick(0)]
    assert page.shown_trick_winner == view.trick_winners[0] and page.trick_done
    html = render_to_string(redraw.TABLE_PARTIAL, {"t": page})
    assert (
        f'class="trick trick--done won-by-{view.trick_winners[0]}"' in html
        and f'data-winner="{view.trick_winners[0]}"' in html
    )
    assert html.count("trick__play--winner") == 1

    led = match.apply(match.legal_actions()[0])
    page = _page(table, led)
    assert len(page.shown_trick) == 1 and not page.trick_done and not page.opening_lead


def test_the_last_rounds_final_trick_stands_only_until_the_next_rounds_first_bid(client):
    table = start_table(client)
    match = _step_until(truth(table), lambda m: m.round.is_terminal())
    final = match.round.public_view()
    match = match.deal_round(Random(3))
    page = _page(table, match)
    assert page.trick_of_last_round
    assert [notation.card(c) for _, c in final.trick(len(final.trick_winners) - 1)] == [
        p.code for p in page.shown_trick
    ]

    bid = match.apply(match.legal_actions()[0])
    assert _page(table, bid).shown_trick == ()


def test_the_glance_counts_each_sides_game_and_settles_points_only_once_captured(client):
    table = start_table(client)
    match = truth(table)
    while True:
        view = match.round.public_view()
        if view.trump is not None:
            glance = _page(table, match).glance
            taken = view.taken
            assert [g.game_count for g in glance] == [cards.game_total(t) for t in taken]
            for side in glance:
                if "Jack" in side.points:
                    assert taken[side.unit] >> (view.trump * 13 + cards.JACK) & 1
                jokers = cards.count(taken[side.unit] & cards.JOKERS)
                assert side.points.count("Joker") == jokers
        if match.round.is_terminal():
            break
        match = match.apply(match.legal_actions()[0])
    # once every card is played, the glance agrees with the round's own result
    points = view.result.points
    glance = _page(table, match).glance
    assert "Jack" not in [p for g in glance for p in g.points] or points.jack is not None
    assert sorted(u for g in glance for p in g.points if p == "Joker" for u in [g.unit]) == list(
        points.jokers
    )


def _lobby(names, *, is_host) -> lobby_page.LobbyView:
    seats = tuple(
        lobby_page.LobbySeat(n, name, None, None, is_you=n == 0, is_host=n == 0)
        for n, name in enumerate(names)
    )
    return lobby_page.LobbyView(
        code="K7M2QXR4PW",
        status="lobby",
        players=len(names),
        target=21,
        public=False,
        teams=(),
        path="/table/K7M2QXR4PW/",
        share_url="http://testserver/table/K7M2QXR4PW/",
        host_name="Ann",
        seats=seats,
        your_seat=0,
        is_host=is_host,
        signed_in=True,
        bot_levels=(),
    )


def test_the_lobby_counts_its_empty_seats_in_words_that_agree_with_the_count():
    assert _lobby(["Ann", None, None, None], is_host=True).seats_words == (
        "Waiting for players: 3 of 4 seats are empty."
    )
    assert _lobby(["Ann", "Bea", None], is_host=True).seats_words == (
        "Waiting for players: 1 of 3 seats is empty."
    )


def test_a_full_lobby_says_who_starts_the_match_not_that_no_seat_is_empty():
    full = ["Ann", "Bea", "Cal", "Dee"]

    assert _lobby(full, is_host=True).seats_words == (
        "Every seat is taken: start the match when you are ready."
    )
    guest_words = _lobby(full, is_host=False).seats_words
    assert guest_words == "Every seat is taken: waiting for Ann to start the match."
    assert "0 of" not in guest_words


def _seat_page(table, match) -> str:
    page = _page(table, match)
    return render_to_string(
        redraw.TABLE_PARTIAL, {"t": table_page.TableView(public=page, view=match.view_for(0))}
    )


def test_the_tricks_each_side_has_taken_are_counted_in_the_glance(client):
    table = start_table(client)
    match = truth(table)
    while not match.round.is_terminal():
        view = match.round.public_view()
        if view.trump is not None:
            glance = _page(table, match).glance
            won = [view.unit_of[w] for w in view.trick_winners]
            assert [g.tricks for g in glance] == [won.count(g.unit) for g in glance]
            assert [g.side for g in glance] == ["A", "B"]
        match = match.apply(match.legal_actions()[0])
    assert sum(g.tricks for g in _page(table, match).glance) == 6


def test_every_seat_shows_its_sides_letter_and_the_viewers_partners_are_marked(client):
    table = start_table(client)  # 2 against 2: seats 0 and 2 are side A
    page = _page(table, truth(table))

    assert [s.side for s in page.seats] == ["A", "B", "A", "B"]
    assert [u.side for u in page.units] == ["A", "B"]
    html = _seat_page(table, truth(table))
    seats = html.split('aria-label="Seats"', 1)[1].split("</ul>", 1)[0]
    assert seats.count('title="Side A"') == 2 and seats.count('title="Side B"') == 2
    assert "you-0 ours-0" in html  # site.css shows "partner" on side A's other seat
    assert "Your side" in html and "Side B" in html


def test_a_cutthroat_table_has_no_side_letters(client):
    table = start_table(client, players="3", layout="cutthroat", bot_3="")
    page = _page(table, truth(table))

    assert [s.side for s in page.seats] == [None, None, None]
    assert "side-badge" not in _seat_page(table, truth(table))


def test_the_turn_to_bid_says_the_high_bid_and_who_holds_it(client):
    table = start_table(client)
    match = truth(table)
    view = match.round.public_view()
    names = {s.number: s.display_name for s in table.seats.all()}
    assert table_page.high_bid_words(view, names) == "Nobody has bid yet."

    bid = next(a for a in match.legal_actions() if notation.action(a).startswith("bid:"))
    bidder = view.to_act
    match = match.apply(bid)
    words = table_page.high_bid_words(match.round.public_view(), names)
    assert words == f"High bid: {notation.action(bid)[4:]}, by {names[bidder]}."
    played = _step_until(match, lambda m: not m.round.public_view().in_auction)
    assert table_page.high_bid_words(played.round.public_view(), names) == ""


def test_the_round_summary_links_to_the_review_of_that_round_for_a_seat_not_a_spectator(
    client,
):
    table = start_table(client)
    match = _step_until(truth(table), lambda m: m.round.is_terminal()).deal_round(Random(3))
    page = _page(table, match)
    review = f"/learn/review/{table.code}/1/"

    assert review in _seat_page(table, match)
    spectator = render_to_string(redraw.TABLE_PARTIAL, {"t": table_page.SpectatorView(page)})
    assert review not in spectator and "Round summary" in spectator


def test_who_leads_is_told_to_the_leader_as_you_and_to_the_others_by_name(client):
    table = start_table(client)
    match = _step_until(truth(table), lambda m: not m.round.public_view().in_auction)
    page = _page(table, match)
    leader = page.leader
    other = (leader + 1) % table.players
    mine = table_page.TableView(public=page, view=match.view_for(leader))
    theirs = table_page.TableView(public=page, view=match.view_for(other))

    assert mine.leader_words == "You lead."
    assert theirs.leader_words == f"{page.leader_name} leads."
    assert table_page.SpectatorView(public=page).leader_words == f"{page.leader_name} leads."
    assert "You lead." in render_to_string(redraw.TABLE_PARTIAL, {"t": mine})
    assert "(guest) leads" not in render_to_string(redraw.TABLE_PARTIAL, {"t": theirs})


def test_the_score_by_round_lists_each_sides_score_after_every_finished_round(client):
    table = start_table(client)
    match = truth(table)
    for _ in range(2):
        match = _step_until(match, lambda m: m.round.is_terminal())
        if match.is_terminal():
            break
        match = match.deal_round(Random(len(match.rounds)))
    page = _page(table, match)
    finished = [r for r in match.rounds if r.is_terminal() and not r.result.redeal]
    assert [scores for _, scores in page.score_by_round] == [r.result.match_after for r in finished]
    html = render_to_string(redraw.TABLE_PARTIAL, {"t": page})
    assert "Score by round" in html and html.count('<th scope="row">') >= len(finished)


def test_a_finished_rounds_glance_credits_every_point_the_summary_does(client):
    table = start_table(client)
    match = _step_until(truth(table), lambda m: m.round.is_terminal())
    page = _page(table, match)
    scored = match.round.result.points.by_name()
    game = scored["game"]
    for side in page.glance:
        assert ("Game" in side.points) is (side.unit == game), (side, game)


def _finished_round(preset: str, seed: int):
    setup = MatchSetup.partnerships(4, 2, rules=PRESETS[preset])
    state = RoundState(setup, shuffle_deal(setup, 0, Random(seed)))
    while not state.is_terminal():
        if state.phase() is Phase.EXCHANGE:
            rule = state.discard_rule()
            state = state.apply(discard_action(rule.pick(cards_of(rule.optional))))
        else:  # the first seat bids, the rest pass
            state = state.apply(state.legal_actions()[0 if not state.high_bid else -1])
    assert not state.result.redeal
    return state.public_view()


@pytest.mark.parametrize(
    ("preset", "verbs"),
    [
        ("house", {"High": "taken by", "Low": "dealt to", "Jack": "taken by"}),
        ("seven_point", {"High": "played by", "Low": "played by", "Jack": "taken by"}),
    ],
)
def test_the_round_summary_says_how_each_point_went_as_the_engine_scores_it(preset, verbs):
    view = _finished_round(preset, seed=4)
    names = {seat: f"P{seat}" for seat in range(4)}
    lines = {line.label: line.verb for line in summary.round_summary(1, view, names).points}
    assert {label: lines[label] for label in verbs if label in lines} == {
        label: verb for label, verb in verbs.items() if label in lines
    }
    assert lines["Game"] == "taken by"


def _round_states(preset: str, seed: int) -> list[RoundState]:
    """Every state of one round at ``preset``, four players in two sides, played at random."""
    setup = MatchSetup.partnerships(4, 2, rules=PRESETS[preset])
    rng = Random(seed)
    state = RoundState(setup, shuffle_deal(setup, 0, rng))
    states = [state]
    while not state.is_terminal():
        if state.phase() is Phase.EXCHANGE:
            rule = state.discard_rule()
            state = state.apply(discard_action(rule.pick(cards_of(rule.optional))))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


@pytest.mark.parametrize("preset", ["house", "classic", "seven_point"])
def test_the_glance_names_each_point_only_once_the_round_has_settled_it(preset):
    names = {seat: f"P{seat}" for seat in range(4)}
    for seed in range(3):
        for state in _round_states(preset, seed):
            view = state.public_view()
            sides = pieces.units(view, names, view.scores)
            for side in table_page._glance(view, sides):
                settled = [p for p in view.points_taken if p.unit == side.unit]
                assert sorted(side.points) == sorted(notation.point_word(p.kind) for p in settled)
                assert side.tricks == sum(t.unit == side.unit for t in view.tricks_won)
        final = [line for line in view.round_scored.points if line.unit is not None]
        assert sum(len(g.points) for g in table_page._glance(view, sides)) == len(final)


def test_the_exchange_notes_say_each_seats_counts_as_the_round_told_them():
    names = {seat: f"P{seat}" for seat in range(4)}
    state = next(s for s in _round_states("seven_point", 1) if s.phase() is Phase.PLAY)
    view = state.public_view()
    notes = table_page.exchange_notes(view, names)
    dealer = view.dealer
    thrown, got = view.discard_counts, view.fill_counts
    assert notes[dealer] == (
        f"P{dealer} took {got[dealer]} cards from the pack and discarded {thrown[dealer]}"
    )
    for seat in set(range(4)) - {dealer}:
        said = f"P{seat} discarded {thrown[seat]}" + (f", was dealt {got[seat]}" * bool(got[seat]))
        assert notes[seat] == said


def test_the_last_rounds_summary_is_made_once_and_lent_to_the_next_versions_page(
    client, monkeypatch
):
    table = start_table(client)
    match = _step_until(truth(table), lambda m: m.round.is_terminal()).deal_round(Random(3))
    made = []
    real = table_page.round_summary
    monkeypatch.setattr(table_page, "round_summary", lambda *a: made.append(a) or real(*a))
    first = _page(table, match)
    seats = list(table.seats.all())

    def page(match, before):
        return table_page.public_page(
            table=table, seat_rows=seats, match=match, rematch_code=None, before=before
        )

    moved = page(match.apply(match.legal_actions()[0]), first)
    renamed = page(match, replace(first, seat_names={**first.seat_names, 0: "Someone else"}))

    assert moved.previous is first.previous
    assert len(made) == 2  # once for the first page, again where a name changed
    assert renamed.previous is not first.previous
