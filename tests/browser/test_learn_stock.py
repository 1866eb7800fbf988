"""A fresh site rates from the first minutes: its worker analyses private positions while
the first learner practises on the starter bank, and each unrated answer says why."""

import re
import subprocess
import sys
import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import phone_at, served_env
from tests.servers import REPO, manage, serving

pytestmark = pytest.mark.browser

WITHIN_S = 120  # the promise: a rated position within two minutes of a fresh start


def _answer(page: Page) -> None:
    puzzle = page.locator("#puzzle")
    expect(puzzle).to_have_attribute("data-state", "question")
    page.locator(".bid-form button").first.click()
    expect(puzzle).to_have_attribute("data-state", "reveal")


def test_a_fresh_site_serves_a_rated_position_within_two_minutes(browser, tmp_path, artifacts):
    env = served_env(tmp_path / "fresh.sqlite3")
    manage(["load_positions"], env=env)  # the starter banks, as make run loads them
    with (
        (tmp_path / "worker.log").open("w") as worker_log,
        serving(env=env, log=tmp_path / "server.log") as server,
    ):
        page = phone_at(browser, server.url)
        # before the worker starts: only starter positions, and the page says why
        page.goto("/learn/?phase=auction")
        page.get_by_role("button", name="Show me a position").click()
        expect(page.locator(".learn-unrated")).to_contain_text("it is a starter position")
        _answer(page)
        expect(page.locator(".learn-rating")).to_contain_text("Not rated: it is a starter position")
        page.goto("/learn/?phase=auction")
        expect(page.locator(".learn-waiting")).to_contain_text("not running right now")

        started = time.monotonic()
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "review_worker", "--interval", "1"],
            cwd=REPO,
            env=env,
            stdout=worker_log,
            stderr=subprocess.STDOUT,
        )
        try:
            waiting = page.locator(".learn-waiting")
            while time.monotonic() - started < WITHIN_S:
                page.goto("/learn/?phase=auction")
                if not waiting.count():
                    break
                time.sleep(2)
            assert not waiting.count(), f"no rated position within {WITHIN_S} s"

            page.get_by_role("button", name="Show me a position").click()
            expect(page.locator(".learn-unrated")).to_have_count(0)
            _answer(page)
            rating = page.locator(".learn-rating")
            expect(rating).to_contain_text(re.compile(r"Your rating: 1500 → \d+"))
            after = int(re.search(r"1500 → (\d+)", rating.inner_text()).group(1))
            assert after != 1500
            page.screenshot(path=artifacts / "phone-learn-first-rated.png", full_page=True)
        finally:
            worker.terminate()
            worker.wait(timeout=10)
