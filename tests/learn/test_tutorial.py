"""Each tutorial lesson teaches its own game and practises on positions of that game and
of the kind it teaches, from the real banks; its words come from the game's rules."""

import json

import pytest

from game.engine import variants
from game.engine.cards import JOKERS, parse_card
from game.players.identity import SeatOwner
from learn import selectors, services, tutorial
from learn.bank.bank_file import FAMILY_STARTER
from learn.core.positions import AnalysedPosition
from learn.models import Attempt, PracticePosition
from learn.tutorial import BY_GAME, LESSONS, LESSONS_BY_SLUG, PRACTICE_PER_LESSON, Lesson
from tests.learn.conftest import sample_lines, wrong_code
from tests.learn.fixtures.factories import STARTER_BANK

pytestmark = pytest.mark.django_db

SERVED_PER_LESSON = 12
CARD_PLAY = ("lead", "follow")


def kind(lesson: Lesson) -> str:
    """What a lesson teaches: its slug, less its game's name for a full-deck game's."""
    return lesson.slug.removeprefix(lesson.preset.replace("_", "-") + "-")


def joker_in_play(core: AnalysedPosition) -> bool:
    view = core.view()
    best = parse_card(core.best.code)
    return bool(JOKERS >> best & 1) or any(JOKERS >> card & 1 for _, card in view.current_trick)


def fits(lesson: Lesson, core: AnalysedPosition) -> bool:
    """What each lesson is about, said from the position itself (not the database)."""
    if core.preset != lesson.preset:
        return False
    view = core.view()
    return {
        # the house rules
        # the deck decides which card is the low: a card to play with the low in question
        "deck": core.phase != "auction" and "low" in core.themes,
        "auction": core.phase == "auction",
        "trump": core.phase == "lead" and view.trump is None,
        "following": core.phase == "follow" and len(core.legal_codes()) < len(view.hand_cards),
        "points": bool(set(core.themes) & {"protecting-jack", "tens-for-game", "joker", "low"})
        if lesson.preset == "house"
        # the full-deck games: points won in the play, trumps drawn or a ten for Game
        else core.phase in CARD_PLAY
        and bool(set(core.themes) & {"drawing-trump", "tens-for-game"}),
        "scoring": "match-score" in core.themes,  # a bid or a card near the match's end
        # the full-deck games
        "naming-trump": core.phase == "trump",
        "discard": core.phase == "discard",
        "pack": core.phase == "discard" and view.dealer == core.seat,
        "fill": core.phase == "discard" and view.dealer == core.seat,
        "jick": core.phase in CARD_PLAY and joker_in_play(core),
        "going-out": core.phase == "auction",
    }[kind(lesson) if kind(lesson) != "trump" or lesson.preset == "house" else "naming-trump"]


@pytest.fixture
def starter(db) -> list[PracticePosition]:
    """The banks the site ships: the house rules' and the full-deck games'."""
    lines = STARTER_BANK.read_text().splitlines() + FAMILY_STARTER.read_text().splitlines()
    report = services.positions_load(lines=lines)
    assert not report.errors
    return list(PracticePosition.objects.all())


def practise(lesson: Lesson, owner: str, times: int) -> list[AnalysedPosition]:
    """Serve and answer the lesson's practice ``times`` times, as a learner who never stops."""
    learner = services.learner_get_or_create(owner=SeatOwner(session_key=owner))
    cores = []
    for _ in range(times):
        attempt = services.lesson_serve(learner=learner, lesson=lesson)
        if attempt is None:
            break
        cores.append(attempt.position.core)
        services.attempt_answer(
            learner=learner, token=attempt.token, choice=wrong_code(attempt.position)
        )
    return cores


def test_loading_notes_where_in_the_round_each_position_is(starter):
    for position in starter:
        core = position.core
        assert position.tricks == len(core.view().trick_winners)
        assert position.barred == core.barred
        if core.phase in CARD_PLAY:  # a bid, a trump named or a discard bars no card
            held = len(core.view().hand_cards)
            assert position.barred == held - len(core.legal_codes())


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_every_lesson_practises_on_positions_that_fit_it(starter, lesson):
    served = practise(lesson, f"tutorial-{lesson.slug}", SERVED_PER_LESSON)
    assert served, f"the starter bank has nothing for {lesson.slug}"
    misfits = [core.key for core in served if not fits(lesson, core)]
    assert not misfits
    assert {core.preset for core in served} == {lesson.preset}
    # a new position each time, until every fitting position has been seen
    fitting = sum(fits(lesson, position.core) for position in starter)
    assert len({core.key for core in served}) == min(len(served), fitting)


def test_the_trump_lesson_serves_opening_leads_only(starter):
    served = practise(LESSONS_BY_SLUG["trump"], "opening-leads", SERVED_PER_LESSON)
    assert all(core.view().trump is None and "choosing-trump" in core.themes for core in served)


def test_without_an_opening_lead_the_trump_lesson_practises_nothing(db, client):
    later = [
        line
        for line in sample_lines()
        if not (
            (core := AnalysedPosition.from_json(json.loads(line))).phase == "lead"
            and core.view().trump is None
        )
    ]
    services.positions_load(lines=later)
    assert PracticePosition.objects.filter(phase="lead").exists()  # later leads are there

    assert practise(LESSONS_BY_SLUG["trump"], "no-openings", 3) == []
    page = client.get("/learn/tutorial/trump/").text
    assert "No position in the bank fits this lesson yet" in page


def test_a_lesson_never_falls_back_to_a_position_off_its_themes(bank):
    # the small sample bank has auctions, but none where the match score is the theme
    assert any(p.phase == "auction" for p in bank)
    assert not any("match-score" in p.core.themes for p in bank if p.phase == "auction")
    learner = services.learner_get_or_create(owner=SeatOwner(session_key="no-fallback"))
    assert services.lesson_serve(learner=learner, lesson=LESSONS_BY_SLUG["scoring"]) is None


def test_the_deck_lesson_asks_for_a_card_never_a_bid(starter):
    served = practise(LESSONS_BY_SLUG["deck"], "deck-cards", SERVED_PER_LESSON)
    assert served and all(core.phase != "auction" for core in served)


# --- Every game taught --------------------------------------------------------------------


def test_every_game_has_its_lessons():
    assert set(BY_GAME) == set(variants.PRESETS)
    assert [lesson.slug for lesson in LESSONS] == list(LESSONS_BY_SLUG)  # no slug twice
    kinds = {game: [kind(lesson) for lesson in found] for game, found in BY_GAME.items()}
    assert kinds["house"] == ["deck", "auction", "trump", "following", "points", "scoring"]
    assert kinds["classic"] == ["trump", "discard", "points", "going-out"]
    assert kinds["six_handed"] == ["trump", "pack", "jick", "points", "going-out"]
    assert kinds["seven_point"] == ["trump", "fill", "jick", "points", "going-out"]
    for game, found in BY_GAME.items():
        assert all(lesson.preset == game for lesson in found)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_every_lesson_finds_its_practice_in_the_shipped_banks(starter, lesson):
    filters = selectors.lesson_filters(lesson)
    assert filters.preset == lesson.preset and not filters.rated
    found = PracticePosition.objects.filter(filters.q(), owner__isnull=True)
    assert found.count() >= PRACTICE_PER_LESSON
    assert set(found.values_list("preset", flat=True)) == {lesson.preset}


@pytest.mark.parametrize(
    "lesson", [x for x in LESSONS if x.preset != "house"], ids=lambda lesson: lesson.slug
)
def test_a_full_deck_lesson_never_serves_another_games_position(db, lesson):
    # the house rules' bank alone holds auctions, leads and follows, but none of this game
    services.positions_load(lines=STARTER_BANK.read_text().splitlines())
    learner = services.learner_get_or_create(owner=SeatOwner(session_key="other-games"))
    assert services.lesson_serve(learner=learner, lesson=lesson) is None
    assert not Attempt.objects.exists()


def words(lesson: Lesson) -> str:
    return " ".join((lesson.title, *lesson.paragraphs, lesson.practice))


def test_a_lessons_numbers_and_words_come_from_its_games_rules():
    for game, table in variants.PRESETS.items():
        text = " ".join(words(lesson) for lesson in BY_GAME[game])
        assert f"{table.min_bid} to {table.max_bid}" in text
        assert str(table.target) in text
        assert tutorial.spelled(table.point_count) + " points" in text
    # change the rules and the lessons follow: classic with both jokers, the jick and a
    # shorter match
    table = variants.CLASSIC.with_options(jokers=2, jick=True, target=11)
    found = {kind(lesson): lesson for lesson in tutorial.lessons_of(table)}
    assert list(found) == ["trump", "discard", "jick", "points", "going-out"]
    assert f"bid {table.min_bid} to {table.max_bid}" in words(found["trump"])
    assert "every card of the named suit, plus the jick and both jokers" in words(found["trump"])
    assert "seven points" in words(found["trump"])  # high, low, jack, jick, two jokers, game
    assert "played to 11" in words(found["going-out"])
    assert "High joker" in words(found["jick"])


def test_the_full_deck_lessons_show_their_games_trumps_points_and_discards():
    six = {kind(lesson): lesson for lesson in BY_GAME["six_handed"]}
    assert [rank.code for rank in six["jick"].trump_order][3:7] == ["JS", "JC", "J1", "10S"]
    assert [line.name for line in six["points"].point_lines] == [
        "High", "Low", "Jack", "Jick", "Joker", "Game",
    ]  # fmt: skip
    assert all(example.dealer for example in six["pack"].discard_examples)
    classic = {kind(lesson): lesson for lesson in BY_GAME["classic"]}
    assert classic["discard"].discard_examples and not classic["discard"].trump_order
    assert "17 cards are left over" in words(six["pack"])  # 53 cards, six hands of six


ENGINE_WORDS = ("match value", "expected", "preset", "_", "EV", "None", "True")


def test_the_lessons_speak_the_games_words_not_the_engines():
    for lesson in LESSONS:
        text = words(lesson)
        assert not [w for w in ENGINE_WORDS if w in text], lesson.slug


def test_the_chosen_game_comes_first():
    assert tutorial.games_first("seven_point")[0] == "seven_point"
    assert tutorial.games_first("")[0] == "house"
    assert tutorial.games_first("no-such-game")[0] == "house"
    assert sorted(tutorial.games_first("classic")) == sorted(variants.PRESETS)


def test_the_next_lesson_is_of_the_same_game():
    for found in BY_GAME.values():
        after = [tutorial.lesson_after(lesson.slug) for lesson in found]
        assert after == [*found[1:], None]
        assert [tutorial.lesson_number(lesson) for lesson in found] == [
            (n, len(found)) for n in range(1, len(found) + 1)
        ]
