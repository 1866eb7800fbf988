"""Your own round, reviewed: play a round against bots, open its review, see the marked
decision, press "Practise this" and meet it again in the trainer."""

import re
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import Page, expect

from game.engine.state import Deal, MatchSetup
from game.players import ratings
from game.services import play
from tests.game.stored import greedy_match, stored_table
from tests.learn.reviewing import BLUNDER_SEAT, monster_deal

pytestmark = pytest.mark.browser


class _LastSeat:
    """Deals from the last seat, so that seat 0 (the person) opens the auction."""

    def randrange(self, n: int) -> int:
        return n - 1


def _monster_for_seat_0(setup, dealer, rng) -> Deal:
    # the monster hand is dealt to the first bidder; seat 0 bids first when seat 3 deals
    deal = monster_deal()
    shift = BLUNDER_SEAT
    hands = tuple(deal.hands[(seat + shift) % 4] for seat in range(4))
    return Deal(dealer, hands, deal.hidden)


def _move(page: Page, button) -> None:
    """Click a move and wait until the table has moved on from it."""
    table = page.locator("#table")
    before = f"{table.get_attribute('data-round')}/{table.get_attribute('data-index')}"
    button.click()
    page.wait_for_function(
        "before => { const t = document.querySelector('#table');"
        " return t && `${t.dataset.round}/${t.dataset.index}` !== before; }",
        arg=before,
    )


def test_a_passed_monster_hand_is_marked_and_practised_in_the_trainer(page: Page, monkeypatch):
    monkeypatch.setattr(play, "random", SimpleNamespace(SystemRandom=_LastSeat))
    monkeypatch.setattr(play, "shuffle_deal", _monster_for_seat_0)
    page.goto("/play/")
    page.get_by_label("Players").select_option("4")
    page.get_by_label("Teams", exact=True).select_option("2v2")
    for seat in (1, 2, 3):
        page.get_by_label(f"Seat {seat} bot").select_option("greedy")
    page.get_by_role("button", name="Deal me in").click()
    expect(page.get_by_role("heading", name="Your hand")).to_be_visible()

    summary = page.get_by_role("heading", name="Round summary")
    _move(page, page.get_by_role("button", name="Pass"))  # the blunder
    for _ in range(6):
        if summary.is_visible():
            break
        playable = page.get_by_role("button", name="can be played")
        expect(playable.first.or_(summary).first).to_be_visible()
        if summary.is_visible():
            break
        _move(page, playable.first)
    expect(summary).to_be_visible()
    code = page.url.rstrip("/").rsplit("/", 1)[-1]

    page.goto(f"/table/{code}/rounds/1/")
    page.get_by_role("link", name="Review my decisions").click()
    page.get_by_role("button", name="Review my decisions").click()
    expect(page.locator("progress.review-progress")).to_be_visible()
    call_command("db_worker", batch=True, startup_delay=False, interval=0, verbosity=0)

    marked = page.locator('[data-grade="blunder"]')
    expect(marked).to_be_visible(timeout=15_000)  # the page polls until the review is done
    expect(marked.get_by_role("heading", level=2)).to_contain_text("Blunder: Pass")
    expect(marked).to_contain_text("Passing is a blunder")
    marked.get_by_role("button", name="Practise this").click()

    expect(page.get_by_text("In your practice queue")).to_be_visible()
    page.get_by_role("button", name="Try this position").click()
    expect(page).to_have_url(re.compile(r"/learn/attempts/[^/]+/$"))
    expect(page.get_by_role("heading", name="Practise", exact=True)).to_be_visible()
    for card in ("AH", "KH", "QH", "JH", "10H", "J1"):
        expect(page.locator(f'[data-card="{card}"]').first).to_be_visible()
    expect(page.get_by_role("button", name="Pass")).to_be_visible()


def test_the_profiles_history_stats_and_ratings_fit_a_phone(phone: Page, artifacts):
    user = get_user_model().objects.create_user(username="prairie", password="not-used-123")
    for seed in (1, 2):
        match = greedy_match(MatchSetup.partnerships(4, 2, target=11), seed)
        table = stored_table(match, [{"user": user}] + [{"bot_level": "expert"}] * 3)
    ratings.ratings_settle()  # stored straight, not played: rated by the catch-up
    phone.goto("/accounts/login/?next=/accounts/profile/")
    phone.get_by_label("Username").fill("prairie")
    phone.get_by_label("Password:", exact=True).fill("not-used-123")
    phone.get_by_role("button", name="Log in").click()

    expect(phone.get_by_role("heading", name="Your tables")).to_be_visible()
    expect(phone.locator(f'tr[data-table="{table.code}"]')).to_be_visible()
    expect(phone.get_by_text("Your rating at 4 players, match by match")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    phone.screenshot(path=artifacts / "phone-profile-history.png", full_page=True)
    phone.locator(f'tr[data-table="{table.code}"]').get_by_role("link", name="review").first.click()
    expect(phone.get_by_role("button", name="Review my decisions")).to_be_visible()
