"""A selector's answer becomes a page or a 404 in one place."""

import pytest
from django.http import Http404

from smearsite.kernel.http import found_or_404


def test_what_a_selector_found_is_handed_on_and_nothing_is_a_404_naming_it():
    assert found_or_404("the table", "table") == "the table"
    with pytest.raises(Http404, match="no such table"):
        found_or_404(None, "table")
