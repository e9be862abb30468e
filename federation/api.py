"""REST API for clubs and players (reads for everyone; writes for organisers).

A player reads as ``{"handle", "name", "club", "country"}``, ``name`` being the public
name (initials without consent). Registering one writes ``display_name`` (the full
name) and ``public_name`` (the consent); the answer carries these two as well, under
the names they were written with. ``?search=`` finds handles, and names where the
player consented, whatever their case and accents.
"""

from __future__ import annotations

import django_filters
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django_countries import countries
from django_countries.serializer_fields import CountryField
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from federation.idempotency import idempotent
from federation.models import Club, Player
from federation.permissions import ReadOnlyOrFederationAdmin, ReadOnlyOrOrganiser
from federation.players import me
from federation.services import player_create


class CountryCodeField(CountryField):
    """An ISO 3166-1 country: its alpha-2, alpha-3 or numeric code in any case, stored
    and shown as alpha-2 (``"fr"``, ``"FRA"`` and ``"250"`` are ``"FR"``). Names and
    anything else (``"<>"``) are refused with a 400."""

    def to_internal_value(self, data):
        if data == "" and self.allow_blank:
            return ""
        # ASCII only: django-countries reads any str.isdigit() text with int() ("²")
        ascii_code = isinstance(data, int) or (isinstance(data, str) and data.isascii())
        code = countries.alpha2(data) if ascii_code else ""
        if not code:
            self.fail("invalid_choice", input=data)
        return code


class ClubSerializer(serializers.ModelSerializer):
    country = CountryCodeField()

    class Meta:
        model = Club
        fields = ["slug", "name", "city", "country"]


class PlayerSerializer(serializers.ModelSerializer):
    """A player as everyone reads it (``name``: the public name)."""

    name = serializers.CharField(source="public_display_name", read_only=True)
    club: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    country = CountryCodeField(read_only=True)

    class Meta:
        model = Player
        fields = ["handle", "name", "club", "country"]


class PlayerRegisteredSerializer(PlayerSerializer):
    """A player just registered: as everyone reads it, with the fields written."""

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "display_name", "public_name"]
        read_only_fields = ["display_name", "public_name"]


class PlayerCreateSerializer(serializers.Serializer):
    handle = serializers.CharField(max_length=40)
    display_name = serializers.CharField(max_length=120)
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    country = CountryCodeField(required=False, allow_blank=True, default="")
    public_name = serializers.BooleanField(required=False, default=False)


class ClubFilter(django_filters.FilterSet):
    country = django_filters.CharFilter(field_name="country", lookup_expr="iexact")

    class Meta:
        model = Club
        fields = ["country"]


class ClubViewSet(viewsets.ModelViewSet):
    """Clubs; only federation admins create or change them."""

    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    permission_classes = [ReadOnlyOrFederationAdmin]
    lookup_field = "slug"
    filterset_class = ClubFilter

    @idempotent
    def create(self, request, *args, **kwargs):
        return super().create(request, *args, **kwargs)


class PlayerFilter(django_filters.FilterSet):
    search = django_filters.CharFilter(method="filter_search", label="handle or public name")
    club = django_filters.CharFilter(field_name="club__slug")
    country = django_filters.CharFilter(field_name="country", lookup_expr="iexact")

    class Meta:
        model = Player
        fields = ["search", "club", "country"]

    def filter_search(self, queryset, name, value):
        # Names without consent are not searchable: searching would reveal them.
        return queryset.search(value)


class PlayerViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Players: list with ``?search=``, detail by handle; organisers register players."""

    queryset = Player.objects.select_related("club")
    serializer_class = PlayerSerializer
    permission_classes = [ReadOnlyOrOrganiser]
    lookup_field = "handle"
    filterset_class = PlayerFilter

    def get_serializer_class(self):
        return PlayerCreateSerializer if self.action == "create" else PlayerSerializer

    @extend_schema(request=PlayerCreateSerializer, responses={201: PlayerRegisteredSerializer})
    @idempotent
    def create(self, request, *args, **kwargs):
        payload = PlayerCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            player = player_create(**payload.validated_data, created_by=request.user)
        except DjangoPermissionDenied as exc:
            raise PermissionDenied(str(exc)) from exc
        except DjangoValidationError as exc:
            raise ValidationError(exc.message_dict) from exc
        return Response(PlayerRegisteredSerializer(player).data, status=status.HTTP_201_CREATED)


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    player = serializers.CharField(allow_null=True)
    clubs = serializers.ListField(child=serializers.CharField())
    roles = serializers.ListField(child=serializers.CharField())


@extend_schema(responses=MeSerializer)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def me_view(request: Request) -> Response:
    """``/api/v1/me/``: who the caller is (their player, clubs and roles)."""
    return Response(me(request.user))
