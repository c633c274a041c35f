"""Looks for any privilege left to it, and tries what a kept jail's server may do.

It reads its capability sets, its no-new-privileges bit and its seccomp mode
from the kernel (there is no /proc to read them from), then makes the pid,
mount and IPC namespaces and the tmpfs mount a kept jail's server makes for
each match, joins a namespace, and sends SIGTERM to its process group, which
would reach a server that shared it.
"""

import ctypes
import errno
import os
import signal
import sys

CAPABILITY_VERSION_3, LAST_CAPABILITY = 0x20080522, 63
PR_CAPBSET_READ, PR_GET_SECCOMP, PR_GET_NO_NEW_PRIVS = 23, 21, 39
PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET = 47, 1
MATCH_NAMESPACES = 0x20000 | 0x20000000 | 0x08000000  # CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC
MS_NOSUID_NODEV = 2 | 4
libc = ctypes.CDLL(None, use_errno=True)


def report(label, value):
    print(f"outcome: {label}: {value}", file=sys.stderr)


def error_of(result):
    return errno.errorcode.get(ctypes.get_errno(), "") if result < 0 else "done"


header = (ctypes.c_uint32 * 2)(CAPABILITY_VERSION_3, 0)
data = (ctypes.c_uint32 * 6)()
libc.capget(header, data)
report(
    "effective permitted inheritable",
    f"{data[0] | data[3]} {data[1] | data[4]} {data[2] | data[5]}",
)
for label, option, argument in (
    ("bounding", PR_CAPBSET_READ, None),
    ("ambient", PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET),
):
    held = [
        number
        for number in range(LAST_CAPABILITY + 1)
        if (
            libc.prctl(option, number, 0, 0, 0)
            if argument is None
            else libc.prctl(option, argument, number, 0, 0)
        )
        == 1
    ]
    report(label, held)
report("no new privileges", libc.prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0))
report("seccomp mode", libc.prctl(PR_GET_SECCOMP, 0, 0, 0, 0))
report("unshare as the server", error_of(libc.unshare(MATCH_NAMESPACES)))
mount_flags = ctypes.c_ulong(MS_NOSUID_NODEV)
report("mount as the server", error_of(libc.mount(b"tmpfs", b"/tmp", b"tmpfs", mount_flags, None)))
report("setns", error_of(libc.setns(0, 0)))
report("/proc", os.path.exists("/proc/self"))
signal.signal(signal.SIGTERM, signal.SIG_IGN)
os.kill(0, signal.SIGTERM)
report("SIGTERM to its process group", "sent")


def act(observation):
    return observation["legal_actions"][0]
