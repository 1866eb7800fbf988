import logging

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from donations import selectors, services, stripe_client
from donations.forms import DonateForm

logger = logging.getLogger(__name__)


@require_http_methods(["GET", "POST"])
def donate(request: HttpRequest) -> HttpResponse:
    context = {
        "configured": stripe_client.is_configured(),
        "cancelled": request.GET.get("cancelled") == "1",
        "currency": settings.STRIPE_CURRENCY.upper(),
    }
    if not context["configured"]:
        # not an error: the page says so and offers nothing to submit
        return render(request, "donations/donate.html", context)
    initial = {}
    if request.user.is_authenticated and hasattr(request.user, "profile"):
        initial["name"] = request.user.profile.display_name
    data = request.POST if request.method == "POST" else None
    form = DonateForm(data, initial=initial, currency=settings.STRIPE_CURRENCY)
    context["form"] = form
    if request.method == "POST" and form.is_valid():
        try:
            start = services.donation_checkout_start(
                units=form.units,
                user=request.user,
                name=form.cleaned_data["name"],
                message=form.cleaned_data["message"],
                list_publicly=form.cleaned_data["list_publicly"],
                attempt=form.cleaned_data["attempt"],
            )
        except stripe_client.Unavailable:
            form.add_error(
                None,
                "The payment service could not start the checkout. Nothing was charged; "
                "please try again in a minute.",
            )
            return render(request, "donations/donate.html", context, status=502)
        # 303: the browser follows with a GET to Stripe's page
        return HttpResponseRedirect(start.redirect_url, status=303)
    return render(request, "donations/donate.html", context)


@require_GET
def thanks(request: HttpRequest) -> HttpResponse:
    # the session id only finds our record; what the page says comes from that record
    donation = selectors.donation_for_session(session_id=request.GET.get("session_id", ""))
    template = "donations/thanks.html#status" if request.htmx else "donations/thanks.html"
    return render(
        request, template, {"donation": donation}, status=200 if donation is not None else 404
    )


@require_GET
def supporters(request: HttpRequest) -> HttpResponse:
    return render(request, "donations/supporters.html", {"supporters": selectors.supporters()})


@csrf_exempt  # Stripe cannot send our CSRF token: the signature authenticates instead
@require_POST
def stripe_webhook(request: HttpRequest) -> HttpResponse:
    try:
        event = stripe_client.webhook_event_parse(
            payload=request.body, signature=request.headers.get("Stripe-Signature", "")
        )
    except stripe_client.BadWebhook as reason:
        logger.warning("Refused a Stripe webhook: %s", reason)
        return HttpResponseBadRequest("refused", content_type="text/plain")
    # a repeat is acknowledged (2xx) so that Stripe stops sending it
    outcome = services.webhook_event_handle(event=event)
    return HttpResponse(outcome, content_type="text/plain")
