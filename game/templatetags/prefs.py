"""``{% table_prefs_classes %}``: the person's table settings as classes for <body>."""

from django import template

from game.players import table_prefs

register = template.Library()


@register.simple_tag(takes_context=True)
def table_prefs_classes(context) -> str:
    request = context.get("request")
    session = getattr(request, "session", None)
    return " ".join(table_prefs.chosen(session)) if session is not None else ""


@register.inclusion_tag("game/table_prefs.html", takes_context=True)
def table_prefs_form(context) -> dict:
    request = context["request"]
    chosen = table_prefs.chosen(request.session)
    return {
        "choices": [(name, said, name in chosen) for name, said in table_prefs.CHOICES.items()],
        "next": request.get_full_path(),
        "csrf_token": context.get("csrf_token"),
    }
