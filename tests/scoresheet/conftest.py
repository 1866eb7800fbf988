import pytest

from scoresheet import ledger, services


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
        return services.sheet_create(user=user, sides=list(sides), rules=rules, **kw)

    return make


@pytest.fixture
def sheet(sam, mum, make_sheet):
    """Seed 002's table: Sam-and-Alex against Mum-and-Dad, classic four-point; both members."""
    sheet = make_sheet(sam)
    services.member_join(code=sheet.invite_code, user=mum)
    return sheet


def add(sheet, user, bidder, bid, made, **kw):
    """Enter the next hand as ``user``."""
    sheet.refresh_from_db()
    return services.hand_add(
        sheet_id=sheet.pk,
        user=user,
        expected_number=sheet.hands_entered + 1,
        hand=services.HandInput(bidder=bidder, bid=bid, made=tuple(made), **kw),
    )
