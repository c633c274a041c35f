"""The hostile suite plays each attack in kept jails (the default), in a new jail per bot,
and (for the attacks on what cgroups hold) without cgroups."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sandbox.cgroups import OFF_VARIABLE
from sandbox.kept import KEPT_VARIABLE
from sandbox.pool import shared_pool


@pytest.fixture(params=["1", "0"], ids=["kept jails", "a new jail per bot"])
def both_jail_kinds(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the test once with kept jails, once with `TAVOLO_KEPT_JAILS=0`."""
    monkeypatch.setenv(KEPT_VARIABLE, request.param)


@pytest.fixture(
    params=[("1", "1"), ("0", "1"), ("0", "0")],
    ids=["kept jails", "a new jail per bot", "no cgroups"],
)
def every_jail_kind(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """Run the test with kept jails, with a new jail per bot, and without cgroups
    (`TAVOLO_CGROUPS=0`: rlimits alone, SIGSTOP to pause, a new jail per bot).

    The warm pool is emptied around a test without cgroups, so that it neither gets
    a jail started with a cgroup nor leaves one without to the next test.
    """
    kept, cgroups = request.param
    monkeypatch.setenv(KEPT_VARIABLE, kept)
    monkeypatch.setenv(OFF_VARIABLE, cgroups)
    if cgroups == "0":
        shared_pool().clear()
    yield
    if cgroups == "0":
        shared_pool().clear()
