from django.contrib import admin

from donations.models import Donation, WebhookEvent


@admin.register(Donation)
class DonationAdmin(admin.ModelAdmin):
    list_display = ["created", "amount_display", "status", "user", "name", "list_publicly"]
    list_filter = ["status", "list_publicly", "currency", "created"]
    search_fields = ["checkout_session_id", "name", "message", "user__username"]
    date_hierarchy = "created"
    list_select_related = ["user"]
    # what Stripe confirmed is not edited by hand; the name, message and listing may be
    # (to honour a donor's request, or to hide something unfit for the public list)
    readonly_fields = [
        "checkout_session_id",
        "amount",
        "currency",
        "amount_display",
        "status",
        "user",
        "created",
        "updated",
    ]
    fields = [*readonly_fields, "name", "message", "list_publicly"]

    @admin.display(description="amount", ordering="amount")
    def amount_display(self, donation: Donation) -> str:
        return donation.amount_display

    def has_add_permission(self, request) -> bool:
        # donations come from Stripe only
        return False


@admin.register(WebhookEvent)
class WebhookEventAdmin(admin.ModelAdmin):
    list_display = ["received", "type", "stripe_event_id"]
    list_filter = ["type"]
    search_fields = ["stripe_event_id"]
    readonly_fields = ["stripe_event_id", "type", "received"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
