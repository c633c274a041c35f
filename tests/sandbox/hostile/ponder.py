"""Thinks on the others' time three ways, and reports the CPU seconds each has used.

A thread that spins, a child process in a session of its own that spins, and
the host's main thread itself: `send` is replaced so that after each reply the
main thread spins until the next observation arrives.
"""

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


def spin_thread():
    while True:
        spinning["thread"] = time.thread_time()


def spin_child():
    os.setsid()
    while True:
        shared[:8] = struct.pack("d", time.process_time())


threading.Thread(target=spin_thread, daemon=True).start()
if os.fork() == 0:
    spin_child()
send_reply = host.send


def send_and_think(protocol_out, line):
    send_reply(protocol_out, line)
    while not select.select([protocol_out], [], [], 0)[0]:
        pass  # no observation yet: keep thinking


host.send = send_and_think


def act(observation):
    return {
        "type": "cpu",
        "thread": spinning["thread"],
        "child": struct.unpack("d", shared[:8])[0],
        "main": time.thread_time(),
    }
