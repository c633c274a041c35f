"""Tries every fast way to evict a shared file's pages from the page cache or to ask
which are cached: the two halves of a channel between jails that share the stdlib."""

import ctypes
import mmap
import os
import sys

SHARED = "/usr/lib/python3.11/os.py"
SYS_CACHESTAT, SYS_READAHEAD, SYS_PROCESS_MADVISE, SYS_PIDFD_OPEN = 451, 187, 440, 434
MADV_COLD, MADV_PAGEOUT, MADV_POPULATE_READ = 20, 21, 22
RWF_NOWAIT, RWF_DONTCACHE = 0x8, 0x80
libc = ctypes.CDLL(None, use_errno=True)


def report(label, attempt):
    try:
        attempt()
        print(f"outcome: {label}: done", file=sys.stderr)
    except OSError as error:
        print(f"outcome: {label}: {type(error).__name__} {error.errno}", file=sys.stderr)


def syscall(*arguments):
    if libc.syscall(*arguments) < 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))


descriptor = os.open(SHARED, os.O_RDONLY)
mapping = mmap.mmap(descriptor, 0, access=mmap.ACCESS_COPY)
address = ctypes.addressof(ctypes.c_char.from_buffer(mapping))
report("fadvise DONTNEED", lambda: os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED))
report("preadv2 RWF_NOWAIT", lambda: os.preadv(descriptor, [bytearray(4096)], 0, RWF_NOWAIT))
report("preadv2 RWF_DONTCACHE", lambda: os.preadv(descriptor, [bytearray(4096)], 0, RWF_DONTCACHE))
report("madvise PAGEOUT", lambda: mapping.madvise(MADV_PAGEOUT))
report("madvise COLD", lambda: mapping.madvise(MADV_COLD))
report("madvise POPULATE_READ", lambda: mapping.madvise(MADV_POPULATE_READ))
report("readahead", lambda: syscall(SYS_READAHEAD, descriptor, ctypes.c_long(0), 4096))
vector = (ctypes.c_ubyte * 64)()
report("mincore", lambda: syscall(27, ctypes.c_void_p(address), 4096, vector))
report("cachestat", lambda: syscall(SYS_CACHESTAT, descriptor, vector, vector, 0))
span = (ctypes.c_size_t * 2)(address, 4096)
pidfd = libc.syscall(SYS_PIDFD_OPEN, os.getpid(), 0)
report("process_madvise", lambda: syscall(SYS_PROCESS_MADVISE, pidfd, span, 1, MADV_PAGEOUT, 0))


def act(observation):
    return observation["legal_actions"][0]
