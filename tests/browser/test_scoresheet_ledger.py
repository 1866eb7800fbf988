"""The page's fold is the server's: static/scoresheet/ledger.js, which draws the hands a
phone keeps offline and the chart, gives the rows scoresheet.ledger.tally gives on every
case of tests/scoresheet's table tests (random matches of every preset and layout, to the
preset's target and a low one), plus custom rules of every kind."""

from dataclasses import asdict
from random import Random

import pytest
from playwright.sync_api import Page

from scoresheet import ledger
from scoresheet.ledger import Hand, Rules, tally
from tests.scoresheet.test_ledger_engine import table_cases

pytestmark = pytest.mark.browser

FIELDS = ("made", "entries", "debts", "totals", "standings", "at_target", "bankable", "winner")


def custom_cases(count: int = 40):
    """Rules no preset has (the debt mode with bidder_only_out, wide bids, many sides)."""
    rng = Random(47)
    for n in range(count):
        points = rng.randint(2, 8)
        low = rng.randint(1, points)
        rules = Rules(
            target=rng.randint(1, 30),
            points_per_hand=points,
            min_bid=low,
            max_bid=rng.randint(low, points),
            missed_bid=rng.choice(ledger.MISSED_BID_MODES),
            bidder_only_out=rng.random() < 0.5,
        )
        sides = rng.randint(2, 6)
        hands = []
        for _ in range(rng.randint(0, 30)):
            takers = [rng.choice([None, *range(sides)]) for _ in range(points)]
            hands.append(
                Hand(
                    bidder=rng.randrange(sides),
                    bid=rng.randint(rules.min_bid, rules.max_bid),
                    made=ledger.made_from_takers(takers, sides=sides),
                )
            )
        yield f"custom-{n}", sides, rules, hands


def as_rows(rows) -> list[dict]:
    return [
        {name: list(value) if isinstance(value, tuple) else value for name, value in row.items()}
        for row in rows
    ]


def test_the_pages_fold_gives_the_ledgers_rows_on_every_table_case(page: Page):
    cases = [*table_cases(), *custom_cases()]
    payload = [
        {
            "id": case_id,
            "sides": sides,
            "rules": asdict(rules),
            "hands": [{"bidder": h.bidder, "bid": h.bid, "made": list(h.made)} for h in hands],
        }
        for case_id, sides, rules, hands in cases
    ]
    page.goto("/rules/")
    page.add_script_tag(url="/static/scoresheet/ledger.js")
    got = page.evaluate(
        """cases => cases.map(c => SmearLedger.tally(c.hands, c.sides, c.rules).map(row => ({
            made: row.made, entries: row.entries, debts: row.debts, totals: row.totals,
            standings: row.standings, at_target: row.at_target, bankable: row.bankable,
            winner: row.winner})))""",
        payload,
    )

    assert len(cases) == len(got) >= 200
    assert sum(len(hands) for *_, hands in cases) > 4000
    for (case_id, sides, rules, hands), rows in zip(cases, got, strict=True):
        expected = [
            {name: getattr(row, name) for name in FIELDS}
            for row in tally(hands, sides=sides, rules=rules).rows
        ]
        assert rows == as_rows(expected), case_id


def test_the_pages_fold_refuses_what_the_ledger_refuses(page: Page):
    page.goto("/rules/")
    page.add_script_tag(url="/static/scoresheet/ledger.js")
    refused = page.evaluate(
        """rules => [
            {bidder: 2, bid: 2, made: [1, 1]}, {bidder: 0, bid: 5, made: [1, 1]},
            {bidder: 0, bid: 2, made: [1]}, {bidder: 0, bid: 2, made: [-1, 1]},
            {bidder: 0, bid: 2, made: [3, 2]}, {bidder: 0, bid: 2, made: [2, 2]},
        ].map(hand => {
            try { SmearLedger.tally([hand], 2, rules); return null; }
            catch (error) { return error.reason; }
        })""",
        asdict(Rules()),
    )
    assert [reason is not None for reason in refused] == [True] * 5 + [False]
