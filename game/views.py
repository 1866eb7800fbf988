from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    # liveness only: answers without touching the database or Redis
    return HttpResponse("ok", content_type="text/plain")
