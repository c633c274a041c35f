"""Hostile bots going after other processes and privileges: one pid namespace each, no way up."""

from __future__ import annotations

import errno

import pytest

from tests.sandbox.hostile_match import assert_contained, assert_others_unaffected, outcomes, play

pytestmark = [pytest.mark.jail, pytest.mark.usefixtures("both_jail_kinds")]

EPERM = f"PermissionError {errno.EPERM}"


def test_a_bot_cannot_ptrace_anything():
    record = play("ptrace_attach")
    assert outcomes(record.seats[0].log) == {"attach parent": "EPERM", "seize 1": "EPERM"}
    assert_contained(record)


def test_a_bot_cannot_read_another_process_memory():
    record = play("process_vm_readv")
    assert outcomes(record.seats[0].log) == {"pid 1": "EPERM", "self": "EPERM"}
    assert_contained(record)


def test_a_bot_killing_its_parent_and_pid_1_hurts_nobody():
    record = play("signal_parent")
    found = outcomes(record.seats[0].log)
    assert found == {"parent": "sent to 1", "pid 1": "sent to 1"}  # pid 1 ignores it
    assert_contained(record)


def test_kill_minus_one_reaches_no_other_bot_of_the_same_user():
    record = play("signal_everyone", "signal_everyone", opponents=1)
    for seat in record.seats[:2]:
        assert outcomes(seat.log) == {"kill -1": "ProcessLookupError"}  # nobody to signal
    assert_contained(record, hostile_seats=2)


def test_a_bot_cannot_become_root():
    record = play("setuid_root")
    found = outcomes(record.seats[0].log)
    assert found["setuid"] == f"OSError {errno.EINVAL}"
    assert found["setgid"] == f"OSError {errno.EINVAL}"
    assert found["setgroups"] == EPERM
    uid, euid, gid = map(int, found["ids"].split())
    assert uid == euid != 0 and gid != 0
    assert_contained(record)


def test_a_bot_cannot_make_namespaces_mount_or_chroot():
    record = play("nested_namespace")
    assert outcomes(record.seats[0].log) == dict.fromkeys(
        ("unshare", "clone", "mount", "chroot"), "EPERM"
    )
    assert_contained(record)


def test_a_bot_holds_no_privilege_and_cannot_do_what_a_kept_server_may():
    record = play("own_powers")
    assert outcomes(record.seats[0].log) == {
        "effective permitted inheritable": "0 0 0",
        "bounding": "[]",
        "ambient": "[]",
        "no new privileges": "1",
        "seccomp mode": "2",
        "unshare as the server": "EPERM",
        "mount as the server": "EPERM",
        "setns": "EPERM",
        "/proc": "False",
        "SIGTERM to its process group": "sent",
    }
    assert_contained(record)


def test_a_bot_cannot_raise_its_limits():
    record = play("raise_rlimits")
    found = outcomes(record.seats[0].log)
    assert set(found) == {
        "RLIMIT_AS",
        "RLIMIT_CPU",
        "RLIMIT_NPROC",
        "RLIMIT_NOFILE",
        "RLIMIT_FSIZE",
        "RLIMIT_SIGPENDING",
        "RLIMIT_MSGQUEUE",
    }
    for text in found.values():
        kind, _, limits = text.partition(" at ")
        soft, hard = limits.split("/")
        assert kind == "ValueError" and soft == hard != str(-1)
    assert_contained(record)


def test_a_bot_has_no_shell_to_run():
    record = play("exec_shell")
    assert outcomes(record.seats[0].log) == dict.fromkeys(
        ("/bin/sh", "/usr/bin/env", "bash"), "FileNotFoundError"
    )
    assert_contained(record)


def test_a_bot_sees_no_process_but_its_own_and_the_reaper():
    record = play("see_processes")
    found = outcomes(record.seats[0].log)
    assert found["visible"] == f"[1, {found['self']}]"
    assert_contained(record)


def test_a_bot_cannot_use_the_kernel_interfaces_of_escapes():
    record = play("kernel_interfaces")
    found = outcomes(record.seats[0].log)
    assert found.pop("clone3") == "ENOSYS"
    assert found == dict.fromkeys(
        (
            "bpf",
            "io_uring_setup",
            "perf_event_open",
            "userfaultfd",
            "keyctl",
            "add_key",
            "setns",
            "pivot_root",
            "syslog",
            "io_setup",
            "memfd_secret",
            "modify_ldt",
            "personality",
            "sysinfo",
            "madvise POPULATE_WRITE",
        ),
        "EPERM",
    )
    assert_contained(record)


def test_a_bot_cannot_push_input_into_a_terminal():
    record = play("tiocsti")
    found = outcomes(record.seats[0].log)
    assert found.pop("tty") == "FileNotFoundError"
    assert found == {f"fd {fd}": EPERM for fd in (0, 1, 2)}
    assert_contained(record)


def test_a_bot_finds_no_trace_of_the_match_seed():
    seed = 0x5EED_1234_5678_9ABC_DEF0_1357_9BDF_2468
    record = play("guess_seed", seed=seed)
    log = record.seats[0].log
    for form in (str(seed), hex(seed), f"{seed:x}"):
        assert form not in log
    found = outcomes(log)
    assert found["argv"] == "['/host/host.py']"
    assert found["/proc/1/cmdline"] == "FileNotFoundError"
    assert "seen: " in log  # it did look at its observations
    assert_contained(record)


def test_a_bot_cannot_arrange_to_wake_itself_while_paused():
    record = play("resume_itself")
    assert outcomes(record.seats[0].log) == {
        "kill": EPERM,
        "F_SETSIG": EPERM,
        "timer_create": "EPERM",
        "clone exit signal": "EPERM",
    }
    assert_contained(record)


def test_a_bot_using_another_system_call_table_is_killed():
    record = play("x32_syscall", opponents=2)
    hostile = record.seats[0]
    assert hostile.crashed
    assert hostile.crash_reason == "could not start: the bot process was killed by SIGSYS"
    assert outcomes(hostile.log) == {"calling": ""}
    assert_others_unaffected(record)
