import logging
from functools import wraps

from csp.decorators import csp_update
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from donations import selectors, services, stripe_client
from donations.forms import DonateForm
from smearsite.kernel import ratelimit

logger = logging.getLogger(__name__)

# checkouts started per window: a family's few tries, not a script's hundreds
CHECKOUTS_PER_SESSION = 5
CHECKOUTS_PER_ADDRESS = 20
CHECKOUT_WINDOW_S = 15 * 60
TOO_MANY_CHECKOUTS = (
    "Many checkouts were started from here in the last few minutes. Nothing was charged; "
    "please wait a quarter of an hour, or finish one you have open."
)


def _checkout_allowed(request: HttpRequest) -> bool:
    """Count this checkout against the visitor's session and address (both must allow)."""
    if not request.session.session_key:
        request.session.save()  # a session to count by, even for a first visit
    by_session = ratelimit.allow(
        "checkout",
        f"session:{request.session.session_key}",
        limit=CHECKOUTS_PER_SESSION,
        per_s=CHECKOUT_WINDOW_S,
    )
    by_address = ratelimit.allow(
        "checkout",
        f"address:{ratelimit.request_address(request)}",
        limit=CHECKOUTS_PER_ADDRESS,
        per_s=CHECKOUT_WINDOW_S,
    )
    return by_session and by_address


def _form_may_go_to_checkout(view):
    """The donate page's form is answered by a redirect to Stripe's checkout page, which
    the Content-Security-Policy's form-action must allow (for that page only)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        # django-csp's own decorator, made per request: the origin is read from settings
        allow_checkout = csp_update({"form-action": [stripe_client.checkout_origin()]})
        return allow_checkout(view)(request, *args, **kwargs)

    return wrapped


@require_http_methods(["GET", "HEAD", "POST"])
@_form_may_go_to_checkout
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
        if not _checkout_allowed(request):
            form.add_error(None, TOO_MANY_CHECKOUTS)
            return render(request, "donations/donate.html", context, status=429)
        services.donations_expire_stale()
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


@require_safe
def thanks(request: HttpRequest) -> HttpResponse:
    # the session id only finds our record; what the page says comes from that record
    donation = selectors.donation_for_session(session_id=request.GET.get("session_id", ""))
    template = "donations/thanks.html#status" if request.htmx else "donations/thanks.html"
    return render(
        request, template, {"donation": donation}, status=200 if donation is not None else 404
    )


@require_safe
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
    except stripe_client.MalformedEvent as reason:
        # signed, so Stripe's (or our secret's holder's): acknowledged, or it would retry
        logger.error("Ignored a signed but malformed Stripe event: %s", reason)
        return HttpResponse("malformed", content_type="text/plain")
    # a repeat is acknowledged (2xx) so that Stripe stops sending it
    outcome = services.webhook_event_handle(event=event)
    return HttpResponse(outcome, content_type="text/plain")
