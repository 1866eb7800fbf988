from django.contrib import admin

from scoresheet.models import Change, Hand, Member, Seat, Sheet, Side


class SideInline(admin.TabularInline):
    model = Side
    extra = 0


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


class MemberInline(admin.TabularInline):
    model = Member
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Sheet)
class SheetAdmin(admin.ModelAdmin):
    list_display = ["__str__", "creator", "preset", "target", "status", "updated_at"]
    list_filter = ["status", "preset"]
    search_fields = ["title", "sides__name", "invite_code"]
    raw_id_fields = ["creator", "rematch_of"]
    inlines = [SideInline, SeatInline, MemberInline]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["sheet", "number", "bidder", "bid", "made", "revision", "updated_at"]
    raw_id_fields = ["sheet", "created_by"]


@admin.register(Change)
class ChangeAdmin(admin.ModelAdmin):
    """The history is the record of what was entered: it is read here, never edited."""

    list_display = ["sheet", "kind", "hand_number", "user", "created_at"]
    list_filter = ["kind"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
