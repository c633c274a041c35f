"""/api/docs/: the OpenAPI schema as a plain HTML page, rendered on the server.

Swagger UI and Redoc load their JavaScript from a CDN, and the site must work
offline, so this page lists each operation with its parameters, request bodies
and answers straight from the schema that /api/schema/ serves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from drf_spectacular.generators import SchemaGenerator

HTTP_METHODS = ("get", "post", "put", "patch", "delete")


@dataclass(frozen=True)
class Operation:
    """One method on one path, ready for the template."""

    method: str
    path: str
    summary: str
    parameters: list[dict[str, Any]]
    request_types: list[tuple[str, str]]
    responses: list[tuple[str, str, str]]
    needs_login: bool


def schema_name(media: dict[str, Any]) -> str:
    """A short name for a request or response body's schema."""
    schema = media.get("schema", {})
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if schema.get("type") == "array" and "$ref" in schema.get("items", {}):
        return f"list of {schema['items']['$ref'].rsplit('/', 1)[-1]}"
    return schema.get("format") or schema.get("type") or "object"


def operations(schema: dict[str, Any]) -> list[Operation]:
    """Every operation of `schema`, in path order."""
    found = []
    for path, item in schema.get("paths", {}).items():
        for method in HTTP_METHODS:
            if method not in item:
                continue
            operation = item[method]
            body = operation.get("requestBody", {}).get("content", {})
            found.append(
                Operation(
                    method=method.upper(),
                    path=path,
                    summary=operation.get("description", ""),
                    parameters=operation.get("parameters", []),
                    request_types=[(kind, schema_name(media)) for kind, media in body.items()],
                    responses=[
                        (
                            code,
                            answer.get("description", ""),
                            ", ".join(schema_name(m) for m in answer.get("content", {}).values()),
                        )
                        for code, answer in operation.get("responses", {}).items()
                    ],
                    needs_login={} not in operation.get("security", [{}]),
                )
            )
    return found


def api_docs(request: HttpRequest) -> HttpResponse:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema.get("components", {}).get("schemas", {})
    return render(
        request,
        "api/docs.html",
        {
            "info": schema.get("info", {}),
            "operations": operations(schema),
            "components": sorted(components.items()),
        },
    )
