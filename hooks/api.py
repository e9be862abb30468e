"""``/api/v1/webhooks/``: the endpoints a club's organisers (or a federation admin)
registered, their deliveries and attempts, and sending one again.

``POST`` registers an endpoint ``{"url", "events", "club", "description"}`` (``club``
null: the federation's, admins only) and answers it with its ``secret``, the one time
it is shown; ``PATCH`` changes ``url``, ``events``, ``description`` or ``active``
(true again after the service disabled it). ``GET .../{id}/deliveries/`` lists the
deliveries newest first with their attempts; ``POST
.../{id}/deliveries/{delivery}/redeliver/`` sends one again. What is sent is
described by the ``Webhook*`` components of the schema.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from core.pagination import Pagination
from federation.idempotency import idempotent
from federation.models import Club
from hooks import selectors, services
from hooks.delivery import delivery_redeliver
from hooks.events import EVENT_TYPES
from hooks.models import Attempt, Delivery, Endpoint
from hooks.permissions import endpoints_of

EVENT_CHOICES = [name for name, _label in EVENT_TYPES]


class EndpointSerializer(serializers.ModelSerializer):
    club: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="slug", read_only=True, help_text="null: the federation's endpoint"
    )
    events = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_CHOICES))

    class Meta:
        model = Endpoint
        fields = [
            "id",
            "url",
            "club",
            "events",
            "description",
            "active",
            "created_at",
            "failing_since",
            "disabled_at",
        ]
        read_only_fields = fields


class EndpointCreatedSerializer(EndpointSerializer):
    secret = serializers.CharField(
        read_only=True, help_text="the signing secret: shown in this answer only"
    )

    class Meta(EndpointSerializer.Meta):
        fields = [*EndpointSerializer.Meta.fields, "secret"]
        read_only_fields = fields


class EndpointCreateSerializer(serializers.Serializer):
    url = serializers.URLField(max_length=500)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENT_CHOICES), min_length=1, max_length=6
    )
    club = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Club.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text="the club whose events it receives; null: the federation's (admins only)",
    )
    description = serializers.CharField(max_length=200, required=False, default="")


class EndpointUpdateSerializer(serializers.Serializer):
    url = serializers.URLField(max_length=500, required=False)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENT_CHOICES),
        min_length=1,
        max_length=6,
        required=False,
    )
    description = serializers.CharField(max_length=200, required=False, allow_blank=True)
    active = serializers.BooleanField(required=False)


class AttemptSerializer(serializers.ModelSerializer):
    ok = serializers.BooleanField(read_only=True)
    message = serializers.CharField(source="error_message", read_only=True)

    class Meta:
        model = Attempt
        fields = ["at", "ok", "status_code", "error", "message", "duration_ms", "response"]


class DeliverySerializer(serializers.ModelSerializer):
    type = serializers.CharField(source="event.type")
    message_id = serializers.CharField(source="event.public_id")
    # described, not an enum: several components have a "status" (named enums collide)
    status = serializers.CharField(
        read_only=True, help_text="one of: " + ", ".join(Delivery.Status.values)
    )
    attempt_list = AttemptSerializer(source="attempt_set", many=True, read_only=True)

    class Meta:
        model = Delivery
        fields = [
            "id",
            "type",
            "message_id",
            "occurred_at",
            "status",
            "attempts",
            "next_attempt_at",
            "delivered_at",
            "attempt_list",
        ]


DELIVERY = OpenApiParameter("delivery", int, OpenApiParameter.PATH, description="delivery id")


class WebhookViewSet(viewsets.GenericViewSet):
    """Webhook endpoints of the clubs you organise (every one for federation admins)."""

    permission_classes = [IsAuthenticated]
    serializer_class = EndpointSerializer
    pagination_class = Pagination
    lookup_value_regex = r"[0-9]+"
    filterset_fields: list[str] = []

    def get_queryset(self):
        return endpoints_of(self.request.user).order_by("id")

    def _endpoint(self, pk: Any) -> Endpoint:
        try:
            return selectors.endpoint_get(pk=int(pk), user=self.request.user)
        except Http404 as exc:
            raise NotFound("no such webhook endpoint") from exc

    def list(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(EndpointSerializer(page, many=True).data)

    @extend_schema(request=EndpointCreateSerializer, responses={201: EndpointCreatedSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        payload = EndpointCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        endpoint = services.endpoint_create(**payload.validated_data, by=request.user)
        return Response(EndpointCreatedSerializer(endpoint).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: EndpointSerializer})
    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        return Response(EndpointSerializer(self._endpoint(pk)).data)

    @extend_schema(request=EndpointUpdateSerializer, responses={200: EndpointSerializer})
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        endpoint = self._endpoint(pk)
        payload = EndpointUpdateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        services.endpoint_update(endpoint=endpoint, by=request.user, **payload.validated_data)
        return Response(EndpointSerializer(endpoint).data)

    @extend_schema(responses={204: None})
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        services.endpoint_delete(endpoint=self._endpoint(pk), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses={200: DeliverySerializer(many=True)})
    @action(detail=True, methods=["get"])
    def deliveries(self, request: Request, pk: str | None = None) -> Response:
        """The endpoint's deliveries, newest event first, each with its attempts."""
        page = self.paginate_queryset(selectors.delivery_list(self._endpoint(pk)))
        return self.get_paginated_response(DeliverySerializer(page, many=True).data)

    @extend_schema(parameters=[DELIVERY], request=None, responses={200: DeliverySerializer})
    @action(
        detail=True,
        methods=["post"],
        url_path=r"deliveries/(?P<delivery>[0-9]+)/redeliver",
    )
    def redeliver(self, request: Request, pk: str | None = None, delivery: str = "0") -> Response:
        """Send a delivery again (a new series of attempts), whatever became of it."""
        try:
            found = selectors.delivery_get(self._endpoint(pk), int(delivery))
        except Http404 as exc:
            raise NotFound("no such delivery") from exc
        delivery_redeliver(delivery=found)
        fresh = selectors.delivery_list(found.endpoint).get(pk=found.pk)
        return Response(DeliverySerializer(fresh).data)
