"""The trainer at the full-deck games in a real browser on a phone: choose the game,
discard by tapping the cards, read the reveal in that game's words,
and find the game still chosen at the next visit."""

import json

import pytest
from playwright.sync_api import Page, expect

from game.engine import notation, rules
from game.engine.rules import Phase
from learn import services
from learn.models import Attempt, PracticePosition
from tests.learn.family import FAMILY
from tests.learn.test_views_family import family_position

pytestmark = pytest.mark.browser


@pytest.fixture
def live_family_bank(transactional_db) -> list[PracticePosition]:
    cores = [
        family_position(preset, phase)
        for preset in FAMILY
        for phase in (Phase.AUCTION, Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY)
    ]
    report = services.positions_load(lines=[json.dumps(core.to_json()) for core in cores])
    assert not report.errors
    return list(PracticePosition.objects.all())


def horizontal_overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.parametrize("game", ["Classic four-point", "Six-handed"])
def test_a_guest_chooses_the_game_discards_and_finds_the_game_kept(
    phone: Page, live_family_bank, artifacts, game
):
    phone.goto("/learn/")
    phone.get_by_label("Game").select_option(label=game)
    phone.get_by_label("Phase").select_option("discard")
    phone.get_by_role("button", name="Show a position").click()
    puzzle = phone.locator("#puzzle")
    expect(puzzle).to_have_attribute("data-state", "question")
    expect(phone.get_by_role("heading", name="Your discard")).to_be_visible()
    chooser = phone.locator("[data-card-chooser]")
    expect(chooser).to_be_visible()
    assert horizontal_overflow(phone) <= 0, "the hand scrolls sideways at 390 px"
    phone.screenshot(path=artifacts / f"phone-learn-discard-{game[:3]}.png", full_page=True)

    # the expert's discard, tapped in the mode offered (tests/browser/test_learn_discard.py)
    core = Attempt.objects.order_by("-pk").first().position.core
    view, mode = core.view(), chooser.get_attribute("data-mode")
    thrown = rules.discarded(notation.parse_action(core.best.code))
    tapped = (view.hand & ~thrown if mode == "keep" else thrown) & view.discard_rule.optional
    for code in notation.cards(tapped):
        chooser.locator(f'label.chooser-card:has([data-card="{code}"])').click()
    chooser.get_by_role("button", name="Discard").click()
    expect(puzzle).to_have_attribute("data-state", "reveal")
    expect(phone.locator(".learn-block").first).to_contain_text("Discarding ")
    expect(phone.locator(".learn-block").first).to_contain_text(game)

    phone.goto("/learn/")  # a new visit: the game chosen is still chosen
    expect(phone.get_by_label("Game")).to_have_value(
        "classic" if game.startswith("Classic") else "six_handed"
    )
