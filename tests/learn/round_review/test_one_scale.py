"""One scale of mistakes (issue 46): the trainer's sentence, the review's heading, the
review's count and the legend all come from ``learn.core.grades`` and agree, the noise
rule applied once."""

from dataclasses import replace

import pytest
from django.template.loader import render_to_string

from learn import presenters as trainer_presenters
from learn import selectors
from learn.core import grades
from learn.core.explain import explained
from learn.core.positions import AnalysedPosition
from learn.models import RoundReview
from learn.round_review import decisions, presenters
from tests.learn.fixtures.factories import starter_positions

# the sentence's words for each kind of verdict, as the player reads them
SAID = {
    "best": "You found it: ",
    "level": " is level with ",
    "noise": " is as good as the best, ",
    "thin": "too few deals were sampled to grade it",
    "close": " is close to the best, ",
    grades.INACCURACY: " is an inaccuracy: ",
    grades.MISTAKE: " is a mistake: ",
    grades.BLUNDER: " is a blunder: ",
}
HEADING = {
    "best": "Best",
    "level": "Level",
    "noise": "Too close to call",
    "thin": "Not graded",
    "close": "Close",
    grades.INACCURACY: "Inaccuracy",
    grades.MISTAKE: "Mistake",
    grades.BLUNDER: "Blunder",
}


def reviewed(position: AnalysedPosition, chosen: str) -> presenters.DecisionShown:
    cost, grade = decisions.grade(position, chosen)
    return presenters._shown(decisions.Decision(0, chosen, position, cost, grade))


def page_of(*shown: presenters.DecisionShown) -> presenters.ReviewPage:
    return presenters.ReviewPage(RoundReview.Status.DONE, len(shown), len(shown), shown)


def the_issues_pass(error: float, deals: int = 120) -> AnalysedPosition:
    """A bid worth 1.42 more than a pass, with ``error`` the margin's standard error."""
    position = next(p for p in starter_positions() if p.phase == "auction" and len(p.options) > 2)
    best = replace(position.best, value=1.0, code="bid:2")
    passing = replace(position.option("pass"), value=1.0 - 1.42, margin_se=error)
    rest = tuple(
        replace(o, value=-3.0 - i) for i, o in enumerate(position.options) if o.code != "pass"
    )[1:]
    return replace(position, options=(best, passing, *rest), deals=deals)


def variants() -> list[AnalysedPosition]:
    """The starter bank's positions, and the same with noisier and thinner analyses, so
    that every kind of verdict turns up."""
    bank = starter_positions()[::8]
    noisy = [
        replace(p, options=tuple(replace(o, margin_se=(o.margin_se or 0) * 6) for o in p.options))
        for p in bank
    ]
    thin = [replace(p, deals=grades.MIN_DEALS - 1) for p in bank]
    return [*bank, *noisy, *thin, the_issues_pass(0.6), the_issues_pass(0.8)]


@pytest.mark.django_db
def test_the_sentence_the_heading_and_the_count_agree_for_every_decision():
    seen = set()
    shown_all = []
    for position in variants():
        for option in position.options:
            shown = reviewed(position, option.code)
            told = explained(position, option.code)
            assert told.verdict == shown.verdict == grades.verdict_of(position, option.code)
            kind = shown.kind
            seen.add(kind)
            assert SAID[kind] in told.paragraphs[0], (position.key, option.code, kind)
            assert shown.label == HEADING[kind]
            # the stored grade, the page's mark and the trainer's "right" are one rule
            assert shown.grade == decisions.grade(position, option.code)[1]
            assert selectors.is_right(position, option.code) == (kind in ("best", "level", "noise"))
            other_words = [w for k, w in SAID.items() if k != kind and k not in ("best",)]
            assert not any(w in told.paragraphs[0] for w in other_words if w != SAID[kind])
            shown_all.append(shown)
    assert set(SAID) <= seen | {"close", "level"}, seen  # every kind met but the rarest
    page = page_of(*shown_all)
    assert page.marked == sum(s.grade is not None for s in shown_all)
    for step in grades.SCALE[1:]:
        n = sum(s.grade == step.grade for s in shown_all)
        if n:
            assert f"{n} {step.label.lower()}{'s' * (n != 1)}" in page.summary


@pytest.mark.django_db
def test_a_pass_whose_text_calls_it_a_mistake_is_marked_and_counted_a_mistake():
    clear = reviewed(the_issues_pass(error=0.6), "pass")  # 1.42 beyond 2 x 0.6
    assert "Passing is a mistake: bidding 2 is better." in clear.explanation.paragraphs[0]
    assert (clear.label, clear.grade) == ("Mistake", grades.MISTAKE)
    page = page_of(clear)
    assert page.marked == 1 and page.summary == "1 of your 1 decision is marked: 1 mistake."
    html = render_to_string(
        "learn/review.html#review",
        {"page": page, "code": "ABCD", "number": 1, "worker_running": True},
    )
    assert (
        '<span class="review-grade learn-grade learn-grade--mistake">Mistake</span>: Pass' in html
    )
    assert "1 of your 1 decision is marked: 1 mistake." in html
    assert "Practise this" in html


@pytest.mark.django_db
def test_a_cost_within_the_noise_is_too_close_to_call_in_the_text_heading_and_count():
    noisy = reviewed(the_issues_pass(error=0.8), "pass")  # 1.42 within 2 x 0.8
    text = noisy.explanation.paragraphs[0]
    assert "Passing is as good as the best, bidding 2, as far as the sampled deals" in text
    assert "mistake" not in text
    assert (noisy.label, noisy.grade) == ("Too close to call", None)
    page = page_of(noisy, reviewed(the_issues_pass(error=0.6), "pass"))
    assert page.summary == "1 of your 2 decisions is marked: 1 mistake (1 too close to call)."
    html = render_to_string(
        "learn/review.html#review",
        {"page": page_of(noisy), "code": "ABCD", "number": 1, "worker_running": True},
    )
    assert "Too close to call</span>: Pass" in html and "Practise this" not in html


def test_the_legend_is_drawn_from_the_scale_table(monkeypatch):
    html = render_to_string(
        "learn/parts.html#scale",
        {"legend": trainer_presenters.scale_legend(), "scale_rule": trainer_presenters.SCALE_RULE},
    )
    for step in grades.SCALE:
        assert f">{step.label}</span>" in html and step.meaning in html
    assert "under 0.30" in html and "0.30 to 1.00" in html
    assert "1.00 to 2.00" in html and "2.00 or more" in html
    assert f"{grades.Z:g} standard errors" in html and f"{grades.MIN_DEALS} sampled deals" in html
    # another table, another legend: nothing in it is written twice
    moved = (*grades.SCALE[:3], replace(grades.SCALE[3], start=3.0))
    monkeypatch.setattr(grades, "SCALE", moved)
    assert trainer_presenters.scale_legend()[-1].range_text == "3.00 or more"
    assert grades.step_of(2.5).grade == grades.MISTAKE


def test_the_scale_is_one_table_of_thresholds():
    assert [s.grade for s in grades.SCALE] == [
        grades.LEVEL,
        grades.INACCURACY,
        grades.MISTAKE,
        grades.BLUNDER,
    ]
    assert [s.start for s in grades.SCALE] == sorted(s.start for s in grades.SCALE)
    assert grades.grade_of(0.29) is None and grades.step_of(0.29).grade == grades.LEVEL
    for step in grades.SCALE[1:]:
        assert grades.grade_of(step.start) == step.grade
        assert grades.graded(step.start, 0.0, grades.MIN_DEALS) == step.grade
        assert grades.graded(step.start, step.start / grades.Z, grades.MIN_DEALS) is None
        assert grades.graded(step.start, 0.0, grades.MIN_DEALS - 1) is None
