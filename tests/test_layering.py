"""Dependencies point one way: platform -> sandbox -> arena, and only the platform uses Django.

Inside the platform, the Django apps stand in one order (docs/architecture.md):
each app imports only the apps below it, and the two delivery layers, api and
web, never import each other. `tavolo_site` (settings, URLs, start-up) sits on
top and no app imports it. Every import counts, also one inside a function.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLATFORM_APPS = {
    path.name
    for path in (ROOT / "platform").iterdir()
    if path.is_dir() and (path / "__init__.py").exists()
}
APP_ORDER = (
    ("accounts",),
    ("ladders",),
    ("bots",),
    ("matches",),
    ("ranked", "qualification", "tournaments"),
    ("api", "web"),
)
"""The platform's apps, lowest first; apps on one level do not import each other."""
SITE = "tavolo_site"
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


def app_level(app: str) -> int:
    return next(level for level, apps in enumerate(APP_ORDER) if app in apps)


def test_every_platform_app_has_its_place_in_the_order():
    placed = {app for level in APP_ORDER for app in level}
    assert placed | {SITE} == PLATFORM_APPS


@pytest.mark.parametrize("app", sorted(app for level in APP_ORDER for app in level))
def test_an_app_imports_only_the_apps_below_it(app):
    allowed = {other for other in PLATFORM_APPS - {SITE} if app_level(other) < app_level(app)}
    forbidden = PLATFORM_APPS - allowed - {app}
    offenders = {
        f"{path.relative_to(ROOT)} imports {name}"
        for path in (ROOT / "platform" / app).rglob("*.py")
        for name in imported_top_levels(path) & forbidden
    }
    assert not offenders, sorted(offenders)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_only_tasks_modules_import_tasks_modules():
    """Work is sent by task name (`matches.dispatch`): tasks import services, never back."""
    offenders = {
        f"{path.relative_to(ROOT)} imports {name}"
        for path in (ROOT / "platform").rglob("*.py")
        if path.name != "tasks.py" and "tests" not in path.parts
        for name in imported_modules(path)
        if name.split(".")[-1] == "tasks" and name.split(".")[0] in PLATFORM_APPS
    }
    assert not offenders, sorted(offenders)
