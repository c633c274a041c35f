"""What the API shows: output serializers for users, ladders, bots, versions and matches.

They only present what selectors return; nothing here changes data. What the
API accepts is described in api/inputs.py.
"""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from arena.ratings import is_provisional, rating_band
from bots.models import Bot, BotVersion
from bots.selectors import bot_version_list
from ladders.models import Ladder
from matches.models import Match, MatchSeat, RatingChange


class LadderSerializer(serializers.ModelSerializer):
    class Meta:
        model = Ladder
        fields = ["slug", "name", "game", "variant", "options", "seats", "active"]


class VersionSerializer(serializers.ModelSerializer):
    """A version's public facts; its source and log have their own owner-only endpoints."""

    class Meta:
        model = BotVersion
        fields = ["number", "status", "reason", "sha256", "size", "uploaded_at", "decided_at"]


class BotSerializer(serializers.ModelSerializer):
    ladder = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    owner = serializers.SlugRelatedField(slug_field="username", read_only=True)
    current_version = serializers.IntegerField(
        source="current_version.number", allow_null=True, read_only=True
    )
    band = serializers.SerializerMethodField()
    provisional = serializers.SerializerMethodField()
    latest_version = serializers.SerializerMethodField()

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
            "created_at",
        ]

    def get_band(self, bot: Bot) -> float:
        return rating_band(bot.games)

    def get_provisional(self, bot: Bot) -> bool:
        return is_provisional(bot.games)

    @extend_schema_field(VersionSerializer(allow_null=True))
    def get_latest_version(self, bot: Bot) -> dict | None:
        latest = bot_version_list(bot=bot).first()
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
    rating = serializers.FloatField()
    band = serializers.FloatField()
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


class RatingChangeSerializer(serializers.ModelSerializer):
    bot_id = serializers.IntegerField(source="bot.id")
    bot = serializers.CharField(source="bot.name")
    version = serializers.IntegerField(source="version.number")

    class Meta:
        model = RatingChange
        fields = ["bot_id", "bot", "version", "before", "after", "games_before"]


class MatchSerializer(serializers.ModelSerializer):
    ladder = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    seats = SeatSerializer(many=True, read_only=True)

    class Meta:
        model = Match
        fields = ["id", "ladder", "kind", "status", "created_at", "finished_at", "seats"]


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
    source = serializers.CharField()


class LogSerializer(serializers.Serializer):
    log = serializers.CharField(allow_blank=True)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
