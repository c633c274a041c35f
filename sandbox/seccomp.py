"""The jail's seccomp filter, compiled once from `sandbox.policy` into BPF."""

from __future__ import annotations

import errno
import functools
import os

from sandbox import policy
from sandbox.host import MATCH_MOUNT_FLAGS, MATCH_NAMESPACES

LOW_HALF = 0xFFFFFFFF
"""The kernel reads commands and signal numbers as 32-bit ints: compare only the low
half, so that high bits set by a bot cannot slip past an exact comparison."""


KEPT_SERVER_CALLS = {"unshare": (0, MATCH_NAMESPACES), "mount": (3, MATCH_MOUNT_FLAGS)}
"""What a kept jail's server may call that a bot may not, by the index of the one flags
argument allowed and its only value: it makes each match's pid, mount and IPC namespaces
and mounts its tmpfs (the match's own filter, loaded on top, denies them again). Both
flags are `unsigned long` to the kernel, so all 64 bits are compared."""


@functools.cache
def filter_program(kept_server: bool = False, sessions: bool = True) -> bytes:
    """The BPF program bwrap loads with `--seccomp`: allow all but the policy's denials.

    Without `sessions` the bot may not make process groups or sessions: for jails
    paused by SIGSTOP, where no freezer holds them (`policy.SESSION_CALLS`).
    """
    import pyseccomp as sc

    rules = sc.SyscallFilter(defaction=sc.ALLOW)
    for denial in policy.DENIED:
        for name in denial.syscalls:
            if kept_server and name in KEPT_SERVER_CALLS:
                index, allowed = KEPT_SERVER_CALLS[name]
                rules.add_rule(sc.ERRNO(denial.error), name, sc.Arg(index, sc.NE, allowed))
            else:
                rules.add_rule(sc.ERRNO(denial.error), name)
    eperm = sc.ERRNO(errno.EPERM)
    for flag in policy.CLONE_NAMESPACE_FLAGS:
        rules.add_rule(eperm, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    for name in ("socket", "socketpair"):
        rules.add_rule(eperm, name, sc.Arg(0, sc.NE, policy.ALLOWED_SOCKET_FAMILY))
    for command in policy.FCNTL_DENIED_COMMANDS.values():
        rules.add_rule(eperm, "fcntl", sc.Arg(1, sc.MASKED_EQ, LOW_HALF, command))
    for name, index in policy.SIGNAL_ARGUMENT.items():
        rules.add_rule(eperm, name, sc.Arg(index, sc.MASKED_EQ, LOW_HALF, policy.SIGCONT))
    exit_signal = policy.CLONE_EXIT_SIGNAL_MASK
    rules.add_rule(eperm, "clone", sc.Arg(0, sc.MASKED_EQ, exit_signal, policy.SIGCONT))
    rules.add_rule(eperm, "ioctl", sc.Arg(1, sc.MASKED_EQ, LOW_HALF, policy.TIOCSTI))
    for name, index in policy.IO_FLAGS_ARGUMENT.items():
        rules.add_rule(eperm, name, sc.Arg(index, sc.NE, 0))
    for advice in policy.MADVISE_DENIED.values():
        rules.add_rule(eperm, "madvise", sc.Arg(2, sc.MASKED_EQ, LOW_HALF, advice))
    if not sessions:
        for name in policy.SESSION_CALLS:
            rules.add_rule(eperm, name)
    memory_file = os.memfd_create("tavolo-seccomp", os.MFD_CLOEXEC)
    with open(memory_file, "rb") as program:
        rules.export_bpf(program)
        program.seek(0)
        return program.read()


def memory_fd(name: str, data: bytes) -> int:
    """A fresh inheritable descriptor reading `data` from its start (for bwrap's `--seccomp`)."""
    fd = os.memfd_create(name, 0)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
