"""The pending-signal quota as a channel between jails. RLIMIT_SIGPENDING counts the
queued signals of a user: seat 0 holds 60,000 + 1,000 x its die of them, and seat 1
counts how many it can still queue, which told seat 0's die while every jail of the
bot user shared one count."""

import ctypes
import os
import signal
import sys

DIE = 3
CAP = 200_000
libc = ctypes.CDLL(None, use_errno=True)


class Value(ctypes.Union):
    _fields_ = [("sival_int", ctypes.c_int), ("sival_ptr", ctypes.c_void_p)]


def queue(count):
    """Queue up to `count` real-time signals to this process; how many were, and why not."""
    pid = os.getpid()
    for done in range(count):
        signal_number = signal.SIGRTMIN + done % (signal.SIGRTMAX - signal.SIGRTMIN + 1)
        if libc.sigqueue(pid, signal_number, Value(sival_int=done)) != 0:
            return done, os.strerror(ctypes.get_errno())
    return count, "no error"


def hold_standard_signals():
    """Standard signals sent with kill() count too, past the limit: hold each once."""
    held = 0
    for number in range(1, 32):
        if number in (signal.SIGKILL, signal.SIGSTOP, signal.SIGCONT):
            continue
        try:
            os.kill(os.getpid(), number)
            held += 1
        except OSError:
            pass
    return held


signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
done = False


def act(observation):
    global done
    if not done:
        done = True
        if observation["seat"] == 0:
            held, why = queue(60_000 + 1_000 * DIE)
            print(f"outcome: sender standard: {hold_standard_signals()}", file=sys.stderr)
            print(f"outcome: sender queued: {held} ({why})", file=sys.stderr)
        else:
            free, why = queue(CAP)
            print(f"outcome: receiver queued: {free} ({why})", file=sys.stderr)
    return observation["legal_actions"][0]
