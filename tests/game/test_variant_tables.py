"""Tables of every preset in play: naming trump, the discard (legal, illegal, forged), the
redeal, what a seat's page shows of the exchange, and a full-deck table replayed from the
database equal to the engine's match."""

from __future__ import annotations

import random

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from game import selectors
from game.engine import record, rules, variants
from game.engine.cards import SUITS, card_code, cards_of, mask_of, parse_card
from game.engine.state import Deal, MatchSetup, MatchState
from game.errors import TableError
from game.live import redraw, store
from game.models import ActionLog, Round, Seat, Table
from game.players.identity import GUEST_TOKEN, SeatOwner
from game.services import play

pytestmark = pytest.mark.django_db

OWNERS = [SeatOwner(session_key=f"guest-{n}-0123456789abcdef") for n in range(6)]


def people_table(table_rules: variants.Rules, players: int = 4, teams=None) -> Table:
    """A table of ``table_rules`` where a person sits in every seat."""
    teams = teams or ([[0, 2], [1, 3]] if players == 4 else [[0, 2, 4], [1, 3, 5]])
    table = play.table_create_vs_bots(
        owner=OWNERS[0],
        players=players,
        teams=teams,
        bot_levels=["greedy"] * (players - 1),
        table_rules=table_rules,
    )
    for n in range(1, players):
        Seat.objects.filter(table=table, number=n).update(
            bot_level=None, session_key=OWNERS[n].session_key, display_name=f"Guest {n}"
        )
    return table


def truth(table: Table) -> MatchState:
    table.refresh_from_db()
    return store.match_for_table(table)


def act(table: Table, code: str) -> None:
    """The seat to act plays ``code``."""
    seat = truth(table).current_player()
    play.table_play(table_id=table.pk, seat_owner=OWNERS[seat], action=code)


def legal_discard(match: MatchState) -> int:
    """A discard the rule allows: every card that must go, then the first that may."""
    rule = match.round.discard_rule()
    chosen = rule.must
    for card in cards_of(rule.may & ~rule.must):
        if chosen.bit_count() >= rule.count:
            break
        chosen |= 1 << card
    return chosen


def discard_code(mask: int) -> str:
    return "discard:" + ",".join(card_code(c) for c in cards_of(mask))


def to_trump(table: Table, bid: str = "bid:2") -> int:
    """The first seat bids, the rest pass: the bidder's seat, now naming trump."""
    act(table, bid)
    while truth(table).round.phase() is rules.Phase.AUCTION:
        act(table, "pass")
    return truth(table).current_player()


def page(table: Table, owner: SeatOwner) -> str:
    table.refresh_from_db()
    return render_to_string(
        redraw.TABLE_PARTIAL, selectors.table_page_context(table=table, seat_owner=owner)
    )


def test_a_table_stores_its_rules_and_its_pack_in_order():
    table = people_table(variants.CLASSIC.with_options(follow="schmier"))

    assert table.rules == {"preset": "classic", "follow": "schmier"}
    assert store.table_setup(table).rules.follow == "schmier"
    deal = Round.objects.get(table=table, number=0)
    assert len(deal.hands[0]) == 9
    match = truth(table)
    assert match.round.deal.pack == tuple(parse_card(code) for code in deal.hidden)


def test_a_table_made_before_variants_reads_as_house():
    table = people_table(variants.HOUSE)
    Table.objects.filter(pk=table.pk).update(rules="house")

    assert store.table_setup(table).rules == variants.HOUSE
    assert table.rules == "house"


def test_the_auction_offers_the_presets_bids():
    table = people_table(variants.CLASSIC)
    seat = truth(table).current_player()

    body = page(table, OWNERS[seat])

    assert 'value="bid:2"' in body and 'value="bid:4"' in body
    assert 'value="bid:1"' not in body and 'value="bid:5"' not in body
    assert "Classic four-point" in body and "#classic" in body


def test_the_bidder_names_trump_and_nobody_else_can():
    table = people_table(variants.CLASSIC)
    bidder = to_trump(table)
    other = (bidder + 1) % 4
    body = page(table, OWNERS[bidder])
    assert 'value="trump:S"' in body and "name trump" in body
    assert 'value="trump:S"' not in page(table, OWNERS[other])
    before = ActionLog.objects.count()

    with pytest.raises(TableError, match="not your turn"):
        play.table_play(table_id=table.pk, seat_owner=OWNERS[other], action="trump:S")
    with pytest.raises(TableError, match="cannot be played"):
        play.table_play(table_id=table.pk, seat_owner=OWNERS[bidder], action="trump:X")
    with pytest.raises(TableError, match="not a suit"):
        play.table_play(table_id=table.pk, seat_owner=OWNERS[bidder], action="pass")
    assert ActionLog.objects.count() == before

    play.table_play(table_id=table.pk, seat_owner=OWNERS[bidder], action="trump:H")
    match = truth(table)
    assert match.round.trump == SUITS.index("H")
    assert match.round.phase() is rules.Phase.EXCHANGE
    assert ActionLog.objects.filter(table=table).last().action == "trump:H"


def test_an_illegal_discard_is_refused_in_the_rules_words_and_changes_nothing():
    table = people_table(variants.CLASSIC)
    bidder = to_trump(table)
    act(table, "trump:S")
    match = truth(table)
    seat = match.current_player()
    rule = match.round.discard_rule()
    hand = match.round.hands[seat]
    too_few = mask_of(cards_of(hand)[: rule.count - 1])
    before = (ActionLog.objects.count(), truth(table).round.history)

    with pytest.raises(TableError) as refused:
        play.table_play(table_id=table.pk, seat_owner=OWNERS[seat], action=discard_code(too_few))
    assert str(refused.value) == rule.why_not(too_few, hand)
    with pytest.raises(TableError, match="not in your hand"):
        not_mine = cards_of(match.round.hands[(seat + 1) % 4])[:3]
        play.table_play(
            table_id=table.pk, seat_owner=OWNERS[seat], action=discard_code(mask_of(not_mine))
        )
    if rule.may != hand:  # a seat holding trumps: a trump may not go
        keep = cards_of(hand & ~rule.may)[0]
        wrong = mask_of([keep, *cards_of(rule.may)[: rule.count - 1]])
        with pytest.raises(TableError, match="may not be discarded"):
            play.table_play(table_id=table.pk, seat_owner=OWNERS[seat], action=discard_code(wrong))
    assert bidder is not None
    assert (ActionLog.objects.count(), truth(table).round.history) == before


@pytest.mark.parametrize("forged", ["discard:ZZ", "discard:AS,AS", "discard:" + "AS," * 40])
def test_a_forged_discard_is_refused_in_words(forged):
    table = people_table(variants.CLASSIC)
    to_trump(table)
    act(table, "trump:S")
    seat = truth(table).current_player()
    before = ActionLog.objects.count()

    with pytest.raises(TableError, match="cannot be played"):
        play.table_play(table_id=table.pk, seat_owner=OWNERS[seat], action=forged)
    assert ActionLog.objects.count() == before


def test_a_legal_discard_through_the_page_form_is_stored_and_shown_only_to_its_seat(client):
    table = people_table(variants.CLASSIC)
    to_trump(table)
    act(table, "trump:C")
    match = truth(table)
    seat = match.current_player()
    chosen = legal_discard(match)
    codes = [card_code(c) for c in cards_of(chosen)]
    session = client.session
    session[GUEST_TOKEN] = OWNERS[seat].session_key
    session.save()
    body = page(table, OWNERS[seat])
    assert "discard-form" in body and "data-card-chooser" in body

    response = client.post(
        f"/table/{table.code}/play",
        {"action": "discard", "mode": "throw", "card": codes, "index": len(match.round.history)},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    stored = ActionLog.objects.filter(table=table).last()
    assert stored.action == discard_code(chosen) and stored.seat == seat
    assert truth(table).round.discards[seat] == chosen
    mine = page(table, OWNERS[seat])
    assert "You discarded" in mine and all(f'data-card="{c}"' in mine for c in codes)
    for other in range(4):
        if other == seat:
            continue
        theirs = page(table, OWNERS[other])
        assert not any(f'data-card="{c}"' in theirs for c in codes)
        assert f"Guest {seat} discarded {len(codes)}" in theirs or "Guest discarded" in theirs


def test_everyone_passing_redeals_with_the_same_dealer():
    table = people_table(variants.CLASSIC)
    dealer = truth(table).round.dealer
    for _ in range(4):
        act(table, "pass")

    match = truth(table)
    assert len(match.rounds) == 2 and match.rounds[0].result.redeal
    assert match.round.dealer == dealer
    assert match.scores == (0, 0)
    name = Seat.objects.get(table=table, number=dealer).display_name
    assert f"Everyone passed: {name} deals again" in page(table, OWNERS[0])


def play_out(table: Table, seats: int, rng: random.Random, sent: list[str]) -> None:
    """The current round to its end through the play service, legally and at random."""
    number = len(truth(table).rounds)
    while True:
        match = truth(table)
        if len(match.rounds) != number or match.is_terminal():
            return
        state = match.round
        phase = state.phase()
        if phase is rules.Phase.AUCTION:
            code = rules.action_code(rng.choice(state.legal_actions()))
        elif phase is rules.Phase.TRUMP:
            code = rules.action_code(rng.choice(state.legal_actions()))
        elif phase is rules.Phase.EXCHANGE:
            code = discard_code(legal_discard(match))
        else:
            code = rules.action_code(rng.choice(state.legal_actions()))
        sent.append(code)
        play.table_play(table_id=table.pk, seat_owner=OWNERS[match.current_player()], action=code)
        if seats == 4:  # a redraw's pages are the pages drawn alone, in every phase
            from tests.game.live.test_parts import _pages_alone, _pages_of_a_redraw

            assert _pages_of_a_redraw(table.pk) == _pages_alone(table.pk)
        else:  # nobody's page ever crashes, whatever the phase
            for other in range(seats):
                page(table, OWNERS[other])


@pytest.mark.parametrize(
    ("preset", "players"),
    [(variants.CLASSIC, 4), (variants.SEVEN_POINT, 4), (variants.SIX_HANDED, 6)],
)
def test_a_full_deck_table_replayed_from_the_database_equals_the_engines_match(preset, players):
    table = people_table(preset, players)
    rng = random.Random(players * 7 + len(preset.preset))
    sent: list[str] = []
    for _ in range(3):
        play_out(table, players, rng, sent)
    table.refresh_from_db()

    # the engine's match, from the stored deals and the codes the test sent
    setup = MatchSetup(players, store.table_setup(table).teams, rules=preset)
    engine = MatchState(setup, table.first_dealer)
    codes = iter(sent)
    for row in Round.objects.filter(table=table).order_by("number"):
        pack = tuple(parse_card(c) for c in row.hidden)
        hands = tuple(mask_of(parse_card(c) for c in hand) for hand in row.hands)
        engine = engine.start_round(Deal(row.dealer, hands, mask_of(pack), pack))
        number = len(engine.rounds)
        while len(engine.rounds) == number and not engine.round.is_terminal():
            code = next(codes, None)
            if code is None:  # the round just dealt: nobody has acted yet
                break
            engine = engine.apply(rules.parse_action_code(code), engine.current_player())
    assert next(codes, None) is None

    replayed = store._replay(table)
    assert replayed == engine
    assert record.write(replayed) == record.write(engine)
    finished = store.finished_match_for_table(table)
    assert record.read(record.write(finished)) == finished


# --- Creating a table: the presets and their options ------------------------------------

BOTS = {"layout": "2v2", "players": "4", "bot_1": "greedy", "bot_2": "greedy", "bot_3": "greedy"}


def test_the_play_form_offers_the_presets_with_the_house_rules_chosen(client):
    body = client.get("/play/").text

    for name in ("house", "classic", "six_handed", "seven_point"):
        assert f'value="{name}"' in body
    assert 'value="house" selected' in body
    assert 'name="jokers"' in body and 'name="jick"' in body and 'name="follow"' in body


def test_a_classic_table_with_options_is_made_and_remembered(client):
    form = {**BOTS, "preset": "classic", "jokers": "1", "jick": "yes", "follow": "schmier"}
    response = client.post("/play/", {**form, "target": "11"})

    assert response.status_code == 302
    table = Table.objects.get()
    table_rules = store.table_setup(table).rules
    assert (table_rules.preset, table_rules.jokers, table_rules.jick) == ("classic", 1, True)
    assert table_rules.follow == "schmier" and table.target == 11
    assert table_rules.max_bid == 6  # high, low, jack, jick, joker, game
    again = client.get("/play/").text
    assert 'value="classic" selected' in again and 'value="schmier" selected' in again


@pytest.mark.parametrize(
    ("forged", "said"),
    [
        ({"preset": "cribbage"}, "There is no game called cribbage"),
        ({"preset": "classic", "jokers": "3"}, "Select a valid choice"),
        ({"preset": "classic", "target": "4"}, "greater than or equal to 5"),
        ({"preset": "classic", "target": "500"}, "less than or equal to 100"),
        ({"preset": "house", "jokers": "1"}, "The house rules take no options"),
        ({"preset": "seven_point", "players": "6", "layout": "3v3"}, "played by 4 players"),
        ({"preset": "six_handed"}, "played by 6 players"),
        ({"preset": "classic", "players": "6", "layout": "3v3"}, "played by 2, 3, 4, 5"),
        ({"preset": "house", "players": "2", "layout": "cutthroat"}, "played by 3, 4"),
        (
            {"preset": "six_handed", "players": "6", "layout": "2v2v2"},
            "every seat for itself, or two sides",
        ),
    ],
)
def test_a_forged_table_form_is_refused_in_words_and_makes_nothing(client, forged, said):
    form = {**BOTS, **{f"bot_{n}": "greedy" for n in range(4, 6)}, **forged}

    response = client.post("/play/", form)

    assert response.status_code == 200 and said in response.text
    assert not Table.objects.exists()


def test_a_six_handed_table_three_against_three_is_made(client):
    form = {**BOTS, **{f"bot_{n}": "greedy" for n in range(4, 6)}}
    response = client.post(
        "/play/", {**form, "preset": "six_handed", "players": "6", "layout": "3v3"}
    )

    assert response.status_code == 302
    table = Table.objects.get()
    assert table.rules == "six_handed" and table.teams == [[0, 2, 4], [1, 3, 5]]


# --- Against bots: history, the replay, the records, the review, spectators ---------------


def bot_round(table: Table, rng: random.Random) -> None:
    """Seat 0 (a person) and the bots play until a round more has finished."""
    from tests.game.driving import bots_answer

    finished = len(store.finished_match_for_table(table).rounds)
    for _ in range(400):
        bots_answer(table.pk)
        match = truth(table)
        if len(store.finished_match_for_table(table).rounds) > finished or match.is_terminal():
            return
        assert match.current_player() == 0
        state = match.round
        if state.phase() is rules.Phase.EXCHANGE:
            code = discard_code(legal_discard(match))
        else:
            code = rules.action_code(rng.choice(state.legal_actions()))
        play.table_play(table_id=table.pk, seat_owner=OWNERS[0], action=code)
    raise AssertionError("the round did not finish")


@pytest.mark.parametrize("preset", ["classic", "seven_point"])
def test_a_round_against_bots_has_its_history_replay_record_and_review(client, preset):
    table = play.table_create_vs_bots(
        owner=OWNERS[0],
        players=4,
        teams=[[0, 2], [1, 3]],
        bot_levels=["greedy", "expert", "greedy"],
        table_rules=variants.PRESETS[preset],
    )
    rng = random.Random(3)
    bot_round(table, rng)
    bot_round(table, rng)
    session = client.session
    session[GUEST_TOKEN] = OWNERS[0].session_key
    session.save()

    body = client.get(f"/table/{table.code}/").text
    assert "Hand history" in body and "rounds/1/" in body
    replay = client.get(f"/table/{table.code}/rounds/1/?trick=6")
    assert replay.status_code == 200
    first = store.finished_match_for_table(table).rounds[0]
    if not first.result.redeal:  # nobody's discard is shown, even after the round
        discarded = [c for seat in range(1, 4) for c in cards_of(first.discards[seat])]
        assert discarded and not any(
            f'data-card="{card_code(c)}"' in replay.text for c in discarded
        )
        names = notation_names(preset)
        assert all(name in replay.text for name in names)
    download = client.get(f"/table/{table.code}/record").json()
    assert download["rules"] == preset
    assert record.read(download) == store.finished_match_for_table(table)
    review = client.get(reverse("learn:round_review", args=[table.code, 1])).text
    assert "Review my decisions" in review  # every preset's round is reviewed
    watcher = client.__class__()
    watching = watcher.get(f"/table/{table.code}/")
    assert watching.status_code == 200 and "You are watching" in watching.text


def notation_names(preset: str) -> tuple[str, ...]:
    from game.engine import notation

    return notation.point_names(variants.PRESETS[preset])


def test_seven_point_each_seat_sees_its_own_fill_and_the_dealer_the_pack_it_took():
    table = people_table(variants.SEVEN_POINT)
    to_trump(table)
    act(table, "trump:D")
    while truth(table).round.phase() is rules.Phase.EXCHANGE:
        match = truth(table)
        if match.current_player() == match.round.dealer:
            break
        act(table, discard_code(legal_discard(match)))
    state = truth(table).round
    dealer = state.dealer
    assert state.current_player() == dealer
    for seat in range(4):
        own = page(table, OWNERS[seat])
        fill = [card_code(c) for c in cards_of(state.fills[seat])]
        words = "The pack you took" if seat == dealer else "Dealt to you"
        assert (words in own) == bool(fill)
        exchange = own.split('aria-label="Your exchange"', 1)[-1].split("</ul>", 1)[0]
        assert all(f'data-card="{code}"' in exchange for code in fill)
        for other in range(4):
            if other == seat:
                continue
            theirs = page(table, OWNERS[other]).split('aria-label="Your exchange"', 1)
            shown = theirs[1].split("</ul>", 1)[0] if len(theirs) > 1 else ""
            hand = [card_code(c) for c in cards_of(state.hands[other])]
            hidden = set(fill) - set(hand)
            assert not any(f'data-card="{code}"' in shown for code in hidden)
        if fill and seat != dealer:
            assert f"discarded {state.discards[seat].bit_count()}, was dealt {len(fill)}" in (
                page(table, OWNERS[(seat + 1) % 4])
            )
    spectator = page(table, SeatOwner(session_key="watching-0123456789abcdef"))
    for seat in range(4):
        for c in cards_of(state.fills[seat] | state.discards[seat]):
            assert f'data-card="{card_code(c)}"' not in spectator


def test_a_discards_cards_never_travel_in_a_move_announcement(monkeypatch):
    from game.live import events

    heard = []
    monkeypatch.setattr(events, "announce", heard.append)
    table = people_table(variants.CLASSIC)
    to_trump(table)
    act(table, "trump:S")
    heard.clear()
    act(table, discard_code(legal_discard(truth(table))))

    assert heard and all(getattr(event, "move", None) is None for event in heard)


def test_a_users_game_choice_comes_back_at_their_next_log_in_anywhere(client, django_user_model):
    from django.test import Client

    from game.players import profiles

    user = django_user_model.objects.create_user(username="mae", password="x-long-password-9")
    profiles.profile_get_or_create(user=user)
    client.force_login(user)
    form = {**BOTS, "preset": "seven_point", "jokers": "", "target": "31"}
    assert client.post("/play/", form).status_code == 302

    elsewhere = Client()
    elsewhere.force_login(user)
    body = elsewhere.get("/play/").text
    assert 'value="seven_point" selected' in body and 'value="31"' in body
