"""/api/docs/: Swagger UI and Redoc on the OpenAPI schema, served by the site itself.

Both come from drf-spectacular-sidecar's static files, so the pages work offline
and load nothing from another origin. Swagger UI's start-up code is served as a
script of its own (``?script``, drf-spectacular's split view) rather than inline,
so scripts stay limited to the site's own files. Both UIs style their elements
from JavaScript (style attributes and injected <style> elements) and Redoc's
search runs in a worker made from a blob: these pages, and only these, allow
inline styles and blob workers. Their policy is set on the response, so the
site-wide policy middleware leaves it as it is.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework.response import Response

DOCS_CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "worker-src 'self' blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class DocsPageMixin:
    """Read the schema at /api/schema/; answer with the docs pages' own Content-Security-Policy."""

    url_name = "api:schema"

    def finalize_response(
        self, request: HttpRequest, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        # A mixin of drf-spectacular's views, which have finalize_response (APIView's).
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        response["Content-Security-Policy"] = DOCS_CONTENT_SECURITY_POLICY
        return response


class SwaggerView(DocsPageMixin, SpectacularSwaggerSplitView):
    """Swagger UI: every operation, with "Try it out" using your token."""

    template_name = "api/swagger_ui.html"


class RedocView(DocsPageMixin, SpectacularRedocView):
    """Redoc: the same schema as one long, searchable reference page."""

    template_name = "api/redoc.html"
