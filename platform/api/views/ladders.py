"""Ladders and their standings (public)."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.schema import errors
from api.serializers import LadderSerializer, StandingSerializer
from bots.selectors import ladder_standings
from ladders.models import Ladder
from ladders.selectors import ladder_get, ladder_list


@extend_schema(responses={200: LadderSerializer(many=True), **errors(404)})
class LadderListView(generics.ListAPIView):
    """The active ladders."""

    permission_classes = [AllowAny]
    serializer_class = LadderSerializer

    def get_queryset(self) -> QuerySet[Ladder]:
        return ladder_list()


@extend_schema(responses={200: LadderSerializer, **errors(404)})
class LadderDetailView(generics.RetrieveAPIView):
    """One ladder, by slug."""

    permission_classes = [AllowAny]
    serializer_class = LadderSerializer

    def get_object(self) -> Ladder:
        return ladder_get(slug=self.kwargs["slug"])


class StandingsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: StandingSerializer(many=True), **errors(404)})
    def get(self, request: Request, slug: str) -> Response:
        """Every bot with an accepted version, best rating first; under 20 games is provisional."""
        standings = ladder_standings(ladder=ladder_get(slug=slug))
        return Response(StandingSerializer(standings, many=True).data)
