"""OpenAPI descriptions shared by the views: the error answers each endpoint can give."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse

ERROR_DESCRIPTIONS = {
    400: "The input is invalid: `detail` or one message list per field.",
    401: "Not logged in: send `Authorization: Token <token>`.",
    403: "Not allowed: the object belongs to another user.",
    404: "No such object (or not yours to see), or no such page.",
    429: "Too many requests: `detail` says when to try again.",
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """The documented error answers `codes`, each a JSON object."""
    return {
        code: OpenApiResponse(OpenApiTypes.OBJECT, description=ERROR_DESCRIPTIONS[code])
        for code in codes
    }
