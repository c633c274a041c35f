"""Swagger UI and Redoc: served by the site, from its own files, under a strict script policy."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.staticfiles import finders
from rest_framework.test import APIClient

DOCS_PAGES = ["/api/docs/", "/api/docs/redoc/"]


class AssetParser(HTMLParser):
    """Every URL a page loads or links to, and the bodies of its inline scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.inline_scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        self.urls += [values[name] or "" for name in ("src", "href", "spec-url") if name in values]
        self._in_script = tag == "script" and "src" not in values

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline_scripts.append(data)


def parsed(client: APIClient, path: str) -> AssetParser:
    answer = client.get(path)
    assert answer.status_code == 200
    parser = AssetParser()
    parser.feed(answer.content.decode())
    return parser


def same_origin(url: str) -> bool:
    return url.startswith("/") and not url.startswith("//")


@pytest.mark.parametrize("path", DOCS_PAGES)
def test_a_docs_page_loads_only_the_sites_own_files(anonymous: APIClient, path: str) -> None:
    page = parsed(anonymous, path)
    assert page.urls
    assert [url for url in page.urls if not same_origin(url)] == []
    for url in page.urls:
        if url.startswith("/static/"):
            assert finders.find(url.removeprefix("/static/")), f"{url} is not a static file"


@pytest.mark.parametrize("path", DOCS_PAGES)
def test_a_docs_page_runs_no_inline_script(anonymous: APIClient, path: str) -> None:
    answer = anonymous.get(path)
    directives = answer["Content-Security-Policy"].split(";")
    policy = dict(directive.strip().split(" ", 1) for directive in directives)
    assert policy["script-src"] == "'self'"
    assert parsed(anonymous, path).inline_scripts == []


def test_swagger_ui_starts_from_a_script_of_the_site(anonymous: APIClient) -> None:
    page = parsed(anonymous, "/api/docs/")
    start = next(url for url in page.urls if url.startswith("/api/docs/?script"))
    script = anonymous.get(start)
    assert script["Content-Type"] == "application/javascript"
    code = script.content.decode()
    assert 'url: "/api/schema/"' in code
    assert re.findall(r"https?://", code) == []


def test_both_pages_link_the_schema(anonymous: APIClient) -> None:
    for path in DOCS_PAGES:
        assert "/api/schema/" in parsed(anonymous, path).urls


def test_the_schema_offers_the_token_to_try_it_out(anonymous: APIClient, db: None) -> None:
    schema = anonymous.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    token = schema["components"]["securitySchemes"]["tokenAuth"]
    assert token == {
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
        "description": 'Token-based authentication with required prefix "Token"',
    }
    upload = schema["paths"]["/api/bots/{bot_id}/versions/"]["post"]
    assert {"tokenAuth": []} in upload["security"]
