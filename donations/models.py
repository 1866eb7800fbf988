from django.conf import settings
from django.db import models

from donations import amounts

NAME_MAX_LENGTH = 60
MESSAGE_MAX_LENGTH = 280


class Donation(models.Model):
    """One Stripe Checkout Session: created pending, moved by the webhook to paid, failed,
    or expired (the donor left the checkout page, and Stripe closed the session)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for confirmation"
        PAID = "paid", "Paid"
        FAILED = "failed", "Payment failed"
        EXPIRED = "expired", "Checkout not completed"

    checkout_session_id = models.CharField(max_length=255, unique=True)
    # the smallest unit of the currency (cents), as Stripe counts it
    amount = models.PositiveIntegerField()
    currency = models.CharField(max_length=3)
    status = models.CharField(max_length=10, choices=Status, default=Status.PENDING)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="donations",
    )
    name = models.CharField(max_length=NAME_MAX_LENGTH, blank=True)
    message = models.CharField(max_length=MESSAGE_MAX_LENGTH, blank=True)
    # the donor's consent to show the name and message on the supporters list
    list_publicly = models.BooleanField("on the supporters list", default=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "list_publicly"])]

    def __str__(self) -> str:
        return f"{self.amount_display}, {self.get_status_display().lower()}"

    @property
    def amount_display(self) -> str:
        return amounts.display(self.amount, self.currency)


class WebhookEvent(models.Model):
    """A Stripe event already handled: a redelivery of the same id changes nothing."""

    stripe_event_id = models.CharField(max_length=255, unique=True)
    type = models.CharField(max_length=100)
    received = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-received"]

    def __str__(self) -> str:
        return f"{self.type} {self.stripe_event_id}"
