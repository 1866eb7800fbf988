"""No template text reaches a page: nothing the site serves shows ``{#``, ``{%`` or ``{{``.

Django's ``{# … #}`` comment holds on one line only: spread over two, it is printed as
text (as the score sheet's live page once printed its note about polling). Two proofs:

- every template of the project is compiled and each piece of plain text in it (what is
  printed as it stands, in a page or in any partial) is searched for the three openers;
- every page of the site a GET reaches is rendered, as a guest and as a member, whole and
  as htmx asks for it, and its HTML is searched the same way.
"""

from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines
from django.template.base import TextNode
from django.urls import URLPattern, URLResolver, get_resolver

from game.players.identity import SeatOwner
from game.services import lobby, play
from learn.tutorial import LESSONS
from scoresheet import ledger, services

OPENERS = ("{#", "{%", "{{")
REPO = Path(__file__).resolve().parents[1]
OUR_APPS = {"game", "learn", "scoresheet", "donations"}


def _template_names() -> list[str]:
    names = []
    for folder in settings.TEMPLATES[0]["DIRS"]:
        names += [str(p.relative_to(folder)) for p in Path(folder).rglob("*.html")]
    for app in OUR_APPS:
        folder = REPO / app / "templates"
        names += [str(p.relative_to(folder)) for p in folder.rglob("*.html")]
    return sorted(names)


def _nodes(nodelist):
    for node in nodelist:
        yield node
        for attr in getattr(node, "child_nodelists", ()):
            yield from _nodes(getattr(node, attr, None) or [])


def leaks(html: str) -> list[str]:
    """Each opener found in ``html``, with the text around it."""
    found = []
    for opener in OPENERS:
        at = html.find(opener)
        if at >= 0:
            found.append(html[max(at - 40, 0) : at + 60])
    return found


def test_the_scan_compiles_every_template_of_the_site():
    names = _template_names()
    assert "base.html" in names and "scoresheet/watch.html" in names
    assert "game/table.html" in names and "learn/parts.html" in names


@pytest.mark.parametrize("name", _template_names())
def test_no_template_holds_text_that_would_print_a_tag_or_comment(name):
    engine = engines["django"].engine
    template = engine.get_template(name)
    template = getattr(template, "template", template)
    printed = [node.s for node in _nodes(template.nodelist) if isinstance(node, TextNode)]
    assert [leak for text in printed for leak in leaks(text)] == []


# --- Every page, rendered ----------------------------------------------------------------


def _routes(patterns=None, prefix="", namespace=""):
    """(route, name) for every URL of the site's own apps."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _routes(entry.url_patterns, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern):
            if entry.callback.__module__.split(".")[0] in OUR_APPS:
                yield prefix + str(entry.pattern), f"{namespace}{entry.name}"


# pages whose arguments the small world below does not make: pages of learn's bank of
# positions, whose templates the compile-time scan above covers
NOT_RENDERED = {"learn:position", "learn:position_serve", "learn:attempt", "learn:answer"}


@pytest.fixture
def world(make_user, client):
    """A member with a sheet of two hands (one edited), a table in its lobby and one
    against bots: enough for every page that takes an argument."""
    sam = make_user("sam")
    sheet = services.sheet_create(
        owner=SeatOwner(user_id=sam.pk),
        sides=["Us", "Them"],
        rules=ledger.CLASSIC_FOUR_POINT,
        preset="classic",
    )
    hand = services.HandInput(bidder=1, bid=3, made=(1, 2), takers=(0, None, 1, 1))
    services.hand_add(
        sheet_id=sheet.pk, owner=SeatOwner(user_id=sam.pk), expected_number=1, hand=hand
    )
    change = sheet.changes.get()
    lobby_table = lobby.table_create_lobby(host_user=sam, players=4, teams=[[0, 2], [1, 3]])
    bots_table = play.table_create_vs_bots(
        owner=SeatOwner(user_id=sam.pk),
        players=4,
        teams=[[0, 2], [1, 3]],
        bot_levels=["random"] * 3,
    )
    return {
        "sam": sam,
        "args": {
            "sheet_id": sheet.pk,
            "number": 1,
            "change_id": change.pk,
            "token": sheet.watch_token,
            "code": sheet.invite_code,
            "index": 0,
            "game": "classic",  # a quiz's game
            "notation": "1~house~02.13~3~0.0~0~AS10SJSJ1KHQD.x.x.x~x~b2.p.p.p",  # a board
        },
        "tables": {"lobby": lobby_table.code, "bots": bots_table.code},
    }


def _paths(world) -> list[str]:
    paths = []
    for route, name in _routes():
        if name in NOT_RENDERED:
            continue
        args = dict(world["args"])
        if name.startswith("game:") or "review" in name:
            args["code"] = world["tables"]["lobby" if "lobby" in name else "bots"]
        path = route
        for key, value in args.items():
            for converter in ("str", "int", "slug"):
                path = path.replace(f"<{converter}:{key}>", str(value))
        if "<slug:slug>" in path:
            paths += ["/" + path.replace("<slug:slug>", lesson.slug) for lesson in LESSONS]
            continue
        assert "<" not in path, f"no argument for {route} ({name}): add one, or list it"
        paths.append("/" + path)
    return paths


def test_every_page_a_get_reaches_shows_no_template_text(world, client):
    shown, rendered = {}, set()
    for who in ("guest", "member"):
        if who == "member":
            client.force_login(world["sam"])
        for path in _paths(world):
            for headers in ({}, {"HX-Request": "true"}):
                response = client.get(path, headers=headers)
                if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                    continue
                if response.streaming:
                    continue
                rendered.add(path)
                found = leaks(response.content.decode())
                if found:
                    shown[f"{who} {path} {headers}"] = found
    # the partials htmx asks for with a POST: the sheet's preview and its entry
    sheet_id = world["args"]["sheet_id"]
    hand = {"number": 2, "bidder": "side-0", "bid": 2, "point_0": "0", "point_1": "0"}
    for path in (f"/sheets/{sheet_id}/hands/preview/", f"/sheets/{sheet_id}/hands/"):
        for data in (hand, {"number": 2}):  # a hand, and a form with errors
            response = client.post(path, data, headers={"HX-Request": "true"})
            assert response.status_code == 200, path
            rendered.add(f"POST {path}")
            if found := leaks(response.content.decode()):
                shown[f"POST {path} {data}"] = found
    assert shown == {}
    # the proof saw the pages it is about
    token, sheet_id = world["args"]["token"], world["args"]["sheet_id"]
    for path in ("/", f"/sheets/watch/{token}/", f"/sheets/{sheet_id}/", "/learn/tutorial/deck/"):
        assert path in rendered
    assert len(rendered) >= 30, sorted(rendered)
