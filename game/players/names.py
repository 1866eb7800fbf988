"""Names people can tell apart: a display name's key ignores case, spacing, invisible
characters and look-alikes, so that "Alice", "alice " and "Аlice" (a Cyrillic А) are one.

The look-alikes are Unicode's confusables (UTS #39), as the confusable-homoglyphs package
ships them: each character that looks like a prototype maps to it ("а" to "a", "1" and
"I" to "l", "m" to "rn"), which is the skeleton UTS #39 defines. Case is folded before and
after, so "ALICE", "alice" and "ａｌｉｃｅ" meet (a capital I and a small l do not: folded
first, the I is an i).
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib import resources

INVISIBLE = "\u200e\u200f"  # direction marks the package keeps around right-to-left glyphs


@cache
def _prototypes() -> dict[str, str]:
    text = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    data = {
        key: [g["c"].strip(INVISIBLE) for g in glyphs] for key, glyphs in json.loads(text).items()
    }
    mapping = {}
    for char, looks_like in data.items():
        if len(char) != 1 or len(looks_like) != 1:
            continue  # a prototype lists all that look like it: it maps to itself
        target = looks_like[0]
        back = data.get(target, [])
        if len(back) > 1:
            mapping[char] = target
        elif back == [char]:  # two that only look like each other: one stands for both
            mapping[char] = min(char, target)
    return mapping


def name_key(name: str) -> str:
    """What two display names share when people would take them for the same."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")  # zero-width
    text = " ".join(text.split())
    prototypes = _prototypes()
    skeleton = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text))
    # a prototype may be a capital ("0" looks like "O"): fold once more
    return unicodedata.normalize("NFD", skeleton.casefold())
