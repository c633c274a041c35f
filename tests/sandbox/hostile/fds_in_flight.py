"""Descriptors in flight as a channel between jails. The kernel refuses to send one more
descriptor over a unix socket (ETOOMANYREFS) once the sending user has more in flight
than the sender's RLIMIT_NOFILE: seat 0 puts 40 in flight and keeps them there, seat 1
counts how many it can still send."""

import os
import socket
import sys

held = None


def fill(limit):
    """Send /dev/null over a socket pair, never received, up to `limit` times."""
    ends = socket.socketpair()
    null = os.open("/dev/null", os.O_RDONLY)
    for sent in range(limit):
        try:
            socket.send_fds(ends[0], [b"x"], [null])
        except OSError as error:
            return sent, error.strerror, ends
    return limit, "no error", ends


def act(observation):
    global held
    if held is None:
        role, limit = ("sender", 40) if observation["seat"] == 0 else ("receiver", 1000)
        count, why, held = fill(limit)
        print(f"outcome: {role} sent: {count} ({why})", file=sys.stderr)
    return observation["legal_actions"][0]
