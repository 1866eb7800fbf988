"""``{% public_part "trick" %}``: a part of the table page that every seat sees alike."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string

register = template.Library()


@register.simple_tag(takes_context=True)
def public_part(context, name: str) -> str:
    """The table page's partial ``name``, drawn from the page's public part alone (so it
    cannot show a hand) and once per public part: every seat's page in a redraw shares it."""
    public = context["t"].public
    if name not in public.drawn:
        public.drawn[name] = render_to_string(f"game/table.html#{name}", {"t": public})
    return public.drawn[name]
