"""POSIX message queues as a channel and to starve others. RLIMIT_MSGQUEUE caps the bytes
of the queues of a user: seat 0 makes queues for 1 + its die, and seat 1 counts how many
it can still make, which told seat 0's die (and left it 3 queues of 9) while every jail
of the bot user shared one count."""

import ctypes
import os
import sys

DIE = 3
O_CREAT, O_RDWR = 0o100, 0o2
libc = ctypes.CDLL(None, use_errno=True)
libc.mq_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p]
made = []


def make(count, prefix):
    """Make up to `count` queues (default size); how many were, and why not."""
    for number in range(count):
        name = f"/{prefix}-{os.getpid()}-{number}".encode()
        queue = libc.mq_open(name, O_CREAT | O_RDWR, 0o600, None)
        if queue < 0:
            return number, os.strerror(ctypes.get_errno())
        made.append(queue)
    return count, "no error"


done = False


def act(observation):
    global done
    if not done:
        done = True
        if observation["seat"] == 0:
            count, why = make(1 + DIE, "sender")
            print(f"outcome: sender made: {count} ({why})", file=sys.stderr)
        else:
            count, why = make(40, "receiver")
            print(f"outcome: receiver made: {count} ({why})", file=sys.stderr)
    return observation["legal_actions"][0]
