"""Dependencies point one way: platform -> sandbox -> arena, and only the platform uses Django."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLATFORM_APPS = {path.name for path in (ROOT / "platform").iterdir() if path.is_dir()}
FORBIDDEN = {
    "arena": {"django", "rest_framework", "celery", "sandbox", *PLATFORM_APPS},
    "sandbox": {"django", "rest_framework", "celery", *PLATFORM_APPS},
}


def imported_top_levels(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_lower_layer_never_imports_a_higher_one(package):
    offenders = {
        f"{path.relative_to(ROOT)} imports {name}"
        for path in (ROOT / package).rglob("*.py")
        for name in imported_top_levels(path) & FORBIDDEN[package]
    }
    assert not offenders, sorted(offenders)


def test_platform_is_not_a_package_shadowing_the_standard_module():
    assert not (ROOT / "platform" / "__init__.py").exists()
