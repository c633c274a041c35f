"""Matches (public), their replays and seat logs, and challenges."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import SignedInRequest
from accounts.throttles import ChallengeThrottle
from api.inputs import ChallengeInput, MatchFilterInput, query_filters
from api.renderers import GzipRenderer
from api.schema import errors
from api.serializers import LogSerializer, MatchDetailSerializer, MatchSerializer
from bots.models import Bot
from bots.selectors import bot_get
from matches.challenges import challenge_create
from matches.models import Match
from matches.replays import REPLAY_CONTENT_TYPE, replay_response
from matches.selectors import match_get, match_list, match_seat_log_for


class MatchListView(generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = MatchSerializer

    def get_queryset(self) -> QuerySet[Match]:
        wanted = query_filters(MatchFilterInput, self.request.query_params)
        kind = wanted.get("kind")
        return match_list(
            ladder=wanted.get("ladder"), bot=wanted.get("bot"), kinds=(kind,) if kind else None
        )

    @extend_schema(
        parameters=[MatchFilterInput],
        responses={200: MatchSerializer(many=True), **errors(400, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Matches, newest first; filter with ?ladder=SLUG, ?bot=ID and ?kind=."""
        return super().get(request, *args, **kwargs)


class MatchDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: MatchDetailSerializer, **errors(404)})
    def get(self, request: Request, match_id: int) -> Response:
        """One match: seats, places, result, rating changes and the replay's address."""
        match = match_get(match_id=match_id)
        return Response(MatchDetailSerializer(match, context={"request": request}).data)


class ReplayView(APIView):
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, GzipRenderer]

    @extend_schema(
        responses={
            (200, REPLAY_CONTENT_TYPE): OpenApiResponse(
                OpenApiTypes.BINARY, description="The replay (docs/replay-format.md), gzipped."
            ),
            **errors(404),
        }
    )
    def get(self, request: Request, match_id: int) -> HttpResponse:
        """Download the finished match's replay as tavolo-match-ID.json.gz."""
        return replay_response(match_get(match_id=match_id))


class SeatLogView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: LogSerializer, **errors(404)})
    def get(self, request: Request, match_id: int, seat: int) -> Response:
        """What the bot in `seat` wrote to stderr: its owner and staff only (404 otherwise)."""
        match_seat = match_get(match_id=match_id).seats.filter(seat=seat).first()
        if match_seat is None:
            raise Http404(f"match {match_id} has no seat {seat}")
        return Response({"log": match_seat_log_for(user=request.user, seat=match_seat)})


class ChallengeListView(generics.ListAPIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [ChallengeThrottle]
    serializer_class = MatchSerializer

    def get_queryset(self) -> QuerySet[Match]:
        return match_list(kinds=(Match.Kind.CHALLENGE,)).filter(requested_by=self.request.user.pk)

    @extend_schema(responses={200: MatchSerializer(many=True), **errors(401, 404)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The challenges you started, newest first."""
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=ChallengeInput, responses={201: MatchSerializer, **errors(400, 401, 403, 429)}
    )
    def post(self, request: SignedInRequest) -> Response:
        """Challenge chosen opponents with your bot: an unranked match; house bots fill seats."""
        challenge = ChallengeInput(data=request.data)
        challenge.is_valid(raise_exception=True)
        bot = _bot_for_field("bot", challenge.validated_data["bot"])
        opponents = [
            _bot_for_field("opponents", bot_id) for bot_id in challenge.validated_data["opponents"]
        ]
        match = challenge_create(user=request.user, bot=bot, opponents=opponents)
        body = MatchSerializer(match_get(match_id=match.pk)).data
        return Response(body, status=status.HTTP_201_CREATED)


def _bot_for_field(field: str, bot_id: int) -> Bot:
    """The bot `bot_id`, or a 400 naming the field (a wrong id is bad input, not a 404)."""
    try:
        return bot_get(bot_id=bot_id)
    except Http404 as error:
        raise ValidationError({field: [str(error)]}) from None
