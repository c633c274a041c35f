"""What the API accepts: input serializers that check shape, never business rules.

A bot's source comes either as a multipart ``file`` or as JSON ``source`` text;
the checks on its content (size, encoding, syntax, ``act``) belong to the bots
service, which both the API and the web forms call.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.files.uploadedfile import UploadedFile
from django.http import Http404
from rest_framework import serializers

from bots.checks import ONE_FILE_ONLY, bot_file_read
from bots.models import Bot
from bots.selectors import bot_get
from ladders.models import Ladder
from ladders.selectors import ladder_get
from matches.models import Match

DEFAULT_FILENAME = "bot.py"


class SourceInput(serializers.Serializer):
    """A bot file, as an uploaded ``file`` or as ``source`` text (exactly one)."""

    file = serializers.FileField(required=False, allow_empty_file=True)
    source = serializers.CharField(  # type: ignore[assignment]  # a field, not Field.source
        required=False, allow_blank=True, trim_whitespace=False, max_length=1024 * 1024
    )
    filename = serializers.CharField(
        required=False, default=DEFAULT_FILENAME, max_length=200, help_text="With `source` only."
    )

    def validate_file(self, file: UploadedFile) -> UploadedFile:
        """Refuse a request with several ``file`` parts (only the last would be kept)."""
        getlist = getattr(self.initial_data, "getlist", None)
        if getlist is not None and len(getlist("file")) > 1:
            raise serializers.ValidationError(ONE_FILE_ONLY)
        return file


def uploaded_source(data: dict[str, Any]) -> tuple[bytes, str]:
    """The bytes and file name of a valid `SourceInput`: from ``file`` or from ``source``."""
    if ("file" in data) == ("source" in data):
        raise serializers.ValidationError(
            {"detail": "send the bot either as a file upload `file` or as text `source`"}
        )
    if "file" in data:
        upload = data["file"]
        return bot_file_read(upload), upload.name or DEFAULT_FILENAME
    return data["source"].encode("utf-8", errors="surrogatepass"), data["filename"]


class BotCreateInput(SourceInput):
    name = serializers.CharField(max_length=100)
    ladder = serializers.CharField(max_length=50, help_text="The ladder's slug.")


class ChallengeInput(serializers.Serializer):
    bot = serializers.IntegerField(min_value=1, help_text="Your bot's id.")
    opponents = serializers.ListField(
        child=serializers.IntegerField(min_value=1), min_length=1, max_length=16
    )


def query_filters(
    filters: type[serializers.Serializer], query: Mapping[str, Any]
) -> dict[str, Any]:
    """The checked filters of a list's query string; a 400 naming any bad one."""
    checked = filters(data=query)
    checked.is_valid(raise_exception=True)
    return dict(checked.validated_data)


class LadderFilterInput(serializers.Serializer):
    """A ``?ladder=SLUG`` filter, turned into the ladder (400 if there is none)."""

    ladder = serializers.CharField(required=False, max_length=50, help_text="A ladder's slug.")

    def validate_ladder(self, slug: str) -> Ladder:
        try:
            return ladder_get(slug=slug)
        except Http404 as error:
            raise serializers.ValidationError(str(error)) from None


class BotFilterInput(LadderFilterInput):
    name = serializers.CharField(required=False, max_length=100)
    owner = serializers.CharField(
        required=False,
        max_length=150,
        help_text="A user name; an unknown one lists no bots, as a user without bots does.",
    )


class MatchFilterInput(LadderFilterInput):
    bot = serializers.IntegerField(required=False, min_value=1, help_text="A bot's id.")
    kind = serializers.ChoiceField(required=False, choices=Match.Kind.choices)

    def validate_bot(self, bot_id: int) -> Bot:
        try:
            return bot_get(bot_id=bot_id)
        except Http404 as error:
            raise serializers.ValidationError(str(error)) from None
