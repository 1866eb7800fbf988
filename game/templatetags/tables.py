"""The table page's two kinds of part.

``{% public_part "trick" %}``: a part every seat sees alike, drawn once per public part.

``{% seat_part "hand" %}...{% endseat_part %}``: a part that differs from seat to seat.
Drawn in place when one page is rendered (an HTTP response). For the pages of a redraw,
``draw_each`` draws the rest of the page once, from the table's public part alone, with
a slot where each seat part stands, and fills the slots of each seat's page with that
seat's own parts. So a seat's page is the shared public part plus its own: the seat
parts are the only places a page's own fields (its hand, its turn, "you") may be used.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from django import template
from django.template import Context
from django.template.loader import get_template, render_to_string
from django.utils.safestring import mark_safe

register = template.Library()

# the public draw's slots are collected here; never in a page's own context
SLOTS = "_seat_part_slots"
# What stands in the public draw where a seat part goes: a secret of this process's, so
# nothing drawn from a page's fields (all escaped: no "<" is drawn from them) can be
# taken for it.
SLOT = f"<!--seat-part {secrets.token_hex(16)}-->"


@register.simple_tag(takes_context=True)
def public_part(context, name: str) -> str:
    """The table page's partial ``name``, drawn from the page's public part alone (so it
    cannot show a hand) and once per public part: every seat's page in a redraw shares it."""
    public = context["t"].public
    if name not in public.drawn:
        public.drawn[name] = render_to_string(f"game/table.html#{name}", {"t": public})
    return public.drawn[name]


class SeatPartNode(template.Node):
    def __init__(self, name: str, nodelist: template.NodeList) -> None:
        self.name = name
        self.nodelist = nodelist

    def render(self, context) -> str:
        slots = context.get(SLOTS)
        if slots is None:  # one page: the part in place
            return self.nodelist.render(context)
        # the public draw: a slot, and how the part is to be drawn in it
        slots.append((self, context.autoescape, context.use_l10n))
        return mark_safe(SLOT)


@register.tag
def seat_part(parser, token) -> SeatPartNode:
    """``{% seat_part "name" %}...{% endseat_part %}``: the part sees ``t`` (the page) and
    nothing an enclosing tag set, so it stands outside every loop and ``with``."""
    bits = token.split_contents()
    if len(bits) != 2 or bits[1][0] not in "'\"" or bits[1][0] != bits[1][-1]:
        raise template.TemplateSyntaxError(
            'seat_part takes one quoted name: {% seat_part "hand" %}'
        )
    nodelist = parser.parse(("endseat_part",))
    parser.delete_first_token()
    return SeatPartNode(bits[1][1:-1], nodelist)


def draw_each(name: str, public: Mapping, pages: Mapping) -> dict:
    """Template ``name`` for each of ``pages`` (key -> its context, whose ``t`` is built on
    the public part that ``public["t"]`` is): everything outside the seat parts is drawn
    once, from ``public``, and only the seat parts once per page."""
    slots: list = []
    drawn = render_to_string(name, {**public, SLOTS: slots})
    segments = drawn.split(SLOT)
    if len(segments) != len(slots) + 1:
        raise ValueError(f"{name}: the public draw does not hold its {len(slots)} slots")
    compiled = get_template(name).template
    result = {}
    for key, page in pages.items():
        context = Context(page)
        parts = [segments[0]]
        with context.bind_template(compiled):
            for (node, autoescape, use_l10n), after in zip(slots, segments[1:], strict=True):
                context.autoescape, context.use_l10n = autoescape, use_l10n
                parts.append(node.nodelist.render(context))
                parts.append(after)
        result[key] = "".join(parts)
    return result
