"""Thinks on the others' time, in the ways its first observation names, and reports the
CPU seconds each has used.

"thread": a thread that spins; "child": a child process in a session of its own
that spins; "main": the host's main thread itself (`send` is replaced so that
after each reply it spins until the next observation arrives).
"""

import contextlib
import mmap
import os
import select
import struct
import sys
import threading
import time

host = sys.modules["__main__"]
spinning = {"thread": 0.0}
shared = mmap.mmap(-1, 8)
send_reply = host.send
started = False


def spin_thread():
    while True:
        spinning["thread"] = time.thread_time()


def spin_child():
    with contextlib.suppress(PermissionError):  # denied where there are no cgroups
        os.setsid()
    while True:
        shared[:8] = struct.pack("d", time.process_time())


def send_and_think(protocol_out, line):
    send_reply(protocol_out, line)
    while not select.select([protocol_out], [], [], 0)[0]:
        pass  # no observation yet: keep thinking


def start(ways):
    if "thread" in ways:
        threading.Thread(target=spin_thread, daemon=True).start()
    if "child" in ways and os.fork() == 0:
        spin_child()
    if "main" in ways:
        host.send = send_and_think


def act(observation):
    global started
    if not started:
        started = True
        start(observation["ways"])
    return {
        "type": "cpu",
        "thread": spinning["thread"],
        "child": struct.unpack("d", shared[:8])[0],
        "main": time.thread_time(),
    }
