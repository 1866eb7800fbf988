"""Tables stored straight from an engine match: the deals and the actions, as the play
service stores them, for tests that need finished rounds without playing them live."""

from __future__ import annotations

from random import Random

from game.bots.basic import GreedyBot
from game.engine.cards import card_code, cards_of
from game.engine.rules import action_code
from game.engine.state import Deal, MatchSetup, MatchState
from game.live import store
from game.models import ActionLog, Round, Seat, Table
from smearsite.kernel import new_share_code


def stored_table(
    match: MatchState, seats: list[dict], *, status: str | None = None, code: str | None = None
) -> Table:
    """``match`` stored as a table; ``seats`` holds each seat's Seat fields (user, bot_level,
    session_key, display_name)."""
    setup = match.setup
    if status is None:
        status = Table.Status.FINISHED if match.is_terminal() else Table.Status.PLAYING
    table = Table.objects.create(
        code=code or new_share_code(),
        players=setup.players,
        teams=[list(unit) for unit in setup.teams],
        target=setup.target,
        status=status,
        first_dealer=match.first_dealer,
        rules=store.rules_record(setup.rules),
    )
    for number, fields in enumerate(seats):
        Seat.objects.create(
            table=table,
            number=number,
            display_name=fields.get("display_name", f"Seat {number}"),
            **{k: v for k, v in fields.items() if k != "display_name"},
        )
    moves = 0
    for number, state in enumerate(match.rounds):
        deal = state.deal
        Round.objects.create(
            table=table,
            number=number,
            dealer=deal.dealer,
            hands=[[card_code(c) for c in cards_of(hand)] for hand in deal.hands],
            hidden=[card_code(c) for c in deal.pack_order()],
        )
        for index, (seat, action) in enumerate(state.seated_history()):
            ActionLog.objects.create(
                table=table, round=number, index=index, seat=seat, action=action_code(action)
            )
            moves += 1
    Table.objects.filter(pk=table.pk).update(moves=moves)
    table.refresh_from_db()
    return table


def greedy_round(match: MatchState, rng: Random, deal: Deal | None = None) -> MatchState:
    """``match`` with one more round, dealt (or ``deal``) and played by the greedy bot."""
    match = match.start_round(deal) if deal is not None else match.deal_round(rng)
    bot = GreedyBot()
    number = len(match.rounds)
    while len(match.rounds) == number and match.current_player() is not None:
        seat = match.current_player()
        match = match.apply(bot.choose(match.view_for(seat), match.legal_actions(), rng), seat)
    return match


def greedy_match(setup: MatchSetup, seed: int) -> MatchState:
    """A whole match played by the greedy bot."""
    rng = Random(seed)
    match = MatchState(setup, 0)
    while not match.is_terminal():
        match = greedy_round(match, rng)
    return match
