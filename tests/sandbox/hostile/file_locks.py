"""Signals across bots with locks on a file every jail shares (a covert channel)."""

import fcntl
import struct
import sys

F_OFD_SETLK = 37
SHARED = "/usr/lib/python3.11/os.py"

with open(SHARED, "rb") as shared, open("/tmp/own", "wb") as own:
    for label, lock in (
        ("flock", lambda: fcntl.flock(shared, fcntl.LOCK_SH | fcntl.LOCK_NB)),
        ("lockf", lambda: fcntl.lockf(own, fcntl.LOCK_EX | fcntl.LOCK_NB)),
        ("ofd", lambda: fcntl.fcntl(shared, F_OFD_SETLK, struct.pack("hhqqi", 0, 0, 0, 0, 0))),
        ("posix", lambda: fcntl.fcntl(shared, fcntl.F_SETLK, struct.pack("hhqqi", 0, 0, 0, 0, 0))),
    ):
        try:
            lock()
            print(f"outcome: {label}: locked", file=sys.stderr)
        except OSError as error:
            print(f"outcome: {label}: {type(error).__name__} {error.errno}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
