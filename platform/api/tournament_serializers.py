"""How the API shows tournaments: the event, its entrants, its tables and its standings."""

from __future__ import annotations

from typing import cast

from django.urls import reverse
from rest_framework import serializers

from ladders.models import Ladder
from tournaments.models import Entry, Tournament, TournamentTable
from tournaments.selectors import (
    StandingLine,
    tournament_entries,
    tournament_standings,
    tournament_tables,
)


class TournamentSerializer(serializers.ModelSerializer):
    ladder: serializers.SlugRelatedField[Ladder] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    game = serializers.CharField(source="ladder.game")
    seats = serializers.IntegerField(source="ladder.seats")
    seed = serializers.CharField(source="public_seed", allow_null=True)

    class Meta:
        model = Tournament
        fields = [
            "slug", "name", "ladder", "game", "seats", "format", "rounds", "repeat", "best_of",
            "elimination", "groups", "points", "entries_open_at", "entries_close_at",
            "starts_at", "open_to_all", "status", "finished_at", "cancel_reason", "seed",
        ]  # fmt: skip


class EntrySerializer(serializers.ModelSerializer):
    bot_id = serializers.IntegerField(source="bot.id")
    bot = serializers.CharField(source="bot.name")
    owner = serializers.CharField(source="bot.owner.username")
    version = serializers.IntegerField(source="version.number", allow_null=True, default=None)

    class Meta:
        model = Entry
        fields = ["number", "bot_id", "bot", "owner", "version", "created_at"]


class TableSerializer(serializers.ModelSerializer):
    match_id = serializers.IntegerField(allow_null=True)
    match_status = serializers.CharField(source="match.status", allow_null=True, default=None)
    replay_url = serializers.SerializerMethodField()

    class Meta:
        model = TournamentTable
        fields = [
            "key", "round", "stage", "series", "game", "seats", "places", "match_id",
            "match_status", "replay_url",
        ]  # fmt: skip

    def get_replay_url(self, table: TournamentTable) -> str | None:
        if table.places is None or table.match_id is None:
            return None
        path = reverse("api:match-replay", args=[table.match_id])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path


class TournamentStandingSerializer(serializers.Serializer):
    """One line of `tournaments.selectors.tournament_standings`."""

    rank = serializers.IntegerField(source="standing.rank")
    number = serializers.IntegerField(source="entry.number")
    bot_id = serializers.IntegerField(source="entry.bot.id")
    bot = serializers.CharField(source="entry.bot.name")
    owner = serializers.CharField(source="entry.bot.owner.username")
    points = serializers.FloatField(source="standing.points")
    games = serializers.IntegerField(source="standing.games")
    wins = serializers.IntegerField(source="standing.wins")
    mean_place = serializers.FloatField(source="standing.mean_place")
    byes = serializers.IntegerField(source="standing.byes")
    head_to_head = serializers.IntegerField(source="standing.head_to_head")
    buchholz = serializers.FloatField(source="standing.buchholz", allow_null=True)
    status = serializers.CharField(source="standing.status")


class TournamentDetailSerializer(TournamentSerializer):
    entries = serializers.SerializerMethodField()
    standings = serializers.SerializerMethodField()
    tables = serializers.SerializerMethodField()
    replays_url = serializers.SerializerMethodField()

    class Meta(TournamentSerializer.Meta):
        fields = [
            *TournamentSerializer.Meta.fields,
            "entries",
            "standings",
            "tables",
            "replays_url",
        ]

    def get_entries(self, tournament: Tournament) -> list[dict]:
        entries = EntrySerializer(tournament_entries(tournament=tournament), many=True)
        return cast(list[dict], entries.data)

    def get_standings(self, tournament: Tournament) -> list[dict]:
        lines: list[StandingLine] = tournament_standings(tournament=tournament)
        return cast(list[dict], TournamentStandingSerializer(lines, many=True).data)

    def get_tables(self, tournament: Tournament) -> list[dict]:
        tables = tournament_tables(tournament=tournament)
        return cast(list[dict], TableSerializer(tables, many=True, context=self.context).data)

    def get_replays_url(self, tournament: Tournament) -> str:
        path = reverse("api:tournament-replays", args=[tournament.slug])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path


class EntryInput(serializers.Serializer):
    bot = serializers.IntegerField(min_value=1, help_text="Your bot's id.")
