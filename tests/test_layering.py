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
    """Every module `path` imports, relative imports resolved against its own package."""
    package = path.relative_to(ROOT / "platform").parent.parts
    return modules_imported_by(path.read_text(), package=package)


def modules_imported_by(source: str, *, package: tuple[str, ...]) -> set[str]:
    """The modules `source` imports (`a.b`, and `a.b.c` for `from a.b import c`), were it
    a module of `package`."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[: len(package) - node.level + 1]) if node.level else ""
            module = ".".join(filter(None, [base, node.module or ""]))
            if module:
                names.add(module)
                names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def platform_sources() -> list[Path]:
    """The platform's own modules, without its tests."""
    return [path for path in (ROOT / "platform").rglob("*.py") if "tests" not in path.parts]


def test_only_tasks_modules_import_tasks_modules():
    """Work is sent by task name (`matches.dispatch`): tasks import services, never back."""
    offenders = {
        str(path.relative_to(ROOT))
        for path in platform_sources()
        if path.name != "tasks.py"
        if imports_a_tasks_module(imported_modules(path))
    }
    assert not offenders, sorted(offenders)


SENDING_CALLS = {"apply_async", "delay", "send_task", "signature", "si", "s"}
"""Celery's ways of sending a task or building one to send."""
DISPATCH = ROOT / "platform" / "matches" / "dispatch.py"


def celery_sends(source: str) -> set[str]:
    """The calls in `source` that send a Celery task or build one: `x.delay(...)` and the like."""
    return {
        f"line {node.lineno} calls .{node.func.attr}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in SENDING_CALLS
    }


def test_every_producer_sends_work_through_dispatch():
    """Tournaments, qualification and matches alike send by name through `matches.dispatch`:
    one place decides how a task is sent and at what priority."""
    offenders = {
        f"{path.relative_to(ROOT)} {call}"
        for path in platform_sources()
        if path != DISPATCH
        for call in celery_sends(path.read_text())
    }
    assert not offenders, sorted(offenders)


@pytest.mark.parametrize(
    ("source", "sends"),
    [
        ("match_run.delay(1)\n", True),
        ("tasks.tournament_advance.apply_async((1,), priority=9)\n", True),
        ("current_app.send_task('matches.tasks.match_run', (1,))\n", True),
        ("task_send(MATCH_RUN, 1)\n", False),
    ],
)
def test_the_dispatch_rule_sees_a_task_sent_directly(source, sends):
    assert bool(celery_sends(source)) is sends


def imports_a_tasks_module(names: set[str]) -> bool:
    return any(
        name.split(".")[-1] == "tasks" and name.split(".")[0] in PLATFORM_APPS for name in names
    )


@pytest.mark.parametrize(
    ("source", "offends"),
    [
        ("from . import tasks\n", True),
        ("from .tasks import match_run\n", True),
        ("from matches.tasks import match_run\n", True),
        ("import ranked.tasks\n", True),
        ("def f():\n    from qualification import tasks\n", True),
        ("from matches.dispatch import task_send\n", False),
        ("from .services import match_run\n", False),
        ("from celery import tasks\n", False),
    ],
)
def test_the_tasks_rule_sees_every_spelling_of_an_import(source, offends):
    assert imports_a_tasks_module(modules_imported_by(source, package=("matches",))) is offends
