"""Reads another process's memory directly with process_vm_readv."""

import ctypes
import errno
import sys


class IoVector(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("length", ctypes.c_size_t)]


libc = ctypes.CDLL(None, use_errno=True)
buffer = ctypes.create_string_buffer(64)
local = IoVector(ctypes.cast(buffer, ctypes.c_void_p), 64)
remote = IoVector(0x400000, 64)
for label, pid in (("pid 1", 1), ("self", 0)):
    result = libc.process_vm_readv(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)
    code = errno.errorcode.get(ctypes.get_errno(), "") if result < 0 else "read"
    print(f"outcome: {label}: {code}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
