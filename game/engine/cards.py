"""Cards as small ints, hands as bit masks, and the functional deck per player count.

A card is ``suit * 13 + rank`` with suits S H D C and ranks 2..A as 0..12; the two
jokers are 52 (``J1``) and 53 (``J2``). A set of cards is an int with one bit per card,
so a hand, a suit or a deck is one mask and the rules are a few bit operations.
"""

from __future__ import annotations

SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
JACK = RANKS.index("J")
ACE = RANKS.index("A")
JOKER_1 = 52
JOKER_2 = 53
JOKER_CODES = {JOKER_1: "J1", JOKER_2: "J2"}
JOKERS = (1 << JOKER_1) | (1 << JOKER_2)
CARD_COUNT = 54

SUIT_MASK = tuple(0x1FFF << (13 * suit) for suit in range(4))
# Suit of each card; -1 for the jokers, which belong to no suit.
SUIT_OF = tuple([card // 13 for card in range(52)] + [-1, -1])
RANK_OF = tuple([card % 13 for card in range(52)] + [-1, -1])

# Toward game: 10 = 10, J = 1, Q = 2, K = 3, A = 4; 2-9 and the jokers count nothing.
_RANK_GAME_VALUE = (0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4)
GAME_VALUE = tuple([_RANK_GAME_VALUE[card % 13] for card in range(52)] + [0, 0])
# Game value of every 13-bit set of ranks, so a suit's captured cards sum in one lookup.
_SUIT_GAME_TOTAL = tuple(
    sum(value for rank, value in enumerate(_RANK_GAME_VALUE) if ranks >> rank & 1)
    for ranks in range(1 << 13)
)

HAND_SIZE = 6
MIN_PLAYERS = 3
MAX_PLAYERS = 8
# players -> the lowest rank kept, so that about two cards stay hidden after the deal
LOW_RANK = {3: "10", 4: "9", 5: "7", 6: "6", 7: "4", 8: "3"}


def card(rank: str, suit: str) -> int:
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def _code(card: int) -> str:
    if card >= 52:
        return JOKER_CODES[card]
    return RANKS[card % 13] + SUITS[card // 13]


def parse_card(code: str) -> int:
    """The card for a code such as ``10H``, ``as`` or ``J1`` (case-insensitive)."""
    if isinstance(code, str):
        found = _CARD_BY_CODE.get(code)
        if found is None:
            found = _CARD_BY_CODE.get(code.strip().upper())
        if found is not None:
            return found
    raise ValueError(f"unknown card {code!r}")


CARD_CODES = tuple(_code(c) for c in range(CARD_COUNT))
_CARD_BY_CODE = {code: c for c, code in enumerate(CARD_CODES)}


def parse_cards(codes) -> list[int]:
    """The cards of a list of codes, in order (as ``parse_card``, at a lookup a card)."""
    get = _CARD_BY_CODE.get
    out = []
    for code in codes:
        found = get(code) if code.__class__ is str else None
        out.append(parse_card(code) if found is None else found)
    return out


def card_code(card: int) -> str:
    return CARD_CODES[card]


def mask_of(cards) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: int) -> list[int]:
    """The cards of a mask in ascending order."""
    out = []
    while mask:
        lowest = mask & -mask
        out.append(lowest.bit_length() - 1)
        mask ^= lowest
    return out


def count(mask: int) -> int:
    return mask.bit_count()


def game_total(mask: int) -> int:
    return (
        _SUIT_GAME_TOTAL[mask & 0x1FFF]
        + _SUIT_GAME_TOTAL[(mask >> 13) & 0x1FFF]
        + _SUIT_GAME_TOTAL[(mask >> 26) & 0x1FFF]
        + _SUIT_GAME_TOTAL[(mask >> 39) & 0x1FFF]
    )


def functional_deck(players: int) -> int:
    """The cards in play for this many players: every rank from the low up, and both jokers."""
    if players not in LOW_RANK:
        raise ValueError(
            f"Smear is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
        )
    low = RANKS.index(LOW_RANK[players])
    ranks = ((1 << 13) - 1) & ~((1 << low) - 1)
    return ranks | ranks << 13 | ranks << 26 | ranks << 39 | JOKERS


def full_deck(jokers: int) -> int:
    """All 52 cards and the first ``jokers`` jokers (``J1`` alone when there is one)."""
    return (1 << 52) - 1 | ((1 << (52 + jokers)) - (1 << 52))


def suit_ranks(mask: int, suit: int) -> int:
    """The ranks ``mask`` holds in ``suit``, as 13 bits: bit ``r`` is ``RANKS[r]``."""
    return mask >> (13 * suit) & 0x1FFF


def rank_count(mask: int, rank: int) -> int:
    """How many cards of ``rank`` (an index into ``RANKS``) ``mask`` holds, jokers aside."""
    return sum(suit_ranks(mask, suit) >> rank & 1 for suit in range(4))


def jack_of(suit: int) -> int:
    return suit * 13 + JACK


def ace_of(suit: int) -> int:
    return suit * 13 + ACE


def two_of(suit: int) -> int:
    return suit * 13


# the other suit of each suit's colour: spades and clubs are black, hearts and diamonds red
SAME_COLOUR = (3, 2, 1, 0)


def jick_of(trump: int) -> int:
    """The jick: the other jack of the trump suit's colour."""
    return SAME_COLOUR[trump] * 13 + JACK


def hidden_count(players: int) -> int:
    return functional_deck(players).bit_count() - HAND_SIZE * players
