"""Saving the table settings sends the player back to the page they were on: a path on this
site, never a URL name, another site, or a 500 whatever ``next`` holds."""

import pytest

pytestmark = pytest.mark.django_db

SETTINGS = "/settings/table"


@pytest.mark.parametrize("back", ["/rules/", "/tables/?page=2", "/sheets/%C3%A9t%C3%A9/"])
def test_saving_goes_back_to_the_local_path_it_came_from(client, back):
    response = client.post(SETTINGS, {"pref": ["deck-four"], "next": back})

    assert response.status_code == 302 and response.url == back


@pytest.mark.parametrize(
    "back",
    [
        "play",  # a bare word once read as a URL name: NoReverseMatch, a 500
        "game:play",
        "-1",
        "NaN",
        "\U0001f600",
        "rules",
        "",
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "http:/rules/",
        "javascript:alert(1)",
        "/rules/\nSet-Cookie: x=1",
        " /rules/",
    ],
)
def test_anything_but_a_local_path_goes_to_play_never_a_500(client, back):
    response = client.post(SETTINGS, {"pref": ["deck-four"], "next": back})

    assert response.status_code == 302 and response.url == "/play/"
