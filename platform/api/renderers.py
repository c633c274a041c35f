"""Renderers that let API clients ask for a download's file itself by its media type."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework.renderers import BaseRenderer

from matches.replays import REPLAY_CONTENT_TYPE
from tournaments.downloads import ZIP_CONTENT_TYPE


class FileRenderer(BaseRenderer):
    """Accepts ``Accept: <media_type>``; the view answers with the file's own response."""

    charset = None
    render_style = "binary"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> Any:
        return data


class GzipRenderer(FileRenderer):
    """A replay file: ``Accept: application/gzip``."""

    media_type = REPLAY_CONTENT_TYPE
    format = "gz"


class ZipRenderer(FileRenderer):
    """A tournament's replays as one zip: ``Accept: application/zip``."""

    media_type = ZIP_CONTENT_TYPE
    format = "zip"
