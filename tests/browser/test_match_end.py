"""A match's end on a phone: the score by round a tap away, and a new table with the
same settings prefilled (then changed)."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from game.engine import variants
from game.engine.state import MatchSetup
from game.players import profiles
from tests.game.stored import greedy_match, stored_table

pytestmark = pytest.mark.browser

PASSWORD = "trump-leads-first-42"


def test_a_finished_match_offers_the_score_by_round_and_a_new_table_like_it(
    phone: Page, transactional_db, artifacts
):
    user = get_user_model().objects.create_user(username="finisher", password=PASSWORD)
    profiles.profile_get_or_create(user=user)
    match = greedy_match(MatchSetup(4, ((0, 2), (1, 3)), rules=variants.SEVEN_POINT), seed=3)
    seats = [{"user": user, "display_name": "Finisher"}]
    seats += [{"bot_level": "greedy", "display_name": f"Greedy bot {n}"} for n in (1, 2, 3)]
    table = stored_table(match, seats)

    phone.goto(f"/accounts/login/?next=/table/{table.code}/")
    phone.get_by_label("Username").fill("finisher")
    phone.get_by_label("Password:", exact=True).fill(PASSWORD)
    phone.get_by_role("button", name="Log in").click()
    expect(phone.get_by_role("heading", name="Match over", exact=False)).to_be_visible()

    rounds = phone.locator(".score-by-round")
    expect(rounds.locator("table")).to_be_hidden()  # folded: the felt keeps the screen
    rounds.locator("summary").click()
    rows = rounds.locator("tbody tr")
    expect(rows).to_have_count(sum(1 for r in match.rounds if not r.result.redeal))
    last = rows.last.locator("td")
    assert [int(cell) for cell in last.all_inner_texts()] == list(match.scores)
    phone.screenshot(path=artifacts / "phone-table-match-end.png", full_page=True)

    phone.get_by_role("link", name="New table, other settings").click()
    expect(phone.get_by_label("Game")).to_have_value("seven_point")
    expect(phone.get_by_label("Players")).to_have_value("4")
    expect(phone.get_by_label("Seat 2 bot")).to_have_value("greedy")
    phone.get_by_label("Seat 2 bot").select_option("expert")
    phone.get_by_role("button", name="Deal me in").click()
    expect(phone.get_by_role("heading", name="Your hand")).to_be_visible()
    expect(phone.locator(".rules-glance")).to_contain_text("Seven-point")
