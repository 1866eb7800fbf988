"""Display names people can tell apart: one key for names that differ only by case,
spacing, invisible characters or look-alike letters."""

import pytest

from game.players.names import name_key


@pytest.mark.parametrize(
    "first, second",
    [
        ("Alice", "alice"),
        ("Alice", "ALICE"),
        ("Alice", "\u0410lice"),  # a Cyrillic capital A
        ("paypal", "p\u0430yp\u0430l"),  # Cyrillic small a, twice
        ("Alice", "  Alice "),
        ("Bob", "B\u200bob"),  # a zero-width space
        ("Bob", "\uff22\uff4f\uff42"),  # full-width letters
        ("l00k", "look"),  # zeros for o
        ("mary", "rnary"),
    ],
)
def test_look_alike_names_share_a_key(first, second):
    assert name_key(first) == name_key(second)


@pytest.mark.parametrize(
    "first, second",
    [("Alice", "Alicia"), ("Zoë", "Zoe"), ("Dealer Dan", "DealerDan"), ("Ann", "Anne")],
)
def test_different_names_keep_different_keys(first, second):
    assert name_key(first) != name_key(second)
