"""The table page's two kinds of part, each a named partial of ``game/table.html`` that
declares the fields it reads where it is written: ``{% reads field ... %}`` first in it.

``{% public_part "trick" %}``: a part every seat sees alike, drawn from the fields of the
public part that its partial's ``{% reads %}`` names, and only those. A redraw's drawings
are known by those fields' values (``Drawings``), and the table's owner keeps the last
redraw's: a part that a move left as it was (the auction while cards are played, the last
round's summary) is not drawn again at that table.

``{% seat_part "hand" %}``: a part that differs from seat to seat. Drawn in place when one
page is rendered (an HTTP response). For the pages of a redraw, ``draw_each`` draws the
rest of the page once, from the table's public part alone, with a slot where each part
stands, and fills the slots of each seat's page with that seat's own parts. So a seat's
page is the shared public part plus its own: the seat parts are the only places a page's
own fields (its hand, its turn, "you") may be used. In a redraw a seat part too is drawn
from the fields it declares and kept by their values. A part that reads a field it did not
declare fails loudly (``UndeclaredInput``).

Only public API: a part is drawn by its named partial (django-template-partials:
``get_template("game/table.html#name")`` and the template's ``render``), and the fields a
part declares are read from the template's own text (the template's ``origin`` and its
loader's ``get_contents``, Django's documented Origin API), never from the compiled
template's nodes.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from functools import cache, lru_cache
from itertools import islice
from operator import attrgetter
from typing import NamedTuple

from django import template
from django.conf import settings
from django.template.loader import get_template
from django.urls import get_script_prefix, reverse
from django.utils.safestring import mark_safe

register = template.Library()

# the public draw's slots are collected here; never in a page's own context
SLOTS = "_seat_part_slots"
# What stands in the public draw where a seat part goes: a secret of this process's, so
# nothing drawn from a page's fields (all escaped: no "<" is drawn from them) can be
# taken for it.
SLOT = f"<!--seat-part {secrets.token_hex(16)}-->"


# Each part declares the fields it reads where it is written: its template opens with
# ``{% reads field ... %}`` (a public part: fields of ``game.presenters.PublicPage``; a
# seat part: of the page, ``TableView`` or ``SpectatorView``; the page outside its parts,
# the table partial itself: of the public part). The part is drawn from those fields alone,
# so a drawing is known by their values: a redraw draws a part only when the table's last
# redraw did not draw it from equal values (``Drawings``). A seat part's drawing is known by
# the hand itself, so it can only ever go to a page holding that very hand; nothing is kept
# when one page is rendered (an HTTP response's forms carry the asker's own CSRF token).
TABLE_TEMPLATE = "game/table.html"
DRAWINGS = "_drawings"  # a redraw's Drawings, in the context of every part it draws


KEPT_PER_TABLE = 64  # a move draws three or four parts anew, and a table shows some thirty


class Drawings:
    """The parts a table's redraws drew, by name, item and input values: a redraw starts
    from a copy of those its table's owner keeps (``before``, never changed), draws only
    what they lack, and hands back (``kept``) its table's last ``KEPT_PER_TABLE``, the
    least lately used dropped first. A part that recurs (whose turn it is, a seat's turn
    coming round again) is drawn once per table, and nothing is shared between tables."""

    def __init__(self, before: Mapping | None = None) -> None:
        self.now: dict[tuple, object] = dict(before or {})

    def get(self, key: tuple, draw_now):
        drawn = self.now.pop(key, None)  # put back last: the most lately used
        if drawn is None:
            drawn = draw_now()
        self.now[key] = drawn
        return drawn

    def kept(self) -> dict[tuple, object]:
        for key in list(islice(self.now, max(0, len(self.now) - KEPT_PER_TABLE))):
            del self.now[key]
        return self.now


@cache
def _getter(fields: tuple[str, ...]):
    """The values of ``fields`` of an object, as a tuple (attrgetter gives one field bare)."""
    get = attrgetter(*fields)
    return get if len(fields) > 1 else lambda source: (get(source),)


class UndeclaredInput(Exception):
    """A part read a field that its inputs do not name. Not a KeyError: the template
    engine would swallow that and draw an empty string."""


class PartInputs(dict):
    """A part's ``t``: its declared fields, by name (the template engine looks a dict up
    first), and nothing else."""

    def __missing__(self, name: str):
        raise UndeclaredInput(
            f"a table part read {name!r}: name it in the part's {{% reads %}} ({TABLE_TEMPLATE})"
        )


class ReadsNode(template.Node):
    """``{% reads field ... %}``: the fields its part reads. Draws nothing."""

    def __init__(self, fields: tuple[str, ...]) -> None:
        self.fields = fields

    def render(self, context) -> str:
        return ""


@register.tag
def reads(parser, token) -> ReadsNode:
    """``{% reads target trump %}``, first in a part: the fields the part reads of ``t``."""
    fields = tuple(token.split_contents()[1:])
    if not fields or not all(field.isidentifier() for field in fields):
        raise template.TemplateSyntaxError("reads takes the bare names of fields: {% reads hand %}")
    return ReadsNode(fields)


# a named partial and the fields its first tag declares, as the template's text has them
_PARTIAL = re.compile(r"{% partialdef (\w+)(?: inline)? %}\s*(?:{% reads ([\w ]+?) %})?")


def declared_reads(source: str) -> dict[str, tuple[str, ...] | None]:
    """Each named partial of a template's text, and the fields its ``{% reads %}`` declares
    (None: it opens with none)."""
    return {name: tuple(fields.split()) or None for name, fields in _PARTIAL.findall(source)}


@cache
def _table_reads() -> dict[str, tuple[str, ...] | None]:
    """The table template's partials and their reads, read once per process (a server
    restarts to see a changed ``{% reads %}``)."""
    origin = get_template(TABLE_TEMPLATE).origin
    return declared_reads(origin.loader.get_contents(origin))


def part_inputs(name: str) -> tuple[str, ...]:
    """The fields the part ``name`` reads (its partial in the table's template)."""
    fields = _table_reads().get(name)
    if not fields:
        raise template.TemplateSyntaxError(
            f"the table part {name!r} must be a partial opening with {{% reads %}}"
        )
    return fields


class PublicSlot(NamedTuple):
    """Where a public part stands in the drawing of a page outside its parts, and the
    fields it reads."""

    name: str
    each: str | None
    inputs: tuple[str, ...]


class SeatSlot(NamedTuple):
    """Where a seat part stands, and the fields it reads."""

    name: str
    inputs: tuple[str, ...]


def draw_partial(name: str, context: dict) -> str:
    """``render_to_string(name, context)``, with the template looked up once per process
    (a redraw draws some ten parts, and the loader's lookup cost each a tenth as much as
    the drawing); looked up afresh under DEBUG, where templates are edited."""
    found = get_template(name) if settings.DEBUG else _template(name)
    return found.render(context)


@cache
def _template(name: str):
    return get_template(name)


@register.simple_tag(takes_context=True)
def public_part(context, name: str, each: str | None = None) -> str:
    """The table page's partial ``name``, drawn from its inputs in the page's public part
    alone (so it cannot show a hand): every seat's page in a redraw shares it. With
    ``each="seats"``: the part once for each element of that public field, which it sees
    as ``name`` (``seat``)."""
    slots = context.get(SLOTS)
    if slots is not None:  # the page outside its parts, for a redraw: a slot
        slots.append(PublicSlot(name, each, part_inputs(name)))
        return mark_safe(SLOT)
    return _public_part(context["t"].public, name, each, drawings=context.get(DRAWINGS))


def _public_part(
    public, name: str, each: str | None, inputs: tuple[str, ...] = (), drawings=None
) -> str:
    inputs = inputs or part_inputs(name)
    if each is not None:
        return mark_safe(
            "".join(
                _draw_part(name, public, inputs, drawings, item) for item in getattr(public, each)
            )
        )
    return _draw_part(name, public, inputs, drawings)


def _draw_part(name: str, public, inputs: tuple[str, ...], drawings, item=None) -> str:
    def draw(given: PartInputs) -> str:
        context = {"t": given, DRAWINGS: drawings}
        if item is not None:
            context[name] = item
        return draw_partial(f"{TABLE_TEMPLATE}#{name}", context)

    return _kept_or_drawn((name, item), public, inputs, draw, drawings)


def _kept_or_drawn(key: tuple, source, fields, draw, drawings: Drawings | None):
    """``draw(inputs)`` (``fields`` of ``source``), or what the redraw's ``drawings`` hold
    for ``key`` and equal inputs."""
    values = _getter(fields)(source)

    def draw_now():
        return draw(PartInputs(zip(fields, values, strict=True)))

    return draw_now() if drawings is None else drawings.get((*key, values), draw_now)


@register.simple_tag(takes_context=True)
def seat_part(context, name: str) -> str:
    """The table page's partial ``name``, drawn from the page itself (``t``) in place, or,
    in a redraw's public draw, a slot each seat's page fills with its own."""
    slots = context.get(SLOTS)
    if slots is not None:
        slots.append(SeatSlot(name, part_inputs(name)))
        return mark_safe(SLOT)
    return draw_partial(f"{TABLE_TEMPLATE}#{name}", context.flatten())


def draw_each(name: str, public: Mapping, pages: Mapping, drawings: Drawings) -> dict:
    """Template ``name`` for each of ``pages`` (key -> its context, whose ``t`` is built on
    the public part that ``public["t"]`` is): everything outside the seat parts is drawn
    once, from ``public``, and only the seat parts once per page; every part, and the page
    outside them, drawn from the fields its own ``{% reads %}`` names, or taken from
    ``drawings`` for equal values."""
    segments, slots = _outer(name, public["t"], part_inputs(name.partition("#")[2]), drawings)
    shared = [
        _public_part(public["t"], slot.name, slot.each, slot.inputs, drawings)
        if type(slot) is PublicSlot
        else None
        for slot in slots
    ]
    result = {}
    for key, page in pages.items():
        parts = [segments[0]]
        for slot, drawn, after in zip(slots, shared, segments[1:], strict=True):
            parts.append(drawn if drawn is not None else _seat_part(slot, page["t"], drawings))
            parts.append(after)
        result[key] = "".join(parts)
    return result


def _outer(name: str, public, inputs: tuple[str, ...], drawings: Drawings):
    """Template ``name`` drawn from the fields ``inputs`` of ``public`` with a slot for
    each part (split at the slots), and the slots; or as drawn for equal inputs."""

    def draw(inputs: PartInputs) -> tuple[tuple[str, ...], tuple]:
        slots: list = []
        segments = draw_partial(name, {"t": inputs, SLOTS: slots}).split(SLOT)
        if len(segments) != len(slots) + 1:
            raise ValueError(f"{name}: the public draw does not hold its {len(slots)} slots")
        return tuple(segments), tuple(slots)

    return _kept_or_drawn(("outer", name), public, inputs, draw, drawings)


def _seat_part(slot: SeatSlot, page, drawings: Drawings) -> str:
    """One seat part of ``page``, drawn from its inputs alone, or as drawn before."""

    def draw(inputs: PartInputs) -> str:
        return draw_partial(f"{TABLE_TEMPLATE}#{slot.name}", {"t": inputs, DRAWINGS: drawings})

    return _kept_or_drawn(("seat", slot.name), page, slot.inputs, draw, drawings)


@register.simple_tag(takes_context=True)
def trick_plays(context, plays, winner: int | None) -> str:
    """The cards of the trick in the middle, each drawn once for its play and whether it
    wins: the trick is drawn again on every move, and a card once played stays as it was
    until its trick is won."""
    drawings = context.get(DRAWINGS)
    return mark_safe("".join(_trick_play(play, play.seat == winner, drawings) for play in plays))


def _trick_play(play, wins: bool, drawings: Drawings | None) -> str:
    """One card of the trick, or as the redraw's ``drawings`` hold it."""

    def draw_now() -> str:
        return draw_partial(f"{TABLE_TEMPLATE}#trick_play", {"play": play, "wins": wins})

    return draw_now() if drawings is None else drawings.get(("trick_play", play, wins), draw_now)


@register.simple_tag
def table_url(name: str, code: str) -> str:
    """``{% url name code %}`` for one of a table's own addresses, reversed once per table:
    a seat's dock is drawn again on every turn, and reversing cost it a tenth."""
    return _table_url(get_script_prefix(), name, code)


@lru_cache(maxsize=4096)
def _table_url(prefix: str, name: str, code: str) -> str:
    return reverse(name, args=[code])
