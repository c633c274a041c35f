"""Tournaments (public), entering one with your bot, and all its replays as a zip."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import SignedInRequest
from api.renderers import ZipRenderer
from api.schema import errors
from api.tournament_serializers import (
    EntryInput,
    EntrySerializer,
    TournamentDetailSerializer,
    TournamentSerializer,
)
from bots.selectors import bot_get
from tournaments.downloads import ZIP_CONTENT_TYPE, tournament_replays_response
from tournaments.models import Tournament
from tournaments.selectors import tournament_get, tournament_list
from tournaments.services import tournament_enter


class TournamentListView(generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = TournamentSerializer

    def get_queryset(self) -> QuerySet[Tournament]:
        wanted = self.request.query_params.get("status")
        if wanted is not None and wanted not in Tournament.Status.values:
            choices = ", ".join(Tournament.Status.values)
            raise ValidationError({"status": f"status is one of {choices}, not {wanted!r}"})
        return tournament_list(status=wanted)

    @extend_schema(
        parameters=[OpenApiParameter("status", enum=Tournament.Status.values)],
        responses={200: TournamentSerializer(many=True), **errors(400, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Tournaments, latest start first; filter with ?status=upcoming|running|finished."""
        return super().get(request, *args, **kwargs)


class TournamentDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: TournamentDetailSerializer, **errors(404)})
    def get(self, request: Request, slug: str) -> Response:
        """One tournament: entrants, the tables so far, and live or final standings."""
        found = tournament_get(slug=slug)
        return Response(TournamentDetailSerializer(found, context={"request": request}).data)


class EntryListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=EntryInput, responses={201: EntrySerializer, **errors(400, 401, 403, 404)}
    )
    def post(self, request: SignedInRequest, slug: str) -> Response:
        """Enter your bot; its current version at the entry deadline plays the whole event."""
        found = tournament_get(slug=slug)
        entry_input = EntryInput(data=request.data)
        entry_input.is_valid(raise_exception=True)
        try:
            bot = bot_get(bot_id=entry_input.validated_data["bot"])
        except Http404 as error:
            raise ValidationError({"bot": [str(error)]}) from None
        entry = tournament_enter(user=request.user, tournament=found, bot=bot)
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class ReplaysZipView(APIView):
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, ZipRenderer]

    @extend_schema(
        responses={
            (200, ZIP_CONTENT_TYPE): OpenApiResponse(
                OpenApiTypes.BINARY, description="Every finished table's gzipped replay."
            ),
            **errors(404),
        }
    )
    def get(self, request: Request, slug: str) -> HttpResponse:
        """Download every replay of the tournament so far as one zip, named by table."""
        return tournament_replays_response(tournament_get(slug=slug))
