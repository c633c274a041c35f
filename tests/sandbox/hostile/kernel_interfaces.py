"""Calls the kernel interfaces behind most container escapes, and the calls no bot needs:
AIO contexts (a host-wide count, fs.aio-max-nr), secret memory, x86 segments, another
execution domain, the host's load, a populate that runs on while the bot is frozen."""

import ctypes
import errno
import mmap
import sys

libc = ctypes.CDLL(None, use_errno=True)
context = ctypes.c_ulong(0)
table = (ctypes.c_ubyte * 128)()
region = mmap.mmap(-1, 1 << 20)
MADV_POPULATE_WRITE, PER_LINUX32 = 23, 0x0008
CALLS = {
    "bpf": (321, 0, 0, 0),
    "io_uring_setup": (425, 1, 0),
    "perf_event_open": (298, 0, 0, -1, -1, 0),
    "userfaultfd": (323, 0),
    "keyctl": (250, 0, 0),
    "add_key": (248, 0, 0, 0, 0, 0),
    "clone3": (435, 0, 0),
    "setns": (308, 0, 0),
    "pivot_root": (155, 0, 0),
    "syslog": (103, 3, 0, 0),
    "io_setup": (206, 65536, ctypes.byref(context)),
    "memfd_secret": (447, 0),
    "modify_ldt": (154, 0, table, 16),
    "personality": (135, PER_LINUX32),
    "sysinfo": (99, table),
    "madvise POPULATE_WRITE": (
        28,
        ctypes.c_void_p(ctypes.addressof(ctypes.c_char.from_buffer(region))),
        1 << 20,
        MADV_POPULATE_WRITE,
    ),
}
for name, (number, *arguments) in CALLS.items():
    result = libc.syscall(number, *arguments)
    code = errno.errorcode.get(ctypes.get_errno(), "") if result < 0 else "done"
    print(f"outcome: {name}: {code}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
