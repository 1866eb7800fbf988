"""The table forms on their own: the layout a table plays unless another is chosen, and
the words the set-up pages use."""

import pytest

from game.forms import LAYOUT_CHOICES, PlayBotsForm, TableForm, layout_teams


@pytest.mark.parametrize(
    ("players", "teams"),
    [
        (3, [[0], [1], [2]]),
        (4, [[0, 2], [1, 3]]),
        (5, [[0], [1], [2], [3], [4]]),
        (6, [[0, 2, 4], [1, 3, 5]]),
        (7, [[seat] for seat in range(7)]),
        (8, [[0, 2, 4, 6], [1, 3, 5, 7]]),
    ],
)
def test_the_usual_layout_is_two_sides_where_the_seats_split_evenly_else_everyone_alone(
    players, teams
):
    assert layout_teams("usual", players) == teams


@pytest.mark.parametrize("form_class", [PlayBotsForm, TableForm])
@pytest.mark.parametrize("players", ["3", "4", "5", "6", "7", "8"])
def test_the_teams_left_as_they_start_suit_any_player_count(form_class, players):
    form = form_class({"players": players, "layout": form_class().fields["layout"].initial})

    assert form.is_valid(), form.errors
    assert sorted(s for unit in form.cleaned_data["teams"] for s in unit) == list(
        range(int(players))
    )


def test_the_usual_layout_is_the_first_offered_and_a_chosen_one_is_still_checked():
    assert LAYOUT_CHOICES[0][0] == "usual"
    form = PlayBotsForm({"players": "3", "layout": "2v2"})

    assert not form.is_valid()
    assert form.errors["layout"] == ["That team layout is for 4 players."]


def test_a_preset_with_fixed_sides_gets_them_from_the_usual_layout():
    form = PlayBotsForm({"players": "6", "layout": "usual", "preset": "six_handed"})

    assert form.is_valid(), form.errors
    assert form.cleaned_data["teams"] == [[0, 2, 4], [1, 3, 5]]


def test_custom_teams_help_says_which_seat_is_yours_in_words():
    help_text = PlayBotsForm().fields["custom_teams"].help_text

    assert "you are 0" in help_text and "0,2:1,3" in help_text


def test_a_table_size_the_house_rules_do_not_play_names_the_games_that_do():
    from game.forms import PLAYER_CHOICES

    said = dict(PLAYER_CHOICES)
    assert said[2] == "2 (Classic four-point only)"
    assert said[4] == "4" and said[8] == "8"
