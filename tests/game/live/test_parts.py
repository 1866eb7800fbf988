"""A redraw's pages: the page outside its seat parts drawn once from the table's public
part, each seat's own parts filled in (game.live.parts.draw_each). Every page is
the one its owner would get alone, at every point of a whole match."""

import random
from dataclasses import replace

import pytest
from django.template import TemplateSyntaxError
from django.template.loader import render_to_string
from django.utils import timezone

from game import selectors
from game.bots.basic import GreedyBot
from game.engine.cards import card_code, cards_of
from game.live import parts, redraw, store
from game.models import Seat, Table
from game.players.identity import SeatOwner
from game.presenters.pieces import Play
from game.services import play

pytestmark = pytest.mark.django_db

OWNERS = [SeatOwner(session_key=f"guest-{n}-0123456789abcdef") for n in range(4)]
SPECTATOR = SeatOwner(session_key="watching-0123456789abcdef")


def _people_table(target: int) -> Table:
    table = play.table_create_vs_bots(
        owner=OWNERS[0],
        players=4,
        teams=[[0, 2], [1, 3]],
        bot_levels=["greedy"] * 3,
        target=target,
    )
    for n in range(1, 4):
        Seat.objects.filter(table=table, number=n).update(
            bot_level=None, session_key=OWNERS[n].session_key, display_name=f"Guest {n}"
        )
    return table


def _pages_alone(table_id: int) -> dict[SeatOwner, str]:
    table = Table.objects.get(pk=table_id)
    return {
        owner: render_to_string(
            redraw.TABLE_PARTIAL, selectors.table_page_context(table=table, seat_owner=owner)
        )
        + redraw.version_html(table.moves)  # every live message says the table's version
        for owner in [*OWNERS, SPECTATOR]
    }


def _pages_of_a_redraw(table_id: int) -> dict[SeatOwner, str]:
    job = redraw._Job(loop=None, waiting={*OWNERS, SPECTATOR}, versions=[None])
    return redraw._render_job(table_id, job)


def test_every_page_of_a_redraw_is_the_page_drawn_alone_through_a_whole_match():
    rng = random.Random(7)
    table = _people_table(target=11)  # a few rounds
    moves = 0
    while True:
        table.refresh_from_db()
        # every move for a while, then now and then: a random match may run long
        if moves < 150 or moves % 25 == 0 or table.status == Table.Status.FINISHED:
            assert _pages_of_a_redraw(table.pk) == _pages_alone(table.pk), f"after {moves}"
        if table.status == Table.Status.FINISHED:
            break
        match = store.match_for_table(table)
        seat = match.current_player()
        if moves == 30:  # a bot stands in for seat 1 for a while: its page says so
            Seat.objects.filter(table=table, number=1).update(away_since=timezone.now())
        # the greedy bot's choice: random play seldom makes a bid, and the match runs on
        action = GreedyBot().choose(match.view_for(seat), match.legal_actions(), rng)
        play.table_play(table_id=table.pk, seat_owner=OWNERS[seat], action=action)
        moves += 1
        assert moves < 2000, "the match should have ended"
    play.table_rematch(table_id=table.pk, owner=OWNERS[2])  # the finished page links to it
    assert _pages_of_a_redraw(table.pk) == _pages_alone(table.pk)
    assert moves > 30, moves
    # a later round shows the last one's summary and history (a match to 11 may end in two)
    assert len(store.match_for_table(table).rounds) >= 2


def test_the_public_draw_holds_no_hand_and_each_page_only_its_own():
    table = _people_table(target=21)
    match = store.match_for_table(table)
    drawn_once = []
    real = parts.draw_partial

    def counting(name, context=None, *args, **kwargs):
        if name == redraw.TABLE_PARTIAL:
            drawn_once.append(dict(context))
        return real(name, context, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parts, "draw_partial", counting)
        pages = _pages_of_a_redraw(table.pk)

    assert len(drawn_once) == 1  # the page outside its seat parts: once for five pages
    hands = [{card_code(c) for c in cards_of(hand)} for hand in match.round.hands]
    for seat, owner in enumerate(OWNERS):
        shown = set(tables_cards(pages[owner]))
        assert hands[seat] <= shown
        assert not any(hands[other] & shown for other in range(4) if other != seat)
    assert not any(hand & set(tables_cards(pages[SPECTATOR])) for hand in hands)


def tables_cards(html: str) -> list[str]:
    import re

    return re.findall(r'data-card="([^"]+)"', html)


def _partials(source: str) -> dict[str, str]:
    import re

    partial = r"{% partialdef (\w+)(?: inline)? %}(.*?){% endpartialdef %}"
    return dict(re.findall(partial, source, re.S))


def test_each_part_reads_only_the_fields_it_is_given():
    """Every part declares what it reads in its own partial (``{% reads %}``), and reads
    nothing more: the public parts, the seat parts and the page outside its parts."""
    import re
    from pathlib import Path

    from django.conf import settings

    source = (Path(settings.BASE_DIR) / "templates/game/table.html").read_text()
    partials = _partials(source)
    used = set(re.findall(r'{% (?:public|seat)_part "(\w+)"', partials["table"]))
    assert {"dock", "turn", "trick", "auction_list"} <= used
    for name in [*used, "table"]:
        read = set(re.findall(r"\bt\.(\w+)", partials[name]))
        assert read and read <= set(parts.part_inputs(name)), (
            name,
            read - set(parts.part_inputs(name)),
        )


def test_a_part_without_its_reads_is_refused():
    source = (
        "{% partialdef hand %}{{ t.hand }}{% endpartialdef %}"
        "{% partialdef trick inline %} {% reads shown_trick trump %}{% endpartialdef %}"
    )

    assert parts.declared_reads(source) == {"hand": None, "trick": ("shown_trick", "trump")}
    with pytest.raises(TemplateSyntaxError, match="reads"):
        parts.part_inputs("no_such_part")


def test_a_public_part_that_reads_a_field_it_was_not_given_fails_loudly():
    from django.template import Context, Template

    part = Template("{{ t.trump }}{{ t.hand }}")

    with pytest.raises(parts.UndeclaredInput, match="hand"):
        part.render(Context({"t": parts.PartInputs(trump="H")}))


def test_a_public_part_is_drawn_again_only_when_its_fields_change(monkeypatch):
    drawn = []
    real = parts.draw_partial
    monkeypatch.setattr(parts, "draw_partial", lambda *a: drawn.append(a) or real(*a))
    table = _people_table(target=21)
    page = selectors.table_page_context(table=table, seat_owner=SPECTATOR)["t"].public
    bid = type(page.auction)([("Guest 1", "bid 2")])
    last = parts.Drawings()  # a redraw, then the next one, which takes the last one's
    first = parts._public_part(replace(page, auction=bid), "auction_list", None, drawings=last)
    this = parts.Drawings(last.kept())

    again = parts._public_part(
        replace(page, auction=bid, round_number=7), "auction_list", None, drawings=this
    )
    other = parts._public_part(
        replace(page, auction=(*bid, ("Guest 2", "pass"))), "auction_list", None, drawings=this
    )

    assert first == again and len(drawn) == 2
    assert "Guest 2: pass" in other and "Guest 2" not in first


def test_the_page_outside_its_parts_is_drawn_once_and_a_move_only_fills_its_slots(monkeypatch):
    table = _people_table(target=21)
    before = _pages_of_a_redraw(table.pk)
    drawn = []
    real = parts.draw_partial
    monkeypatch.setattr(parts, "draw_partial", lambda *a: drawn.append(a[0]) or real(*a))
    match = store.match_for_table(table)
    seat = match.current_player()
    play.table_play(table_id=table.pk, seat_owner=OWNERS[seat], action=match.legal_actions()[0])

    after = _pages_of_a_redraw(table.pk)

    assert redraw.TABLE_PARTIAL not in drawn  # kept: only the parts the move changed
    assert after == _pages_alone(table.pk) and after != before


def test_the_tricks_cards_are_drawn_in_order_with_the_winner_marked_once_and_names_escaped():
    plays = (Play(1, "<b>Ann</b>", "10H"), Play(2, "Bob", "AS"), Play(3, "Cy", "J1"))

    html = parts.trick_plays({}, plays, 2)

    assert [part.split('"')[0] for part in html.split('data-card="')[1:]] == ["10H", "AS", "J1"]
    assert html.count("trick__play--winner") == 1 and html.count("trick__won") == 1
    assert 'class="trick__play at-2 trick__play--winner"' in html
    assert "&lt;b&gt;Ann&lt;/b&gt;" in html and "<b>" not in html
    assert "trick__play--winner" not in parts.trick_plays({}, plays, None)
