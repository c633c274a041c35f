"""Bots and their versions: create, delete and retire a bot, upload versions, read them.

Uploads go through `bots.services.bot_version_upload`, which checks the file in
full before it stores anything; the source and qualification log are shown to
the bot's owner and staff only, and are a 404 for everyone else.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import SignedInRequest
from accounts.throttles import AnonymousReadThrottle, UploadThrottle
from api.inputs import (
    BotCreateInput,
    BotFilterInput,
    SourceInput,
    query_filters,
    uploaded_source,
)
from api.schema import errors
from api.serializers import (
    BotSerializer,
    LogSerializer,
    RatingHistorySerializer,
    SourceSerializer,
    VersionSerializer,
)
from bots.models import Bot, BotVersion
from bots.selectors import (
    bot_get,
    bot_list,
    bot_owner_check,
    bot_version_get,
    bot_version_list,
    bot_version_qualification_log_for,
    bot_version_source_for,
)
from bots.services import OWNER_RETIRED, bot_create, bot_retire, bot_unretire, bot_version_upload
from qualification.bot_removal import bot_delete
from qualification.selectors import bots_with_versions, versions_with_qualification_matches
from ranked.models import RatingChange
from ranked.selectors import bot_rating_history

UPLOAD_BODY = {"multipart/form-data": BotCreateInput, "application/json": BotCreateInput}
VERSION_BODY = {"multipart/form-data": SourceInput, "application/json": SourceInput}


class BotListView(generics.ListAPIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    throttle_classes = [AnonymousReadThrottle, UploadThrottle]
    serializer_class = BotSerializer

    def get_queryset(self) -> QuerySet[Bot]:
        wanted = query_filters(BotFilterInput, self.request.query_params)
        bots = bot_list(ladder=wanted.get("ladder"))
        if "owner" in wanted:  # by name: whether such a user exists is not told
            bots = bots.filter(owner__username=wanted["owner"])
        return bots_with_versions(bots.filter(name=wanted["name"]) if "name" in wanted else bots)

    @extend_schema(
        parameters=[BotFilterInput],
        responses={200: BotSerializer(many=True), **errors(400, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Bots, by ladder and name; filter with ?ladder=, ?name= and ?owner=."""
        return super().get(request, *args, **kwargs)

    @extend_schema(request=UPLOAD_BODY, responses={201: BotSerializer, **errors(400, 401, 429)})
    def post(self, request: SignedInRequest) -> Response:
        """Create a bot with its first version; qualification starts on its own."""
        upload = BotCreateInput(data=request.data)
        upload.is_valid(raise_exception=True)
        wanted = upload.validated_data
        source_bytes, filename = uploaded_source(wanted)
        version = bot_create(
            user=request.user,
            ladder=wanted["ladder"],
            name=wanted["name"],
            source_bytes=source_bytes,
            filename=filename,
        )
        body = BotSerializer(version.bot, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED)


class BotDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: BotSerializer, **errors(404)})
    def get(self, request: Request, bot_id: int) -> Response:
        """One bot with its rating, band and latest version."""
        return Response(BotSerializer(bot_get(bot_id=bot_id)).data)

    @extend_schema(responses={204: None, **errors(400, 401, 403, 404)})
    def delete(self, request: SignedInRequest, bot_id: int) -> Response:
        """Delete your bot that never had an accepted version, with its qualification matches.

        Its name is free again. A bot that ever had an accepted version is a
        400: retire it instead.
        """
        bot = bot_get(bot_id=bot_id)
        bot_owner_check(user=request.user, bot=bot)
        bot_delete(bot=bot)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BotRetireView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(request=None, responses={200: BotSerializer, **errors(400, 401, 403, 404)})
    def post(self, request: SignedInRequest, bot_id: int) -> Response:
        """Retire your bot: it leaves the ladder's standings and is no longer scheduled.

        Its matches and ratings are kept; `unretire` (or a new accepted
        version) brings it back.
        """
        bot = bot_get(bot_id=bot_id)
        bot_owner_check(user=request.user, bot=bot)
        return Response(BotSerializer(bot_retire(bot=bot, reason=OWNER_RETIRED)).data)


class BotUnretireView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(request=None, responses={200: BotSerializer, **errors(401, 403, 404)})
    def post(self, request: SignedInRequest, bot_id: int) -> Response:
        """Return your retired bot to its ladder: matchmaking seats it again."""
        bot = bot_get(bot_id=bot_id)
        bot_owner_check(user=request.user, bot=bot)
        return Response(BotSerializer(bot_unretire(bot=bot)).data)


class RatingHistoryView(generics.ListAPIView):
    serializer_class = RatingHistorySerializer

    def get_queryset(self) -> QuerySet[RatingChange]:
        history = bot_rating_history(bot=bot_get(bot_id=self.kwargs["bot_id"]))
        return history.reverse()

    @extend_schema(responses={200: RatingHistorySerializer(many=True), **errors(404)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The bot's rating history, newest first: each ranked match's change, and against whom."""
        return super().get(request, *args, **kwargs)


class VersionListView(generics.ListAPIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    throttle_classes = [AnonymousReadThrottle, UploadThrottle]
    serializer_class = VersionSerializer

    def get_queryset(self) -> QuerySet[BotVersion]:
        versions = bot_version_list(bot=bot_get(bot_id=self.kwargs["bot_id"]))
        return versions_with_qualification_matches(versions)

    @extend_schema(responses={200: VersionSerializer(many=True), **errors(404)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The bot's versions, newest first, with their status."""
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=VERSION_BODY,
        responses={201: VersionSerializer, **errors(400, 401, 403, 404, 429)},
    )
    def post(self, request: SignedInRequest, bot_id: int) -> Response:
        """Upload a new version of your bot; qualification starts on its own."""
        bot = bot_get(bot_id=bot_id)
        bot_owner_check(user=request.user, bot=bot)
        upload = SourceInput(data=request.data)
        upload.is_valid(raise_exception=True)
        source_bytes, filename = uploaded_source(upload.validated_data)
        version = bot_version_upload(
            user=request.user,
            ladder=bot.ladder,
            bot_name=bot.name,
            source_bytes=source_bytes,
            filename=filename,
        )
        return Response(VersionSerializer(version).data, status=status.HTTP_201_CREATED)


class VersionDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: VersionSerializer, **errors(404)})
    def get(self, request: Request, bot_id: int, number: int) -> Response:
        """One version's status: pending, qualifying, accepted or rejected (with the reason)."""
        version = bot_version_get(bot=bot_get(bot_id=bot_id), number=number)
        return Response(VersionSerializer(version).data)


class VersionSourceView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: SourceSerializer, **errors(404)})
    def get(self, request: Request, bot_id: int, number: int) -> Response:
        """The version's source: its owner and staff only (404 for anyone else)."""
        version = bot_version_get(bot=bot_get(bot_id=bot_id), number=number)
        source = bot_version_source_for(user=request.user, version=version)
        return Response({"number": version.number, "source": source})


class VersionLogView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: LogSerializer, **errors(404)})
    def get(self, request: Request, bot_id: int, number: int) -> Response:
        """The version's qualification log: its owner and staff only (404 for anyone else)."""
        version = bot_version_get(bot=bot_get(bot_id=bot_id), number=number)
        log = bot_version_qualification_log_for(user=request.user, version=version)
        return Response({"log": log})
