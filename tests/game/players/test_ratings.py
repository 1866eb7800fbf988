"""Players' Glicko-2 ratings from finished matches; bots are anchors, at the ladder's ratings
or fixed ones."""

from random import Random

import pytest
from django.core.management import call_command
from django.db.models import F

from game.engine.state import MatchSetup, MatchState
from game.models import (
    ActionLog,
    LadderRating,
    PlayerRating,
    RatedMatch,
    RatingChange,
    Seat,
    Table,
)
from game.players import glicko, profiles, ratings, views
from game.players.identity import SeatOwner
from game.services import play
from tests.game.stored import greedy_match, greedy_round, stored_table

pytestmark = pytest.mark.django_db


def _finished(setup: MatchSetup, winner: int, seed: int = 0) -> MatchState:
    """A greedy match whose winning unit is ``winner`` (the first seed that gives it)."""
    while True:
        match = greedy_match(setup, seed)
        if match.winner == winner:
            return match
        seed += 1


def test_units_rank_by_the_winner_then_the_score():
    assert ratings.unit_ranks(1, (5, 11, 7)) == [2, 0, 1]
    assert ratings.unit_ranks(0, (11, 4, 4)) == [0, 1, 1]
    assert ratings.score_against(0, 1) == 1.0
    assert ratings.score_against(1, 1) == 0.5
    assert ratings.score_against(2, 0) == 0.0


def test_a_win_against_bots_rates_the_player_against_the_fixed_anchors(make_user):
    user = make_user("ann")
    match = _finished(MatchSetup.partnerships(4, 2, target=11), winner=0)
    bots = [{"bot_level": "greedy"}, {"bot_level": "random"}, {"bot_level": "expert"}]
    table = stored_table(match, [{"user": user}, *bots])

    assert ratings.ratings_settle() == 1
    rating = PlayerRating.objects.get(user=user, players=4)
    # opponents are seats 1 and 3 (greedy and expert), partner seat 2 is not one
    expected = glicko.rate(
        glicko.Rating(),
        [
            glicko.Result(ratings.anchor("greedy"), 1.0),
            glicko.Result(ratings.anchor("expert"), 1.0),
        ],
    )
    assert rating.rating == pytest.approx(expected.rating)
    assert rating.deviation == pytest.approx(expected.deviation)
    assert rating.matches == 1
    change = RatingChange.objects.get(table=table, user=user)
    assert (change.before, change.after) == (pytest.approx(1500.0), pytest.approx(rating.rating))


def test_a_match_is_rated_once_and_bot_anchors_never_move(make_user):
    user = make_user("bea")
    match = _finished(MatchSetup.cutthroat(3, target=11), winner=1)
    stored_table(match, [{"user": user}, {"bot_level": "expert"}, {"bot_level": "greedy"}])
    before = dict(ratings.BOT_ANCHORS)

    assert ratings.ratings_settle() == 1
    assert ratings.ratings_settle() == 0  # nothing left to rate
    assert RatedMatch.objects.count() == 1
    assert PlayerRating.objects.get(user=user).matches == 1
    assert ratings.BOT_ANCHORS == before
    assert not PlayerRating.objects.exclude(user=user).exists()
    # the expert won: a loss to it, then against greedy by the final score
    ranks = ratings.unit_ranks(1, match.scores)
    expected = glicko.rate(
        glicko.Rating(),
        [
            glicko.Result(ratings.anchor("expert"), 0.0),
            glicko.Result(ratings.anchor("greedy"), ratings.score_against(ranks[0], ranks[2])),
        ],
    )
    assert PlayerRating.objects.get(user=user).rating == pytest.approx(expected.rating)


def test_two_people_move_apart_and_an_unfinished_match_is_not_rated(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    match = _finished(MatchSetup.cutthroat(3, target=11), winner=0)
    stored_table(match, [{"user": ann}, {"user": bob}, {"session_key": "guest"}])
    unfinished = greedy_round(MatchState(MatchSetup.cutthroat(3, target=11), 0), Random(2))
    stored_table(unfinished, [{"user": ann}, {"user": bob}, {}])

    assert ratings.ratings_settle() == 1
    a = PlayerRating.objects.get(user=ann, players=3)
    b = PlayerRating.objects.get(user=bob, players=3)
    assert a.rating > 1500 > b.rating
    # one game each against the other: the guest is nobody's opponent
    assert a.rating - 1500 == pytest.approx(1500 - b.rating)


def test_ratings_are_kept_per_table_size(make_user):
    user = make_user("cy")
    three = _finished(MatchSetup.cutthroat(3, target=11), winner=0)
    four = _finished(MatchSetup.partnerships(4, 2, target=11), winner=1)
    stored_table(three, [{"user": user}, {"bot_level": "greedy"}, {"bot_level": "greedy"}])
    stored_table(four, [{"user": user}] + [{"bot_level": "greedy"}] * 3)
    ratings.ratings_settle()
    by_size = {r.players: r.rating for r in ratings.ratings_for(user_id=user.pk)}
    assert by_size[3] > 1500 > by_size[4]


def test_the_leaderboard_lists_opted_in_players_after_enough_matches(make_user, settings):
    ann, bob = make_user("ann"), make_user("bob")
    profiles.profile_update(user=ann, display_name="Ann", on_leaderboard=True)
    profiles.profile_update(user=bob, display_name="Bob")  # not opted in
    for user in (ann, bob):
        PlayerRating.objects.create(
            user=user,
            players=4,
            rating=1600,
            deviation=80,
            volatility=0.06,
            matches=ratings.LEADERBOARD_MIN_MATCHES,
            rated_at="2026-01-01T00:00Z",
        )
    PlayerRating.objects.filter(user=ann).update(matches=ratings.LEADERBOARD_MIN_MATCHES - 1)
    assert ratings.leaderboard(players=4) == []
    PlayerRating.objects.filter(user=ann).update(matches=ratings.LEADERBOARD_MIN_MATCHES)
    [leader] = ratings.leaderboard(players=4)
    assert (leader.name, leader.rating) == ("Ann", 1600)


def test_the_table_shows_each_seats_rating_and_the_bots_anchor(client, make_user):
    user = make_user("dee")
    match = greedy_round(MatchState(MatchSetup.partnerships(4, 2), 0), Random(4))
    match = match.deal_round(Random(5))
    table = stored_table(
        match,
        [{"user": user, "display_name": "Dee"}]
        + [{"bot_level": "expert", "display_name": f"Expert bot {n}"} for n in (1, 2, 3)],
    )
    lines = ratings.table_ratings(table=table)
    assert lines[0].rating is None  # not rated at four players yet
    assert lines[1].rating == round(ratings.BOT_ANCHORS["expert"])
    client.force_login(user)
    html = client.get(f"/table/{table.code}/").content.decode()
    assert f"Expert bot 1 {round(ratings.BOT_ANCHORS['expert'])}" in " ".join(html.split())


def test_the_profile_shows_the_rating_and_its_chart_match_by_match(client, make_user):
    user = make_user("eli")
    for seed in (0, 1):
        match = greedy_match(MatchSetup.cutthroat(3, target=11), seed)
        stored_table(match, [{"user": user}, {"bot_level": "greedy"}, {"bot_level": "random"}])
    ratings.ratings_settle()  # stored straight, not played: rated by the catch-up
    client.force_login(user)
    html = client.get("/accounts/profile/").content.decode()
    rating = PlayerRating.objects.get(user=user)
    assert rating.matches == 2
    assert f"{rating.rating:.0f} ± {rating.deviation:.0f}" in html
    assert ratings.rating_history(user_id=user.pk, players=3)[0] == pytest.approx(1500.0)
    assert len(ratings.rating_history(user_id=user.pk, players=3)) == 3
    assert 'aria-labelledby="rating-chart-3"' in html


def test_a_player_opts_in_to_the_leaderboards_on_the_profile(client, make_user):
    user = make_user("fay")
    client.force_login(user)
    client.post("/accounts/profile/", {"display_name": "Fay", "on_leaderboard": "on"})
    assert user.profile.__class__.objects.get(user=user).on_leaderboard
    page = client.get("/leaderboard/?players=4").content.decode()
    assert "Nobody on this board yet" in page  # opted in, but no rated match yet
    assert client.get("/leaderboard/?players=99").status_code == 200  # falls back to 4


def test_a_match_is_rated_as_its_last_move_is_stored_with_no_page_asked(
    make_user, django_capture_on_commit_callbacks
):
    user = make_user("dee")
    match = _finished(MatchSetup.partnerships(4, 2, target=11), winner=0)
    table = stored_table(match, [{"user": user}] + [{"bot_level": "greedy"}] * 3)
    last = ActionLog.objects.filter(table=table).latest("round", "index")
    last.delete()  # the table one move before the end, that move the player's own
    Seat.objects.filter(table=table, number=0).update(user=None, bot_level="greedy")
    Seat.objects.filter(table=table, number=last.seat).update(user=user, bot_level=None)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING, moves=F("moves") - 1)

    with django_capture_on_commit_callbacks(execute=True):
        play.table_play(
            table_id=table.pk, seat_owner=SeatOwner(user_id=user.pk), action=last.action
        )

    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    assert RatedMatch.objects.filter(table=table).exists()
    assert PlayerRating.objects.get(user=user, players=4).matches == 1
    assert ratings.ratings_settle() == 0  # nothing left for the catch-up


def test_the_scheduled_prune_rates_a_match_that_missed_its_moment(make_user):
    user = make_user("gil")
    match = _finished(MatchSetup.cutthroat(3, target=11), winner=0)
    table = stored_table(match, [{"user": user}, {"bot_level": "greedy"}, {"bot_level": "greedy"}])

    call_command("prune_tables")

    assert RatedMatch.objects.filter(table=table).exists()
    assert PlayerRating.objects.get(user=user, players=3).matches == 1


def _laddered(preset: str, players: int, **levels: float) -> None:
    for level, rating in levels.items():
        LadderRating.objects.create(
            preset=preset, players=players, target=11, level=level, rating=rating,
            deviation=50, volatility=0.06, matches=40, wins=20, rated_at="2026-01-01T00:00Z",
        )  # fmt: skip


def test_a_win_against_bots_the_ladder_rated_counts_against_the_ladders_ratings(make_user):
    user = make_user("hal")
    _laddered("house", 4, club=1900, greedy=1500)
    _laddered("classic", 4, club=2600)  # another game: not this table's
    match = _finished(MatchSetup.partnerships(4, 2, target=11), winner=0)
    stored_table(match, [{"user": user}, {"bot_level": "club"}, {}, {"bot_level": "expert"}])

    ratings.ratings_settle()

    # club at its ladder rating; expert, not on this ladder, at its fixed anchor
    club = glicko.Rating(1900, 50, 0.06)
    expected = glicko.rate(
        glicko.Rating(), [glicko.Result(club, 1.0), glicko.Result(ratings.anchor("expert"), 1.0)]
    )
    assert PlayerRating.objects.get(user=user).rating == pytest.approx(expected.rating)


def test_the_leaderboard_shows_the_bots_at_the_ladders_ratings_or_the_fixed_ones(client):
    _laddered("seven_point", 4, club=1890, expert=2250)
    _laddered("house", 4, club=1900, expert=2300)

    game, rows = ratings.bot_anchors(players=4)
    assert game == "house"  # the house rules first
    assert [(r.name, r.rating, r.half_width) for r in rows] == [
        ("Expert", 2300, 98),
        ("Club", 1900, 98),
    ]
    assert ratings.bot_anchors(players=5) == (None, ratings.fixed_anchors())
    page = " ".join(client.get("/leaderboard/?players=4").content.decode().split())
    assert "Expert</th><td>2300 ± 98" in page
    assert "As the bots' ladder rated them at House rules" in page


def test_the_bots_page_shows_each_games_ladder_and_what_each_level_does(client):
    page = client.get("/bots/").content.decode()
    assert "has not been played yet" in page and "Expert at 2097" in page

    _laddered("six_handed", 6, beginner=1650, casual=1850)
    page = " ".join(client.get("/bots/").content.decode().split())

    assert '<h3 id="ladder-six_handed">Six-handed</h3>' in page
    assert "6 players, two sides, matches to 11 points" in page
    assert "Casual</th><td>1850</td><td>1752 and 1948</td><td>20 of 40</td>" in page
    assert "misjudges most hands in the auction" in page


def test_the_bots_page_names_the_games_where_the_levels_play_a_tuning_of_their_own(
    client, monkeypatch
):
    page = " ".join(client.get("/bots/").content.decode().split())
    assert "In the classic four-point, six-handed and seven-point games" in page

    monkeypatch.setattr(views, "tuned_presets", lambda: set())
    page = client.get("/bots/").content.decode()
    assert "tuned for the game" not in page
