"""The full-deck games' starter bank (learn/fixtures/starter_family_positions.jsonl): at
least 40 positions of every family preset, every kind of decision among them, each one
reading back, loading, and drawn with only what its seat may see."""

import json
import re
from collections import defaultdict

import pytest
from django.core.management import call_command

from game.engine import notation
from game.engine.cards import CARD_CODES, cards_of
from learn import services
from learn.bank.bank_file import FAMILY_STARTER
from learn.core import explain_family
from learn.core.analysis import Keep
from learn.core.positions import AnalysedPosition
from learn.models import PracticePosition
from tests.learn.family import FAMILY

PER_PRESET = 40
KINDS = {"auction": "auction", "trump": "trump", "discard": "discard", "lead": "card play",
         "follow": "card play"}  # fmt: skip


@pytest.fixture(scope="module")
def starter() -> list[AnalysedPosition]:
    lines = FAMILY_STARTER.read_text(encoding="utf-8").splitlines()
    return [AnalysedPosition.from_json(json.loads(line)) for line in lines if line.strip()]


def test_every_family_preset_has_forty_positions_of_every_kind(starter):
    kinds = defaultdict(lambda: defaultdict(int))
    for position in starter:
        kinds[position.preset][KINDS[position.phase]] += 1
    assert set(kinds) == set(FAMILY)
    for preset in FAMILY:
        assert sum(kinds[preset].values()) >= PER_PRESET, preset
        assert set(kinds[preset]) == {"auction", "trump", "discard", "card play"}, preset


def test_the_family_starter_bank_has_no_repeats_and_only_clear_verdicts(starter):
    assert len({p.key for p in starter}) == len(starter)
    lenient = Keep(priced_calls=False)  # the full-deck tables price every call by playing it
    assert all(lenient.accepts(p.options, p.deals) for p in starter)
    assert all(p.line_hands == () for p in starter)  # no sampled hands kept with them


@pytest.mark.django_db
def test_every_family_starter_position_loads_published_and_shows_only_what_its_seat_sees(
    client, starter, monkeypatch
):
    # every position served within the minute: far more than a learner's limit
    monkeypatch.setattr(services, "SERVES_PER_MINUTE", len(starter))
    monkeypatch.setattr(services, "SERVES_PER_ADDRESS", len(starter))
    call_command("load_positions", str(FAMILY_STARTER), verbosity=0, stdout=None)
    loaded = {p.key: p for p in PracticePosition.objects.all()}
    assert set(loaded) == {p.key for p in starter}
    assert all(p.published for p in loaded.values())  # shipped analyses are never rated
    assert {p.preset for p in loaded.values()} == set(FAMILY)
    for core in starter:
        view = core.view()
        visible = {
            CARD_CODES[c] for c in cards_of(view.hand | view.played | view.discard | view.fill)
        }
        page = client.post(f"/learn/positions/{core.key}/serve/", follow=True).text
        drawn = set(re.findall(r'data-card="([^"]+)"', page))
        assert drawn and drawn <= visible, (core.key, drawn - visible)
        if core.phase == "discard":  # the hand to tap: every card the rule leaves free
            boxes = set(re.findall(r'name="card" value="([^"]+)"', page))
            assert boxes == set(notation.cards(view.discard_rule.optional)), core.key
            continue
        choices = set(re.findall(r'name="choice" value="([^"]+)"', page))
        assert choices == set(core.legal_codes()), core.key


def test_every_explanation_names_only_cards_the_seat_has_seen(starter):
    for core in starter:
        view = core.view()
        unseen = cards_of(view.deck & ~(view.hand | view.played | view.discard | view.fill))
        for option in core.options:
            text = " ".join(explain_family.explain(core, option.code))
            named = [c for c in unseen if re.search(rf"\bthe {_name(c)}\b", text)]
            assert not named, (core.key, option.code, [CARD_CODES[c] for c in named])


def _name(card: int) -> str:
    if card >= 52:
        return "high joker" if CARD_CODES[card] == "J1" else "low joker"
    return notation.card_name(card)
