"""A local stand-in for Stripe, so that no test reaches the internet.

``FakeStripe`` is a small HTTP server on 127.0.0.1 that answers what the donations app
asks of Stripe's API (creating a Checkout Session) and records each request, so that
tests can check the amount, currency, URLs, metadata and idempotency key. Like Stripe,
it answers a repeated idempotency key with the session it made the first time. Each
session's ``url`` is a checkout page served by this same server, with links back to the
session's success and cancel URLs, for the browser tests.

``signed_event`` builds a webhook body and a Stripe-Signature header for it, computed
from a test secret the same way Stripe does: ``t=<time>,v1=<HMAC-SHA256 of
"<time>.<body>">``.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import json
import secrets
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl

SECRET_KEY = "sk_test_smearFAKEkey0123456789"
WEBHOOK_SECRET = "whsec_smearFAKEsecret0123456789"
SESSIONS_PATH = "/v1/checkout/sessions"


@dataclass(frozen=True)
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    # the form-encoded body, flat: {"line_items[0][price_data][unit_amount]": "2500", ...}
    form: dict[str, str]


class FakeStripe:
    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.sessions: dict[str, dict] = {}
        self._by_idempotency_key: dict[str, dict] = {}
        # set to an HTTP status to make the next session creations fail with it
        self.fail_with: int | None = None
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeStripe:
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    @property
    def session_creations(self) -> list[Recorded]:
        return [r for r in self.requests if r.method == "POST" and r.path == SESSIONS_PATH]

    # --- what the server does ---------------------------------------------------------

    def _create_session(self, form: dict[str, str], idempotency_key: str) -> tuple[int, dict]:
        if self.fail_with is not None:
            return self.fail_with, {
                "error": {
                    "type": "invalid_request_error",
                    "message": "Invalid API Key provided: sk_test_****6789",
                }
            }
        with self._lock:
            if idempotency_key in self._by_idempotency_key:
                return 200, self._by_idempotency_key[idempotency_key]
            session_id = "cs_test_" + secrets.token_hex(16)
            session = {
                "id": session_id,
                "object": "checkout.session",
                "mode": form.get("mode"),
                "status": "open",
                "payment_status": "unpaid",
                "amount_total": int(form["line_items[0][price_data][unit_amount]"])
                * int(form.get("line_items[0][quantity]", "1")),
                "currency": form["line_items[0][price_data][currency]"],
                "success_url": form["success_url"],
                "cancel_url": form["cancel_url"],
                "metadata": {
                    key[len("metadata[") : -1]: value
                    for key, value in form.items()
                    if key.startswith("metadata[")
                },
                "url": f"{self.url}/pay/{session_id}",
            }
            self.sessions[session_id] = session
            if idempotency_key:
                self._by_idempotency_key[idempotency_key] = session
            return 200, session

    def _checkout_page(self, session_id: str) -> tuple[int, str]:
        session = self.sessions.get(session_id)
        if session is None:
            return 404, "<!doctype html><title>Not found</title><p>No such session.</p>"
        success = session["success_url"].replace("{CHECKOUT_SESSION_ID}", session_id)
        amount = f"{session['amount_total'] / 100:.2f} {session['currency'].upper()}"
        page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Fake Stripe Checkout</title></head>
<body><h1>Fake Stripe Checkout</h1>
<p id="amount">{html.escape(amount)}</p>
<p><a href="{html.escape(success)}">Pay</a></p>
<p><a href="{html.escape(session["cancel_url"])}">Cancel</a></p>
</body></html>"""
        return 200, page

    def _handler_class(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format, *args):  # quiet: pytest shows failures
                pass

            def _record(self, body: str) -> Recorded:
                recorded = Recorded(
                    method=self.command,
                    path=self.path,
                    headers={key.lower(): value for key, value in self.headers.items()},
                    form=dict(parse_qsl(body, keep_blank_values=True)),
                )
                with fake._lock:
                    fake.requests.append(recorded)
                return recorded

            def _send(self, status: int, body: str, content_type: str) -> None:
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Request-Id", "req_fake_" + secrets.token_hex(6))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                recorded = self._record(self.rfile.read(length).decode())
                if self.path != SESSIONS_PATH:
                    self._send(
                        404,
                        json.dumps({"error": {"type": "invalid_request_error"}}),
                        "application/json",
                    )
                    return
                status, payload = fake._create_session(
                    recorded.form, recorded.headers.get("idempotency-key", "")
                )
                self._send(status, json.dumps(payload), "application/json")

            def do_GET(self):
                self._record("")
                if self.path.startswith("/pay/"):
                    status, page = fake._checkout_page(self.path.removeprefix("/pay/"))
                    self._send(status, page, "text/html; charset=utf-8")
                    return
                self._send(
                    404,
                    json.dumps({"error": {"type": "invalid_request_error"}}),
                    "application/json",
                )

        return Handler


# --- Webhooks -------------------------------------------------------------------------


def signature_header(
    payload: str, secret: str = WEBHOOK_SECRET, timestamp: int | None = None
) -> str:
    timestamp = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"{timestamp}.{payload}".encode(), hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def session_event(
    event_type: str,
    session: dict,
    *,
    event_id: str | None = None,
    payment_status: str | None = None,
) -> str:
    """The JSON body of a Stripe event about a Checkout Session."""
    data = dict(session, status="complete", url=None)
    if payment_status is not None:
        data["payment_status"] = payment_status
    return json.dumps(
        {
            "id": event_id or "evt_test_" + secrets.token_hex(12),
            "object": "event",
            "type": event_type,
            "created": int(time.time()),
            "livemode": False,
            "data": {"object": data},
        }
    )
