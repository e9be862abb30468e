from django.contrib import admin

from hooks.models import Attempt, Delivery, Endpoint, Event


@admin.register(Endpoint)
class EndpointAdmin(admin.ModelAdmin):
    list_display = ["url", "club", "active", "failing_since", "disabled_at", "created_at"]
    list_filter = ["active"]
    search_fields = ["url", "club__name"]
    readonly_fields = ["failing_since", "disabled_at", "created_by"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["public_id", "type", "club", "occurred_at"]
    list_filter = ["type"]
    readonly_fields = ["public_id", "type", "club", "occurred_at", "body"]


class AttemptInline(admin.TabularInline):
    model = Attempt
    extra = 0
    readonly_fields = ["at", "status_code", "error", "error_params", "duration_ms", "response"]


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ["event", "endpoint", "status", "attempts", "next_attempt_at", "delivered_at"]
    list_filter = ["status"]
    raw_id_fields = ["event", "endpoint"]
    inlines = [AttemptInline]
