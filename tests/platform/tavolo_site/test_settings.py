"""Production settings: Django's deployment checklist passes with the documented environment."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[3]

OPTIONAL_CHECKS = {"security.W005", "security.W021"}
"""HSTS for subdomains and the preload list: the operator's choice for their domain."""


TEST_RUN_SETTINGS = {
    "DEBUG",
    "SECRET_KEY",
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}
"""Settings of the test run itself (browser tests allow async-unsafe calls), never the site's."""


def deploy_check(tmp_path: Path, **environment: str) -> subprocess.CompletedProcess[str]:
    return manage(tmp_path, "check", "--deploy", **environment)


def manage(tmp_path: Path, *command: str, **environment: str) -> subprocess.CompletedProcess[str]:
    """Run ``manage.py`` with only the given settings (none of the test run's own)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key.removesuffix("_FILE") not in TEST_RUN_SETTINGS
    }
    env.update(TAVOLO_DATA_DIR=str(tmp_path), **environment)
    return subprocess.run(
        [sys.executable, "manage.py", *command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_deployment_checklist_passes_behind_an_https_proxy(tmp_path: Path) -> None:
    result = deploy_check(
        tmp_path,
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="tavolo.example.org",
        TAVOLO_HTTPS="1",
        TAVOLO_HSTS_SECONDS="31536000",
    )
    assert result.returncode == 0, result.stderr
    assert set(re.findall(r"\(([a-z_.]+\.[A-Z]\d+)\)", result.stderr)) <= OPTIONAL_CHECKS


def test_the_site_refuses_to_start_without_a_secret_key(tmp_path: Path) -> None:
    result = deploy_check(tmp_path, ALLOWED_HOSTS="tavolo.example.org")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_secrets_may_come_from_files(tmp_path: Path) -> None:
    secret_key = tmp_path / "secret_key"
    secret_key.write_text(secrets.token_urlsafe(50) + "\n")
    database_url = tmp_path / "database_url"
    database_url.write_text(f"sqlite:///{tmp_path / 'from-file.sqlite3'}\n")
    result = deploy_check(
        tmp_path,
        SECRET_KEY_FILE=str(secret_key),
        DATABASE_URL_FILE=str(database_url),
        ALLOWED_HOSTS="tavolo.example.org",
        TAVOLO_HTTPS="1",
        TAVOLO_HSTS_SECONDS="31536000",
    )
    assert result.returncode == 0, result.stderr
    shown = manage(
        tmp_path,
        "shell",
        "-c",
        "from django.conf import settings; print(settings.DATABASES['default']['NAME'])",
        SECRET_KEY_FILE=str(secret_key),
        DATABASE_URL_FILE=str(database_url),
    )
    assert shown.stdout.splitlines()[-1] == str(tmp_path / "from-file.sqlite3"), shown.stderr
