"""manage.py check warns when the native search core is missing; under CI it is an error."""

from django.core import checks

from game import checks as game_checks
from game.engine import solver


def test_a_built_core_passes_the_check(monkeypatch):
    monkeypatch.setattr(solver, "native_available", lambda: True)
    assert game_checks.native_search_core() == []


def test_a_missing_core_is_a_warning_with_the_reason(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(solver, "native_available", lambda: False)
    monkeypatch.setattr(solver, "native_unavailable_reason", lambda: "no module smear_native")
    [found] = game_checks.native_search_core()
    assert isinstance(found, checks.Warning) and found.id == "game.W001"
    assert "no module smear_native" in found.hint


def test_under_ci_a_missing_core_is_an_error(monkeypatch):
    monkeypatch.setenv("CI", "true")
    monkeypatch.setattr(solver, "native_available", lambda: False)
    [found] = game_checks.native_search_core()
    assert found.level == checks.ERROR and found.id == "game.E001"


def test_the_check_is_registered_with_django():
    assert game_checks.native_search_core in checks.registry.registry.get_checks()
