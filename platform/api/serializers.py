"""What the API shows: output serializers for users, ladders, bots, versions and matches.

They only present what selectors return; nothing here changes data. What the
API accepts is described in api/inputs.py.
"""

from __future__ import annotations

from typing import cast

from django.contrib.auth.models import User
from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from bots.models import Bot, BotVersion
from ladders.models import Ladder
from ladders.ratings import rating_points, rating_shown
from matches.models import Match, MatchSeat
from qualification.selectors import bot_latest_version, version_qualification_matches
from ranked.models import RatingChange


class PointsField(serializers.IntegerField):
    """A rating or a band, shown in whole points (`ladders.ratings.rating_points`)."""

    def to_representation(self, value: float) -> int:
        return rating_points(value)


class LadderSerializer(serializers.ModelSerializer):
    class Meta:
        model = Ladder
        fields = ["slug", "name", "game", "variant", "options", "seats", "active"]


class VersionSerializer(serializers.ModelSerializer):
    """A version's public facts and its own rating, with where that rating started.

    Its source and log have their own owner-only endpoints.
    """

    rating = PointsField(read_only=True)
    start_rating = PointsField(read_only=True)
    band = serializers.SerializerMethodField()
    start_band = serializers.SerializerMethodField()
    qualification_matches = serializers.SerializerMethodField()

    class Meta:
        model = BotVersion
        fields = [
            "number",
            "status",
            "reason",
            "qualification_matches",
            "sha256",
            "size",
            "uploaded_at",
            "decided_at",
            "rating",
            "band",
            "games",
            "start_rating",
            "start_band",
        ]

    def get_band(self, version: BotVersion) -> int:
        return rating_points(rating_shown(version.rating_state).band)

    def get_start_band(self, version: BotVersion) -> int:
        return rating_points(rating_shown(version.start_state).band)

    def get_qualification_matches(self, version: BotVersion) -> list[int]:
        """The ids of its qualification matches (see /api/matches/{id}/)."""
        return version_qualification_matches(version=version)


class BotSerializer(serializers.ModelSerializer):
    ladder: serializers.SlugRelatedField[Ladder] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    owner: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username", read_only=True
    )
    current_version = serializers.IntegerField(
        source="current_version.number", allow_null=True, read_only=True
    )
    rating = PointsField(read_only=True)
    band = serializers.SerializerMethodField()
    provisional = serializers.SerializerMethodField()
    latest_version = serializers.SerializerMethodField()
    retired = serializers.BooleanField(source="is_retired", read_only=True)

    class Meta:
        model = Bot
        fields = [
            "id",
            "name",
            "ladder",
            "owner",
            "kind",
            "rating",
            "band",
            "games",
            "provisional",
            "current_version",
            "latest_version",
            "retired",
            "retired_at",
            "retired_reason",
            "created_at",
        ]

    def get_band(self, bot: Bot) -> int:
        return rating_points(rating_shown(bot.rating_state).band)

    def get_provisional(self, bot: Bot) -> bool:
        return rating_shown(bot.rating_state).provisional

    @extend_schema_field(VersionSerializer(allow_null=True))
    def get_latest_version(self, bot: Bot) -> dict | None:
        latest = bot_latest_version(bot=bot)
        return VersionSerializer(latest).data if latest is not None else None


class UserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    is_staff = serializers.BooleanField()
    challenges_left = serializers.IntegerField()
    bots = BotSerializer(many=True)


class StandingSerializer(serializers.Serializer):
    """One line of `bots.selectors.ladder_standings`."""

    rank = serializers.IntegerField()
    bot_id = serializers.IntegerField(source="bot.id")
    bot = serializers.CharField(source="bot.name")
    owner = serializers.CharField()
    version = serializers.IntegerField()
    rating = PointsField()
    band = PointsField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()
    house = serializers.BooleanField()


class SeatSerializer(serializers.ModelSerializer):
    bot_id = serializers.IntegerField(source="bot.id")
    bot = serializers.CharField(source="bot.name")
    owner = serializers.CharField(source="bot.owner.username")
    version = serializers.IntegerField(source="bot_version.number")

    class Meta:
        model = MatchSeat
        fields = [
            "seat",
            "bot_id",
            "bot",
            "owner",
            "version",
            "place",
            "infractions",
            "crashed",
            "crash_reason",
        ]


class VersusSerializer(serializers.Serializer):
    """The points one bot won (negative: lost) against one other seat of the match."""

    seat = serializers.IntegerField()
    bot_id = serializers.IntegerField()
    bot = serializers.CharField()
    points = serializers.FloatField()


class RatingChangeSerializer(serializers.ModelSerializer):
    """How one ranked match moved one version's rating, and against whom."""

    bot_id = serializers.IntegerField(source="bot.id")
    bot = serializers.CharField(source="bot.name")
    version = serializers.IntegerField(source="version.number")
    before = PointsField()
    after = PointsField()
    band_before = serializers.SerializerMethodField()
    band_after = serializers.SerializerMethodField()
    versus = serializers.SerializerMethodField()
    earlier = serializers.FloatField(
        help_text="Points from the version's earlier results, read again against its "
        "opponents' current ratings; `versus` points and these add up to after - before."
    )

    class Meta:
        model = RatingChange
        fields = [
            "bot_id",
            "bot",
            "version",
            "before",
            "after",
            "band_before",
            "band_after",
            "games_before",
            "versus",
            "earlier",
        ]

    def get_band_before(self, change: RatingChange) -> int:
        return rating_points(rating_shown(change.rating_before).band)

    def get_band_after(self, change: RatingChange) -> int:
        return rating_points(rating_shown(change.rating_after).band)

    @extend_schema_field(VersusSerializer(many=True))
    def get_versus(self, change: RatingChange) -> list[dict]:
        return cast(list[dict], VersusSerializer(change.versus_named(), many=True).data)


class RatingHistorySerializer(RatingChangeSerializer):
    """One line of a bot's rating history: a ranked match and what it did to the rating."""

    match_id = serializers.IntegerField(source="match.id")
    finished_at = serializers.DateTimeField(source="match.finished_at")

    class Meta(RatingChangeSerializer.Meta):
        fields = ["match_id", "finished_at", *RatingChangeSerializer.Meta.fields]


class MatchSerializer(serializers.ModelSerializer):
    ladder: serializers.SlugRelatedField[Ladder] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    seats = SeatSerializer(many=True, read_only=True)
    ranked = serializers.BooleanField(read_only=True)
    owner_shared = serializers.BooleanField(read_only=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "ladder",
            "kind",
            "ranked",
            "owner_shared",
            "status",
            "created_at",
            "finished_at",
            "seats",
        ]


class MatchDetailSerializer(MatchSerializer):
    """A match with its result, its rating changes and where to fetch its replay."""

    seed = serializers.CharField(source="public_seed", allow_null=True, read_only=True)
    rating_changes = RatingChangeSerializer(many=True, read_only=True)
    replay_url = serializers.SerializerMethodField()

    class Meta(MatchSerializer.Meta):
        fields = [
            *MatchSerializer.Meta.fields,
            "started_at",
            "seed",
            "result",
            "decisions",
            "failure_reason",
            "rating_changes",
            "replay_url",
        ]

    def get_replay_url(self, match: Match) -> str | None:
        if match.status != Match.Status.FINISHED or not match.replay:
            return None
        path = reverse("api:match-replay", args=[match.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class SourceSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    source = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.source


class LogSerializer(serializers.Serializer):
    log = serializers.CharField(allow_blank=True)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
