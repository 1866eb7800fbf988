"""No template branches on a display label: what a page shows is chosen by the engine or
a presenter, which hand the template a flag or a code. A comparison with words a person
reads (``line.label == "Low"``) breaks the day the words change, and hides a rule in a
page; codes (``"discard_to_six"``, ``'game:table'``) are lowercase and have no spaces."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BRANCH_TAG = re.compile(r"{%-?\s*(?:if|elif)\b(.*?)-?%}", re.S)
LITERAL = r"""(?:"[^"]*"|'[^']*')"""
COMPARED = re.compile(rf"(?:==|!=|\bin\b)\s*({LITERAL})|({LITERAL})\s*(?:==|!=|\bin\b)")


def display_labels_compared(source: str) -> list[str]:
    """The string literals ``source``'s if/elif tags compare that read as words: any with
    a capital letter or a space."""
    found = []
    for condition in BRANCH_TAG.findall(source):
        for match in COMPARED.finditer(condition):
            literal = (match.group(1) or match.group(2))[1:-1]
            if re.search(r"[A-Z ]", literal):
                found.append(literal)
    return found


def test_no_template_branches_on_a_display_label():
    offending = {
        str(path.relative_to(REPO)): labels
        for path in sorted((REPO / "templates").rglob("*.html"))
        if (labels := display_labels_compared(path.read_text()))
    }
    assert offending == {}


def test_the_scan_catches_a_comparison_with_a_label_either_way_round():
    assert display_labels_compared('{% elif line.label == "Low" %}dealt to{% endif %}') == ["Low"]
    assert display_labels_compared("{% if 'Game' != kind %}x{% endif %}") == ["Game"]
    assert display_labels_compared('{% if x.code == "discard_to_six" %}{% endif %}') == []
