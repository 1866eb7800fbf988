"""The shared kernel: share codes, printable text, domain errors."""

import pytest
from django.core.exceptions import ValidationError

from game.errors import TableError
from smearsite import kernel


def test_a_share_code_avoids_look_alike_characters():
    codes = {kernel.new_share_code() for _ in range(200)}

    assert all(len(code) == kernel.CODE_LENGTH for code in codes)
    assert not set("".join(codes)) & set("01OIL")


def test_a_code_as_typed_or_read_out_is_normalised():
    assert kernel.normal_code(" k7m-2qx ") == "K7M2QX"
    assert kernel.normal_code("K7M 2QX") == "K7M2QX"


def test_printable_text_refuses_control_characters_and_lines_allow_line_breaks():
    kernel.check_printable("Dealer Dan")
    kernel.check_printable_lines("Thanks!\r\nFrom the farm")
    for bad in ("tab\there", "bell\x07"):
        with pytest.raises(ValidationError):
            kernel.check_printable(bad)
    with pytest.raises(ValidationError):
        kernel.check_printable("two\nlines")


def test_a_refusal_of_the_game_is_a_domain_error_without_a_status():
    assert issubclass(TableError, kernel.Refused) and issubclass(TableError, kernel.DomainError)
    assert not hasattr(TableError("no"), "status_code")


def test_one_helper_maps_each_kind_of_refusal_to_its_status():
    from learn import services as trainer
    from smearsite.kernel.http import status_for

    assert status_for(trainer.UnknownPosition("gone")) == 404
    assert status_for(trainer.NotYourAttempt("not yours")) == 404
    assert status_for(trainer.StaleAttempt("answered already")) == 409
    assert status_for(trainer.IllegalAnswer("not an option")) == 400
    assert status_for(TableError("not your turn")) == 400


@pytest.mark.parametrize("text", ["9" * 4301, "1234567", "²", "-1", "1.5", "0x10", "1 2"])
def test_request_int_refuses_anything_but_a_few_ascii_digits_before_parsing(text):
    with pytest.raises(kernel.BadNumber, match="whole number of at most 6 digits"):
        kernel.request_int(text, name="index")


def test_request_int_reads_short_numbers_and_blank_as_none():
    assert kernel.request_int(" 042 ", name="index") == 42
    assert kernel.request_int("", name="index") is None
    assert kernel.request_int(None, name="index") is None
    assert kernel.request_int("12", name="seat", digits=2) == 12
