"""A discard position through the test client: the hand is tapped (the cards to keep, or
to throw), any discard the rule allows is an answer, one the analysis did not price is
priced against the expert's, and a forged set is refused with the rule's reason and
changes nothing."""

import dataclasses
import json
import re

import pytest

from game.engine import notation
from game.engine.rules import Phase, discarded
from learn import services
from learn.core import discards as core_discards
from learn.models import Attempt, PracticePosition
from learn.selectors import Filters
from tests.learn.core.test_positions_family import discards
from tests.learn.family import FAMILY, match_at, position_at
from tests.learn.test_views import HTMX, served, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def discard_bank(db) -> list[PracticePosition]:
    """A discard position of each full-deck game (classic's hand keeping its trumps, the
    six-handed dealer's 23 cards, the seven-point seat whose rule decides every card)."""
    cores = [position_at(m, discards(m)) for m in map(exchange, FAMILY)]
    report = services.positions_load(lines=[json.dumps(core.to_json()) for core in cores])
    assert not report.errors
    return list(PracticePosition.objects.order_by("pk"))


def exchange(preset: str):
    return match_at(preset, Phase.EXCHANGE)


def taps(core, code: str, mode: str) -> list[str]:
    """The cards to tap in ``mode`` for the discard ``code``: never one the rule fixes."""
    view = core.view()
    thrown = discarded(notation.parse_action(code))
    free = view.discard_rule.optional
    return list(notation.cards((view.hand & ~thrown if mode == "keep" else thrown) & free))


def post(client, attempt, mode: str, cards: list[str], **headers):
    data = {"mode": mode, "card": cards, "position": attempt.position.key}
    return client.post(f"/learn/attempts/{attempt.token}/answer/", data, **headers)


@pytest.mark.parametrize("preset", FAMILY)
def test_a_discard_is_asked_as_the_hand_to_tap_and_answered_by_the_cards_kept(
    client, discard_bank, preset
):
    attempt = served(client, f"game={preset}&phase=discard")
    core = attempt.position.core
    view = core.view()
    page = client.get(f"/learn/attempts/{attempt.token}/").text

    assert 'name="choice"' not in page  # no list of discards to pick from
    boxes = re.findall(r'name="card" value="([^"]+)"', page)
    assert boxes == list(notation.cards(view.discard_rule.optional))
    fixed = re.findall(r'data-fixed="(keep|throw)"', page)
    assert len(fixed) == view.hand.bit_count() - len(boxes)
    assert re.search(r'name="mode" value="keep" checked', page)  # fewer taps, each game here
    assert "card_chooser.js" in page

    worst = core.options[-1].code
    response = post(client, attempt, "keep", taps(core, worst, "keep"))
    assert response.status_code == 302
    done = Attempt.objects.get(pk=attempt.pk)
    assert done.answer == worst and done.correct is (worst == core.best.code)
    reveal = client.get(response.url).text
    assert "Discarding " in reveal and " gone, you keep " in reveal
    assert "data-unpriced" not in reveal  # the analysis priced it: graded as ever


def test_the_cards_tapped_to_throw_answer_as_well_and_the_best_is_right(client, discard_bank):
    attempt = served(client, "game=classic&phase=discard")
    core = attempt.position.core
    response = post(client, attempt, "throw", taps(core, core.best.code, "throw"))
    assert response.status_code == 302
    done = Attempt.objects.get(pk=attempt.pk)
    assert done.answer == core.best.code and done.correct
    assert "Right!" in client.get(response.url).text


def test_a_discard_the_analysis_did_not_price_is_priced_against_the_experts(client, discard_bank):
    attempt = served(client, "game=classic&phase=discard")
    core = attempt.position.core
    assert attempt.rated
    unpriced = next(
        code for code in discards(exchange("classic"), 20) if code not in core.legal_codes()
    )
    response = post(client, attempt, "throw", taps(core, unpriced, "throw"))
    assert response.status_code == 302

    done = Attempt.objects.get(pk=attempt.pk)
    found = core_discards.afresh(core, unpriced)
    assert done.answer == unpriced
    assert found.deals >= 60  # 300 unless the time limit cut a loaded machine short
    assert done.correct is found.correct and done.rated is found.rated
    reveal = client.get(response.url).text
    assert "data-unpriced" in reveal
    assert f"not among the {len(core.options)} the expert priced" in reveal
    assert f"over the same {found.deals} deals" in reveal
    kept = re.search(r"You keep (.*?); the expert keeps (.*?)\.</p>", reveal, re.S)
    hand = core.view().hand
    for shown, code in ((kept.group(1), unpriced), (kept.group(2), core.best.code)):
        cards = re.findall(r'data-card="([^"]+)"', shown)
        assert cards == list(notation.cards(hand & ~discarded(notation.parse_action(code))))


def test_an_unpriced_discard_on_too_few_deals_is_practice_only(client, discard_bank, monkeypatch):
    monkeypatch.setattr(core_discards, "ANSWER_DEALS", 20)
    core_discards._priced_afresh.cache_clear()
    attempt = served(client, "game=classic&phase=discard")
    core = attempt.position.core
    unpriced = next(
        code for code in discards(exchange("classic"), 20) if code not in core.legal_codes()
    )
    response = post(client, attempt, "throw", taps(core, unpriced, "throw"))
    core_discards._priced_afresh.cache_clear()
    assert response.status_code == 302
    done = Attempt.objects.get(pk=attempt.pk)
    assert not done.rated and done.rating_after == done.rating_before
    assert done.unrated_reason == Attempt.Unrated.THIN
    assert "too few to rate an answer by" in client.get(response.url).text


def test_the_reveal_shows_the_figures_the_discard_was_graded_on(client, discard_bank, monkeypatch):
    attempt = served(client, "game=classic&phase=discard")
    core = attempt.position.core
    unpriced = next(
        code for code in discards(exchange("classic"), 20) if code not in core.legal_codes()
    )
    post(client, attempt, "throw", taps(core, unpriced, "throw"))
    done = Attempt.objects.get(pk=attempt.pk)
    assert done.priced["code"] == unpriced and done.priced["deals"] >= 60

    def priced_again(*args):
        raise AssertionError("the reveal priced the discard again")

    monkeypatch.setattr(core_discards, "afresh", priced_again)
    reveal = client.get(f"/learn/attempts/{attempt.token}/").text
    assert f"over the same {done.priced['deals']} deals" in reveal


def test_pricing_unpriced_discards_is_paced_per_learner_and_changes_nothing_past_it(
    client, discard_bank, monkeypatch
):
    monkeypatch.setattr(services, "PRICINGS_PER_MINUTE", 0)
    attempt = served(client, "game=classic&phase=discard")
    core = attempt.position.core
    unpriced = next(
        code for code in discards(exchange("classic"), 20) if code not in core.legal_codes()
    )
    before = snapshot(attempt)

    response = post(client, attempt, "throw", taps(core, unpriced, "throw"))

    assert response.status_code == 429
    assert "at most 0 a minute" in response.text
    assert snapshot(attempt) == before
    assert not Attempt.objects.get(pk=attempt.pk).is_answered
    priced = post(client, attempt, "keep", taps(core, core.best.code, "keep"))
    assert priced.status_code == 302  # a discard the analysis priced costs nothing more


def forged(core, kind: str) -> tuple[str, list[str]]:
    view = core.view()
    rule, hand = view.discard_rule, view.hand
    best = core.best.code
    if kind == "wrong count":
        return "keep", taps(core, best, "keep")[:-1]
    if kind == "not in the hand":
        outside = next(notation.card(c) for c in range(52) if not hand >> c & 1)
        return "keep", taps(core, best, "keep")[:-1] + [outside]
    if kind == "a card that must stay thrown":
        stay = notation.cards(hand & ~rule.may)[0]
        return "throw", taps(core, best, "throw")[:-1] + [stay]
    raise AssertionError(kind)


@pytest.mark.parametrize(
    "kind, why",
    [
        ("wrong count", "keep 6 cards, not 5"),
        ("not in the hand", "is not in your hand"),
        ("a card that must stay thrown", "may not be discarded"),
    ],
)
def test_a_forged_or_illegal_set_is_refused_with_the_rules_reason_and_changes_nothing(
    client, discard_bank, kind, why
):
    attempt = served(client, "game=classic&phase=discard")
    before = snapshot(attempt)
    mode, cards = forged(attempt.position.core, kind)

    response = post(client, attempt, mode, cards)

    assert response.status_code == 400
    assert "That discard is not allowed: " in response.text and why in response.text
    assert snapshot(attempt) == before
    assert not Attempt.objects.get(pk=attempt.pk).is_answered
    assert "data-card-chooser" in response.text  # the hand is offered again


def test_keeping_a_card_the_rule_throws_is_refused(client, discard_bank):
    attempt = served(client, "game=seven_point&phase=discard")
    rule = attempt.position.core.view().discard_rule
    before = snapshot(attempt)
    response = post(client, attempt, "keep", [notation.cards(rule.must)[0]])
    assert response.status_code == 400
    assert "must be discarded" in response.text
    assert snapshot(attempt) == before


def test_a_refused_set_with_htmx_shows_the_reason_in_place(client, discard_bank):
    attempt = served(client, "game=six_handed&phase=discard")
    before = snapshot(attempt)
    free = notation.cards(attempt.position.core.view().discard_rule.optional)
    response = post(client, attempt, "keep", list(free[:7]), **HTMX)
    assert response.status_code == 200  # htmx swaps only 2xx answers
    assert 'role="alert"' in response.text and "keep 6 cards, not" in response.text
    assert "data-card-chooser" in response.text
    assert snapshot(attempt) == before


def test_a_mode_that_is_neither_is_refused(client, discard_bank):
    attempt = served(client, "game=classic&phase=discard")
    before = snapshot(attempt)
    response = post(client, attempt, "<script>", [])
    assert response.status_code == 400
    assert "is no discard" in response.text and "<script>" not in response.text
    assert snapshot(attempt) == before


# --- Grading, through the service ---------------------------------------------------------


def answered_with(guest, core, mode: str, code: str) -> Attempt:
    report = services.positions_load(lines=[json.dumps(core.to_json())])
    assert not report.errors
    attempt = services.attempt_serve(learner=guest, filters=Filters(), key=core.key)
    choice = f"{mode}:{','.join(taps(core, code, mode))}"
    return services.attempt_answer(learner=guest, token=attempt.token, choice=choice)


def test_a_priced_discard_level_with_the_best_is_right_and_one_beyond_the_error_wrong(guest):
    match = exchange("six_handed")
    core = position_at(match, discards(match, 3))
    level = (1.0, 1.0 - 0.004, 0.3)  # the second shows the best's value: "level"
    options = tuple(
        dataclasses.replace(o, value=v, margin_se=0.0 if i == 0 else 0.001)
        for i, (o, v) in enumerate(zip(core.options, level, strict=True))
    )
    core = dataclasses.replace(core, options=options)
    assert answered_with(guest, core, "keep", core.options[1].code).correct
    again = services.attempt_serve(learner=guest, filters=Filters(), key=core.key)
    worst = f"throw:{','.join(taps(core, core.options[2].code, 'throw'))}"
    done = services.attempt_answer(learner=guest, token=again.token, choice=worst)
    assert done.answer == core.options[2].code and done.correct is False


def test_a_discard_the_analysis_did_not_price_is_graded_by_the_deals_it_was_priced_on(guest):
    match = exchange("classic")
    found = discards(match, 6)
    core = position_at(match, found[:2])
    done = answered_with(guest, core, "keep", found[-1])
    priced = core_discards.afresh(core, found[-1])
    assert done.answer == found[-1] and priced is not None
    assert done.correct is priced.correct
