import pytest

from game.players.identity import SeatOwner
from scoresheet import ledger, services


def owner_of(user) -> SeatOwner:
    """A signed-in member, as the services take one."""
    return SeatOwner(user_id=user.pk)


def guest(token: str = "guest-token-1") -> SeatOwner:
    """A guest, by the token its browser's session keeps."""
    return SeatOwner(session_key=token)


@pytest.fixture
def sam(make_user):
    return make_user("sam")


@pytest.fixture
def mum(make_user):
    return make_user("mum")


@pytest.fixture
def stranger(make_user):
    return make_user("stranger")


@pytest.fixture
def make_sheet():
    def make(user, *, sides=("Sam & Alex", "Mum & Dad"), rules=ledger.CLASSIC_FOUR_POINT, **kw):
        kw.setdefault("preset", "classic")
        kw.setdefault("owner", owner_of(user) if user is not None else None)
        return services.sheet_create(sides=list(sides), rules=rules, **kw)

    return make


@pytest.fixture
def sheet(sam, mum, make_sheet):
    """Seed 002's table: Sam-and-Alex against Mum-and-Dad, classic four-point; both members."""
    sheet = make_sheet(sam)
    services.member_join(code=sheet.invite_code, owner=owner_of(mum))
    return sheet


def add(sheet, user, bidder, bid, made, **kw):
    """Enter the next hand as ``user``."""
    sheet.refresh_from_db()
    return services.hand_add(
        sheet_id=sheet.pk,
        owner=owner_of(user),
        expected_number=sheet.hands_entered + 1,
        hand=services.HandInput(bidder=bidder, bid=bid, made=tuple(made), **kw),
    )
