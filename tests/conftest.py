"""Shared test set-up: real services are required in CI and skipped elsewhere.

A test marked ``postgres``, ``redis``, ``jail``, ``cgroup2``, ``browser`` or ``install`` runs
only when that service (for ``install``: uv) is reachable. Locally a missing service skips
the test with the reason; with ``CI=true`` it fails instead, so CI never passes by skipping.
"""

from __future__ import annotations

import functools
import os
import shutil
import socket
import subprocess
from collections.abc import Iterator

import pytest

from sandbox.cgroups.v2 import mount_point, own_group


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


@functools.cache
def _bwrap_works() -> bool:
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return False
    probe = [bwrap, "--ro-bind", "/", "/", "--unshare-all", "true"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


def _cgroup2_writable() -> bool:
    """True if a v2 group can be made under this process's own, and frozen."""
    try:
        probe = own_group(mount_point()) / f"tavolo-probe-{os.getpid()}"
        probe.mkdir()
    except OSError:
        return False
    usable = (probe / "cgroup.freeze").exists()
    probe.rmdir()
    return usable


CHROMIUM = "/usr/bin/chromium"


def _chromium_usable() -> bool:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return os.access(CHROMIUM, os.X_OK)


SERVICES = {
    "postgres": (lambda: _port_open("127.0.0.1", 5432), "PostgreSQL is not reachable on :5432"),
    "redis": (
        lambda: shutil.which("redis-server") is not None,
        "redis-server is not installed (tests start Redis servers of their own)",
    ),
    "jail": (_bwrap_works, "bubblewrap (bwrap) is not installed or cannot make namespaces"),
    "cgroup2": (_cgroup2_writable, "no writable cgroup v2 group with cgroup.freeze (needs root)"),
    "browser": (_chromium_usable, f"no Chromium at {CHROMIUM} (apt-get install chromium)"),
    "install": (lambda: shutil.which("uv") is not None, "uv is not installed (pip install uv)"),
}


@functools.cache
def _available(service: str) -> bool:
    check, _ = SERVICES[service]
    return check()


def pytest_runtest_setup(item: pytest.Item) -> None:
    for service, (_, reason) in SERVICES.items():
        if item.get_closest_marker(service) and not _available(service):
            if os.environ.get("CI") == "true":
                pytest.fail(f"CI requires it: {reason}")
            pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """One headless Chromium for the whole run, driven by Playwright's sync API.

    Playwright's sync API runs an event loop in this thread for as long as it is
    open, and a second one cannot start beside it: every browser test shares this
    browser. The tests' own database reads and writes stay synchronous, between
    its calls.
    """
    from playwright.sync_api import sync_playwright

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=[
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-background-networking",
                    "--disable-component-update",
                ],
            )
            yield browser
            browser.close()
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
