"""Looks for what an earlier bot of its jail left, then leaves all it can for a later one.

It reports its pid, the files in /tmp and /dev/shm, /tmp's mode, times and
extended attributes, a System V shared memory segment and a POSIX message
queue by fixed names, and a module global; then it leaves each of those, and
starts 40 processes and a sleeper in a session of its own, to move the pid
counter and outlive its match.
"""

import ctypes
import os
import sys
import time

MARKER = "tavolo-hostile-traces"
SHM_KEY = 0x7A50_1E57
MQ_OPEN, O_CREAT, O_RDWR = 240, 0o100, 2
libc = ctypes.CDLL(None, use_errno=True)
visits = 0


def report():
    tmp = os.stat("/tmp")
    found = {
        "pid": os.getpid(),
        "tmp": sorted(os.listdir("/tmp")),
        "shm": sorted(os.listdir("/dev/shm")),
        "tmp mode": oct(tmp.st_mode),
        "tmp old": tmp.st_mtime < 1_000_000,
        "tmp xattrs": os.listxattr("/tmp"),
        "sysv shm": libc.shmget(SHM_KEY, 4096, 0) >= 0,
        "mqueue": libc.syscall(MQ_OPEN, b"tavolo-traces", O_RDWR, 0, None) >= 0,
        "visits": visits,
    }
    for label, value in found.items():
        print(f"outcome: {label}: {value}", file=sys.stderr)


def leave():
    global visits
    visits += 1
    for folder in ("/tmp", "/dev/shm"):
        for number in range(20):
            with open(f"{folder}/trace-{number}", "w") as trace:
                trace.write(MARKER)
    os.setxattr("/tmp", "user.trace", MARKER.encode())
    os.chmod("/tmp", 0o711)
    os.utime("/tmp", (12345, 12345))
    libc.shmget(SHM_KEY, 4096, 0o1000 | 0o600)
    libc.syscall(MQ_OPEN, b"tavolo-traces", O_CREAT | O_RDWR, 0o600, None)
    for _ in range(40):
        child = os.fork()
        if child == 0:
            os._exit(0)
        os.waitpid(child, 0)
    if os.fork() == 0:
        os.setsid()
        sleeper = f"import time; time.sleep(600)  # {MARKER}"
        os.execv(sys.executable, [sys.executable, "-c", sleeper])
    time.sleep(0.1)  # the sleeper is started before the match can end


report()
leave()


def act(observation):
    return observation["legal_actions"][0]
