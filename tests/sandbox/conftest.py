"""The hostile suite plays each attack in kept jails (the default) and in a new jail per bot."""

from __future__ import annotations

import pytest

from sandbox.kept import KEPT_VARIABLE


@pytest.fixture(params=["1", "0"], ids=["kept jails", "a new jail per bot"])
def both_jail_kinds(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the test once with kept jails, once with `TAVOLO_KEPT_JAILS=0`."""
    monkeypatch.setenv(KEPT_VARIABLE, request.param)
