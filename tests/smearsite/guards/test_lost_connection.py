"""A page load that lost its database connection is answered again, once; a POST is not
(issue 53: a terminated connection under a page load answered 500)."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.http import HttpResponse
from django.urls import path

# no transaction around the test: the retry is for work outside one
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.urls(__name__)]

LOST = "terminating connection due to administrator command"
calls: list[str] = []


def lost_once(request):
    calls.append(request.method)
    if len(calls) == 1:
        raise OperationalError(LOST)
    return HttpResponse(f"read {request.method}")


def lost_always(request):
    calls.append(request.method)
    raise OperationalError(LOST)


urlpatterns = [path("once/", lost_once), path("always/", lost_always)]


@pytest.fixture(autouse=True)
def fresh_calls():
    calls.clear()


def test_a_page_load_on_a_lost_connection_is_answered_from_a_second_run(client):
    response = client.get("/once/")

    assert response.status_code == 200 and response.content == b"read GET"
    assert calls == ["GET", "GET"]


def test_a_post_on_a_lost_connection_is_not_run_again(client):
    with pytest.raises(OperationalError):
        client.post("/once/")

    assert calls == ["POST"]


def test_a_page_load_is_answered_again_only_once(client):
    client.raise_request_exception = False

    assert client.get("/always/").status_code == 500
    assert calls == ["GET", "GET"]
