"""`bench/soak.py` for 5 minutes: the standalone under worker kills holds.

The record run is 2 hours (docs/benchmarks.md); this one kills the worker every
minute. Marked ``soak``: it takes about 7 minutes.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.soak]

SOAK_FILE = Path(__file__).parents[3] / "bench" / "soak.py"


def soak_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_soak", SOAK_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_five_minutes_with_the_worker_killed_every_minute_lose_and_double_nothing(
    tmp_path: Path,
) -> None:
    soak = soak_module()
    result = soak.soak(minutes=5, kill_every=60, drain=180, folder=tmp_path)
    report = soak.report(result)
    assert not result.site_ended, report
    assert result.reads.count > 0 and result.reads.failed == 0, report
    assert len(result.worker_back) >= 4, report
    matches = result.matches
    assert matches.created > 0, report
    assert matches.finished == matches.created, report
    assert matches.ratings_not_once == 0, report
