"""Fixtures shared by the arena tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib.resources import files

import pytest
from click.testing import CliRunner, Result
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from arena.cli import tavolo

SCHEMA_NAMES = ("action.schema.json", "observation.schema.json", "replay.schema.json")


@pytest.fixture(scope="session")
def schema_validator() -> Callable[[str], Draft202012Validator]:
    """A validator for one of the published schemas, with their cross-references."""
    schemas = {
        name: json.loads(files("arena.schemas").joinpath(name).read_text()) for name in SCHEMA_NAMES
    }
    registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas.values()
    )
    return lambda name: Draft202012Validator(schemas[name], registry=registry)


@pytest.fixture
def run() -> Callable[..., Result]:
    """Run the `tavolo` command with these arguments, as a user would."""
    runner = CliRunner()

    def invoke(*args: object) -> Result:
        return runner.invoke(tavolo, [str(arg) for arg in args], catch_exceptions=False)

    return invoke
