"""Settings from the environment: each variable may come from a file named by NAME_FILE."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from tavolo_site.env import env_bool, env_int, env_str


@pytest.fixture
def secret_file(tmp_path: Path) -> Path:
    path = tmp_path / "secret_key"
    path.write_text("s3cr3t value\n")
    return path


def test_a_variable_is_read_from_the_file_its_FILE_twin_names(
    monkeypatch: pytest.MonkeyPatch, secret_file: Path
) -> None:
    monkeypatch.delenv("TAVOLO_TEST_SECRET", raising=False)
    monkeypatch.setenv("TAVOLO_TEST_SECRET_FILE", str(secret_file))
    assert env_str("TAVOLO_TEST_SECRET") == "s3cr3t value"


def test_typed_variables_come_from_files_too(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "depth").write_text("7\n")
    (tmp_path / "flag").write_text("yes")
    monkeypatch.setenv("TAVOLO_TEST_DEPTH_FILE", str(tmp_path / "depth"))
    monkeypatch.setenv("TAVOLO_TEST_FLAG_FILE", str(tmp_path / "flag"))
    assert env_int("TAVOLO_TEST_DEPTH", 2) == 7
    assert env_bool("TAVOLO_TEST_FLAG") is True


def test_the_variable_itself_still_works_and_the_default_without_either(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TAVOLO_TEST_SECRET", "plain")
    assert env_str("TAVOLO_TEST_SECRET") == "plain"
    monkeypatch.delenv("TAVOLO_TEST_SECRET")
    assert env_str("TAVOLO_TEST_SECRET", "fallback") == "fallback"


def test_a_variable_given_both_ways_is_refused(
    monkeypatch: pytest.MonkeyPatch, secret_file: Path
) -> None:
    monkeypatch.setenv("TAVOLO_TEST_SECRET", "plain")
    monkeypatch.setenv("TAVOLO_TEST_SECRET_FILE", str(secret_file))
    with pytest.raises(ImproperlyConfigured, match="not both"):
        env_str("TAVOLO_TEST_SECRET")


def test_a_file_that_cannot_be_read_stops_the_site_with_its_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("TAVOLO_TEST_SECRET", raising=False)
    monkeypatch.setenv("TAVOLO_TEST_SECRET_FILE", str(tmp_path / "missing"))
    with pytest.raises(ImproperlyConfigured, match="TAVOLO_TEST_SECRET_FILE"):
        env_str("TAVOLO_TEST_SECRET", "fallback")
