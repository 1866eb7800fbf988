"""Display names are unique ignoring case and look-alikes, with a clear message."""

import pytest
from django.test import Client

from game.models import Profile
from game.players import profiles

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_players(django_user_model, fast_password_hashing):
    alice = django_user_model.objects.create_user("alice_1", password="a long passphrase 42")
    bob = django_user_model.objects.create_user("bob_1", password="a long passphrase 42")
    profiles.profile_update(user=alice, display_name="Alice")
    return alice, bob


@pytest.mark.parametrize("taken", ["Alice", "alice", "ALICE", "\u0410lice", " Alice"])
def test_a_second_player_cannot_take_a_name_that_looks_the_same(two_players, taken):
    _, bob = two_players
    client = Client()
    client.force_login(bob)

    response = client.post("/accounts/profile/", {"display_name": taken})

    assert response.status_code == 200
    assert "Another player is already called that" in response.text
    assert Profile.objects.get(user=bob).display_name == "bob_1"


def test_the_service_refuses_too_and_changes_nothing(two_players):
    _, bob = two_players

    with pytest.raises(profiles.NameTaken):
        profiles.profile_update(user=bob, display_name="\u0430lice")

    assert Profile.objects.get(user=bob).display_name == "bob_1"


def test_a_player_may_change_the_case_of_their_own_name(two_players):
    alice, _ = two_players
    client = Client()
    client.force_login(alice)

    response = client.post("/accounts/profile/", {"display_name": "ALICE"})

    assert response.status_code == 302
    assert Profile.objects.get(user=alice).display_name == "ALICE"


def test_sign_up_refuses_a_username_that_looks_like_a_players_name(two_players):
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "ALICE",
            "password1": "a long passphrase 42",
            "password2": "a long passphrase 42",
        },
    )

    assert "Another player is already called that" in response.text
    assert not Profile.objects.filter(display_name="ALICE").exists()


def test_a_user_made_outside_sign_up_gets_a_free_name(two_players, django_user_model):
    admin = django_user_model.objects.create_user("Alice")  # like createsuperuser

    profile = profiles.profile_get_or_create(user=admin)

    assert profile.display_name == "Alice 2"
