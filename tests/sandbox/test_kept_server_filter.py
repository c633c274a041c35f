"""A kept jail's server may `unshare` and `mount` with exactly the flags it uses, nothing else.

The server's filter is loaded in a child that holds CAP_SYS_ADMIN in a user
namespace of its own, as the server does in its jail, so each call the
filter lets through would succeed: what fails, the filter refused.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.seccomp import filter_program

pytestmark = pytest.mark.jail

ROOT = Path(__file__).parents[2]
TRY_CALLS = r"""
import ctypes, errno, os, sys, tempfile
from sandbox.host import MATCH_MOUNT_FLAGS, MATCH_NAMESPACES, load_filter

CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET, CLONE_NEWUTS = 0x10000000, 0x20000, 0x40000000, 0x4000000
MS_BIND, MS_REMOUNT, MS_PRIVATE = 4096, 32, 1 << 18
SYS_UNSHARE, SYS_MOUNT, PR_SET_NO_NEW_PRIVS = 272, 165, 38
libc = ctypes.CDLL(None, use_errno=True)
assert libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0, "no user namespace here"
target = tempfile.mkdtemp().encode()
assert libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
load_filter(libc, sys.stdin.buffer.read())

def report(label, result):
    code = errno.errorcode.get(ctypes.get_errno(), "") if result < 0 else "done"
    print(f"{label}: {code}")

def mount(flags, source=b"tmpfs", kind=b"tmpfs"):
    return libc.syscall(SYS_MOUNT, source, target, kind, ctypes.c_ulong(flags), None)

unshare = lambda flags: libc.syscall(SYS_UNSHARE, ctypes.c_ulong(flags))
report("unshare net", unshare(CLONE_NEWNET))
report("unshare uts", unshare(CLONE_NEWUTS))
report("unshare the match's and net", unshare(MATCH_NAMESPACES | CLONE_NEWNET))
report("unshare the match's and a high bit", unshare(MATCH_NAMESPACES | 1 << 40))
report("mount tmpfs", mount(MATCH_MOUNT_FLAGS))
report("remount", mount(MS_REMOUNT | MATCH_MOUNT_FLAGS))
report("bind", mount(MS_BIND, source=b"/usr", kind=None))
report("make private", mount(MS_PRIVATE, source=None, kind=None))
report("mount with a high bit", mount(MATCH_MOUNT_FLAGS | 1 << 40))
report("unshare the match's", unshare(MATCH_NAMESPACES))
"""


def test_the_server_filter_lets_through_only_the_match_namespaces_and_a_new_tmpfs():
    done = subprocess.run(
        [sys.executable, "-c", TRY_CALLS],
        input=filter_program(kept_server=True),
        capture_output=True,
        cwd=ROOT,
        check=True,
    )
    results = dict(line.split(": ") for line in done.stdout.decode().splitlines())
    assert results == {
        "unshare net": "EPERM",
        "unshare uts": "EPERM",
        "unshare the match's and net": "EPERM",
        "unshare the match's and a high bit": "EPERM",
        "mount tmpfs": "done",
        "remount": "EPERM",
        "bind": "EPERM",
        "make private": "EPERM",
        "mount with a high bit": "EPERM",
        "unshare the match's": "done",
    }
