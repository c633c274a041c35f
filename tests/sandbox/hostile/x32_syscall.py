"""Calls the kernel through the x32 system call table, which a filter for x86-64 might miss."""

import ctypes
import sys

X32_BIT, SYS_GETPID = 0x40000000, 39
print("outcome: calling", file=sys.stderr, flush=True)
result = ctypes.CDLL(None, use_errno=True).syscall(X32_BIT | SYS_GETPID)
print(f"outcome: x32 getpid: {result}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
