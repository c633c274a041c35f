"""Hostile bots reading and writing files: only a read-only runtime and private tmpfs exist."""

from __future__ import annotations

import errno
import hashlib
from pathlib import Path

import pytest

from sandbox.limits import KIB
from tests.sandbox.hostile_match import FAST_LIMITS, assert_contained, outcomes, play

pytestmark = [pytest.mark.jail, pytest.mark.usefixtures("both_jail_kinds")]

JAIL_ROOT = ["bin", "dev", "host", "lib", "lib64", "tmp", "usr"]
READ_ONLY = f"OSError {errno.EROFS}"


def test_a_bot_cannot_read_the_hosts_accounts():
    record = play("read_shadow")
    assert outcomes(record.seats[0].log) == {
        "/etc/shadow": "FileNotFoundError",
        "/etc/passwd": "FileNotFoundError",
    }
    assert_contained(record)


def test_a_bot_sees_only_the_runtime_in_its_root_and_not_the_repository():
    record = play("read_repo")
    found = outcomes(record.seats[0].log)
    assert found["root"] == str(JAIL_ROOT)
    assert found["/work/main/pyproject.toml"] == "FileNotFoundError"
    assert found["/work/main/platform/tavolo_site/settings.py"] == "FileNotFoundError"
    assert_contained(record)


def test_a_bot_cannot_list_root_or_home():
    record = play("read_root_home")
    assert set(outcomes(record.seats[0].log).values()) == {"FileNotFoundError"}
    assert_contained(record)


def test_a_bot_cannot_read_another_bots_file_nor_its_own():
    record = play("read_other_bot", "read_shadow")
    found = outcomes(record.seats[0].log)
    assert found.pop("own file") == "/bot/read_other_bot.py"
    assert set(found.values()) == {"FileNotFoundError"}
    assert len(found) == 3
    assert_contained(record, hostile_seats=2)


def test_a_bot_finds_no_site_packages():
    record = play("read_site_packages")
    found = outcomes(record.seats[0].log)
    for name in ("django", "pyseccomp", "arena", "sandbox"):
        assert found[f"import {name}"] == "ModuleNotFoundError"
    assert found["/usr/lib/python3/dist-packages"] == "FileNotFoundError"
    assert found["/usr/local/lib/python3.11"] == "FileNotFoundError"
    assert found["/usr/lib/python3.11/site-packages"] == "FileNotFoundError"
    assert "dist-packages" not in found["sys.path"] and "site-packages" not in found["sys.path"]
    assert_contained(record)


def test_a_bot_has_no_proc_to_walk_into_the_host():
    record = play("read_proc_root")
    assert set(outcomes(record.seats[0].log).values()) == {"FileNotFoundError"}
    assert_contained(record)


def test_a_bot_cannot_read_pid_1s_environment():
    record = play("read_proc_environ")
    assert set(outcomes(record.seats[0].log).values()) == {"FileNotFoundError"}
    assert_contained(record)


def test_a_bot_cannot_see_the_workers_environment(monkeypatch):
    monkeypatch.setenv("TAVOLO_TEST_SECRET", "hunter2-secret")
    record = play("worker_environment")
    assert "hunter2-secret" not in record.seats[0].log
    assert outcomes(record.seats[0].log)["environment"] == "[('PWD', '/tmp')]"
    assert_contained(record)


def test_a_bot_cannot_write_its_own_folder():
    record = play("write_bot_folder")
    assert outcomes(record.seats[0].log) == {
        "own file": f"FileNotFoundError {errno.ENOENT}",
        "new module": f"FileNotFoundError {errno.ENOENT}",
    }
    assert_contained(record)


def test_a_bot_cannot_change_the_standard_library():
    stdlib = Path("/usr/lib/python3.11/os.py")
    before = hashlib.sha256(stdlib.read_bytes()).hexdigest()
    record = play("write_stdlib")
    assert outcomes(record.seats[0].log) == {
        "os.py": f"PermissionError {errno.EACCES}",
        "new module": READ_ONLY,
    }
    assert hashlib.sha256(stdlib.read_bytes()).hexdigest() == before
    assert not Path("/usr/lib/python3.11/planted.py").exists()
    assert_contained(record)


def test_a_bot_cannot_write_to_the_jails_root_or_dev():
    record = play("write_root")
    assert outcomes(record.seats[0].log) == {
        "root": READ_ONLY,
        "dev": READ_ONLY,
        "mkdir": READ_ONLY,
    }
    assert_contained(record)


@pytest.mark.parametrize(
    "bot, cap", [("fill_dev_shm", FAST_LIMITS.shm_bytes), ("fill_tmp", FAST_LIMITS.tmp_bytes)]
)
def test_a_bot_filling_a_tmpfs_stops_at_its_size(bot, cap):
    record = play(bot)
    kind, code, _, written = outcomes(record.seats[0].log)["fill"].split()
    assert (kind, int(code)) == ("OSError", errno.ENOSPC)
    assert cap - 64 * KIB <= int(written) <= cap
    assert_contained(record)


@pytest.mark.parametrize("bot", ["share_tmp", "share_dev_shm"])
def test_two_bots_of_one_match_share_no_temporary_files(bot):
    record = play(bot, bot, opponents=1)
    for seat in record.seats[:2]:
        assert outcomes(seat.log) == {"started": ""}  # never "saw": the other's note
    assert_contained(record, hostile_seats=2)


def test_a_bot_cannot_take_file_locks():
    record = play("file_locks", "file_locks")
    for seat in record.seats[:2]:
        assert outcomes(seat.log) == dict.fromkeys(
            ("flock", "lockf", "ofd", "posix"), f"PermissionError {errno.EPERM}"
        )
    assert_contained(record, hostile_seats=2)


def test_a_bot_cannot_watch_shared_files():
    record = play("inotify_watch")
    assert outcomes(record.seats[0].log) == {"inotify_init1": "EPERM", "fanotify_init": "EPERM"}
    assert_contained(record)


def test_a_bot_cannot_reach_its_cgroup():
    record = play("escape_cgroup")
    assert set(outcomes(record.seats[0].log).values()) == {"FileNotFoundError"}
    assert_contained(record)
