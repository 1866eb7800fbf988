"""The profile's history: every table sat at, its finished rounds, and stats by size."""

from random import Random

import pytest

from game.engine.state import MatchSetup, MatchState
from game.models import Table
from game.players import history
from tests.game.stored import greedy_match, greedy_round, stored_table

pytestmark = pytest.mark.django_db


def test_the_layout_is_named_by_its_units():
    assert history.layout_name([[0], [1], [2]]) == "cutthroat"
    assert history.layout_name([[0, 2], [1, 3]]) == "2v2"
    assert history.layout_name([[0, 3], [1, 4], [2, 5]]) == "2v2v2"


def test_a_finished_match_is_listed_with_its_rounds_result_and_counts(make_user):
    user = make_user("ann")
    match = greedy_match(MatchSetup.partnerships(4, 2, target=11), seed=3)
    seats = [{"user": user, "display_name": "Ann"}] + [
        {"bot_level": "greedy", "display_name": f"Bot {n}"} for n in (1, 2, 3)
    ]
    table = stored_table(match, seats)

    [line] = history.tables_for(user_id=user.pk)
    assert line.code == table.code
    assert line.names == ("Ann", "Bot 1", "Bot 2", "Bot 3")
    assert (line.players, line.layout, line.seat) == (4, "2v2", 0)
    assert line.result == ("Won" if match.winner == 0 else "Lost")
    assert len(line.rounds) == len(match.rounds)
    # the figures are the engine's, round by round, for seat 0's unit
    for shown, state in zip(line.rounds, match.rounds, strict=True):
        assert shown.points == state.result.raw[0]
        assert shown.bid_won == (state.bidder_seat == 0)
        assert shown.made == (state.bidder_seat == 0 and state.result.made)

    [stats] = history.stats_for([line])
    assert stats.rounds == len(match.rounds)
    assert stats.auctions_won == sum(s.bidder_seat == 0 for s in match.rounds)
    assert stats.points == sum(s.result.raw[0] for s in match.rounds)
    assert stats.won == (match.winner == 0)


def test_a_round_still_being_played_is_neither_listed_nor_counted(make_user):
    user = make_user("bea")
    rng = Random(1)
    match = greedy_round(MatchState(MatchSetup.cutthroat(3), 0), rng)
    match = match.deal_round(rng).apply(match.deal_round(rng).legal_actions()[0])
    stored_table(match, [{"user": user}, {"bot_level": "greedy"}, {"bot_level": "greedy"}])

    [line] = history.tables_for(user_id=user.pk)
    assert line.result == "Playing"
    assert [r.number for r in line.rounds] == [1]  # the round in play is not there


def test_stats_group_by_table_size_and_layout_and_the_lobby_is_not_history(make_user):
    user = make_user("cy")
    for seed, setup in enumerate([MatchSetup.cutthroat(3, 11), MatchSetup.cutthroat(3, 11)]):
        stored_table(greedy_match(setup, seed), [{"user": user}, {}, {}])
    stored_table(greedy_match(MatchSetup.partnerships(4, 2, 11), 9), [{"user": user}, {}, {}, {}])
    lobby = stored_table(MatchState(MatchSetup.cutthroat(3), 0), [{"user": user}, {}, {}])
    Table.objects.filter(pk=lobby.pk).update(status=Table.Status.LOBBY)

    lines = history.tables_for(user_id=user.pk)
    assert len(lines) == 3
    stats = history.stats_for(lines)
    assert [(s.players, s.layout, s.tables) for s in stats] == [(3, "cutthroat", 2), (4, "2v2", 1)]


def test_the_chart_draws_one_point_a_table_inside_its_box():
    chart = history.chart([1.0, 3.0, 2.0])
    assert len(chart.dots) == 3
    xs = [x for x, _ in chart.dots]
    assert xs == sorted(xs)
    ys = [y for _, y in chart.dots]
    assert min(ys) >= 0 and max(ys) <= chart.height
    assert ys[1] < ys[2] < ys[0]  # higher values are drawn higher up
    assert history.chart([2.0]) is None


def test_the_profile_shows_the_history_with_links_and_an_svg_chart(client, make_user):
    user = make_user("dee")
    for seed in (1, 2):
        match = greedy_match(MatchSetup.partnerships(4, 2, target=11), seed)
        table = stored_table(match, [{"user": user}, {}, {}, {}])
    client.force_login(user)
    html = client.get("/accounts/profile/").content.decode()
    assert f"/table/{table.code}/rounds/1/" in html
    assert f"/learn/review/{table.code}/1/" in html
    assert f"/table/{table.code}/record" in html
    assert "<polyline" in html
    assert "style=" not in html.split("<h2>Ratings</h2>")[1]


def test_the_charts_caption_tells_the_change_in_time_order():
    assert history.chart([1500.0, 1480.2, 1463.8]).trend == "fell from 1500 to 1464"
    assert history.chart([1464.0, 1500.0]).trend == "rose from 1464 to 1500"
    assert history.chart([1500.0, 1520.0, 1500.0]).trend == "ended where it began, at 1500"
    assert history.chart([1.25, 0.5], digits=2).trend == "fell from 1.25 to 0.50"


def test_the_chart_leaves_room_for_its_axes():
    chart = history.chart([1.0, 3.0, 2.0])
    assert all(chart.axis_left < x <= chart.right for x, _ in chart.dots)
    assert all(chart.top <= y < chart.axis_bottom for _, y in chart.dots)
    assert (chart.low_text, chart.high_text, chart.count) == ("1", "3", 3)


def test_the_profile_dates_its_tables_for_the_viewers_zone_and_orders_the_opt_in(client, make_user):
    import re

    user = make_user("eve")
    match = greedy_match(MatchSetup.partnerships(4, 2, target=11), 1)
    table = stored_table(match, [{"user": user}, {}, {}, {}])
    client.force_login(user)
    html = client.get("/accounts/profile/").content.decode()

    row = html.split(f'data-table="{table.code}"')[1]
    stamp = re.search(r'<time data-local datetime="([^"]+)">', row)
    assert stamp and re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:.]+[+-]\d\d:\d\d", stamp.group(1))
    assert "js/local-time.js" in html
    # box, then its label, then what it means
    check = html.split('class="profile-check"')[1]
    box = check.index('name="on_leaderboard"')
    label = check.index("Show me on the leaderboards")
    help_text = check.index("Your name and rating")
    assert box < label < help_text
    assert "aria-describedby" in check.split(">")[0] + check[: check.index("<label")]
