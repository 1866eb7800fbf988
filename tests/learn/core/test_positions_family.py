"""Positions at the full-deck tables: the rules come from the record, naming trump and
the discard are decisions of their own, and a discard's options are checked discards."""

import json

import pytest

from game.engine.cards import cards_of
from game.engine.rules import Phase, action_code, discard_action
from learn.core.positions import AnalysedPosition, PositionError
from learn.core.variant_themes import family_themes
from tests.learn.family import FAMILY, match_at, position_at

PHASES = {Phase.AUCTION: "auction", Phase.TRUMP: "trump", Phase.EXCHANGE: "discard"}


def discards(match, count: int = 3) -> list[str]:
    """Up to ``count`` different discards the seat's rule allows."""
    view = match.view_for(match.current_player())
    rule = view.discard_rule
    optional = cards_of(rule.optional)
    found = []
    for start in range(len(optional) + 1):
        code = action_code(discard_action(rule.pick(optional[start:] + optional[:start])))
        if code not in found:
            found.append(code)
    return found[:count]


def legal(match) -> list[str]:
    return [action_code(a) for a in match.view_for(match.current_player()).legal_actions()]


@pytest.mark.parametrize("preset", FAMILY)
@pytest.mark.parametrize("phase", [Phase.AUCTION, Phase.TRUMP, Phase.PLAY])
def test_a_family_position_reads_back_with_its_rules_and_phase(preset, phase):
    match = match_at(preset, phase)
    position = position_at(match, legal(match))
    again = AnalysedPosition.from_json(json.loads(json.dumps(position.to_json())))
    assert again == position
    assert again.preset == preset and again.rules.deck == "full"
    assert again.phase == PHASES.get(phase, again.phase)
    assert again.phase in ("auction", "trump", "lead", "follow")


@pytest.mark.parametrize("preset", FAMILY)
def test_a_discard_position_offers_the_priced_discards_and_reads_back(preset):
    match = match_at(preset, Phase.EXCHANGE)
    codes = discards(match)
    position = AnalysedPosition.from_json(position_at(match, codes).to_json())
    assert position.phase == "discard"
    assert position.legal_codes() == tuple(codes)
    assert position.barred == 0
    assert all(code.startswith("discard:") for code in position.legal_codes())


def test_a_discard_the_rule_does_not_allow_is_refused():
    match = match_at("classic", Phase.EXCHANGE)
    view = match.view_for(match.current_player())
    too_few = action_code(discard_action(1 << view.hand_cards[0]))  # classic throws three
    data = position_at(match, [*discards(match, 1), too_few]).to_json()
    with pytest.raises(PositionError, match="not a legal discard"):
        AnalysedPosition.from_json(data)


def test_a_card_offered_at_a_discard_is_refused():
    match = match_at("classic", Phase.EXCHANGE)
    card = legal(match)[0]  # the cards that may go are listed, but the choice is a discard
    data = position_at(match, [*discards(match, 1), card]).to_json()
    with pytest.raises(PositionError, match="not a discard"):
        AnalysedPosition.from_json(data)


def test_naming_trump_must_offer_every_suit():
    match = match_at("seven_point", Phase.TRUMP)
    data = position_at(match, legal(match)[:3]).to_json()
    with pytest.raises(PositionError, match="missing trump:"):
        AnalysedPosition.from_json(data)


def test_a_family_position_keeps_no_sampled_hands():
    match = match_at("classic", Phase.PLAY)
    data = position_at(match, legal(match)).to_json()
    data["line_hands"] = [[], [], [], []]
    with pytest.raises(PositionError, match="house-rules positions only"):
        AnalysedPosition.from_json(data)


@pytest.mark.parametrize(
    ("phase", "theme"),
    [(Phase.AUCTION, "bidding"), (Phase.TRUMP, "choosing-trump"), (Phase.EXCHANGE, "discarding")],
)
def test_the_decisions_before_the_tricks_have_their_own_theme(phase, theme):
    match = match_at("classic", phase)
    codes = discards(match) if phase is Phase.EXCHANGE else legal(match)
    position = position_at(match, codes)
    assert theme in family_themes(position.view(), position.options, position.phase)


def test_a_trump_lead_while_trumps_are_out_draws_trump():
    match = match_at("classic", Phase.PLAY)
    view = match.view_for(match.current_player())
    trumps = [a for a in view.legal_actions() if view.trumps.strength[a] >= 0]
    assert trumps, "the bidder's greedy hand leads holding trump"
    others = [action_code(a) for a in view.legal_actions() if a != trumps[0]]
    position = position_at(match, [action_code(trumps[0]), *others])
    assert "drawing-trump" in family_themes(view, position.options, "lead")
    plain = [action_code(a) for a in view.legal_actions() if view.trumps.strength[a] < 0]
    if plain:
        offsuit = position_at(match, [plain[0], *[c for c in legal(match) if c != plain[0]]])
        assert "drawing-trump" not in family_themes(view, offsuit.options, "lead")
