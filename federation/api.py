"""REST API for clubs and players (reads for everyone; writes for organisers)."""

from __future__ import annotations

import django_filters
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Q
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response

from federation.idempotency import idempotent
from federation.models import Club, Player
from federation.permissions import ReadOnlyOrFederationAdmin, ReadOnlyOrOrganiser
from federation.services import player_create


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["slug", "name", "city", "country"]


class PlayerSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="public_display_name", read_only=True)
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Player
        fields = ["handle", "name", "club", "country"]


class PlayerCreateSerializer(serializers.Serializer):
    handle = serializers.CharField(max_length=40)
    display_name = serializers.CharField(max_length=120)
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    country = serializers.CharField(max_length=2, required=False, allow_blank=True, default="")
    public_name = serializers.BooleanField(required=False, default=False)


class ClubViewSet(viewsets.ModelViewSet):
    """Clubs; only federation admins create or change them."""

    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    permission_classes = [ReadOnlyOrFederationAdmin]
    lookup_field = "slug"
    filterset_fields = ["country"]

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
        return queryset.filter(
            Q(handle__icontains=value) | Q(public_name=True, display_name__icontains=value)
        )


class PlayerViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Players: list with ``?search=``, detail by handle; organisers register players."""

    queryset = Player.objects.select_related("club")
    serializer_class = PlayerSerializer
    permission_classes = [ReadOnlyOrOrganiser]
    lookup_field = "handle"
    filterset_class = PlayerFilter

    def get_serializer_class(self):
        return PlayerCreateSerializer if self.action == "create" else PlayerSerializer

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
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)
