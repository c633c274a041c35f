"""The jail's policy in one declarative place: what a bot sees and may call.

`bwrap_argv` turns it into a bubblewrap command line and `sandbox.seccomp`
into a BPF filter; docs/sandbox.md explains each line and what it stops.
"""

from __future__ import annotations

import errno
import socket
from dataclasses import dataclass

from sandbox.limits import JailLimits

BWRAP = "/usr/bin/bwrap"
PYTHON = "/usr/bin/python3.11"
"""Debian's interpreter: readable by any user, unlike a pyenv Python under /root."""
PYTHON_FLAGS = ("-I", "-S", "-B", "-X", "utf8")
"""Isolated mode, no site-packages, no .pyc writes, UTF-8 whatever the locale."""
HOST_PATH = "/host/host.py"
MATCH_FILTER_PATH = "/host/match-filter.bpf"
BOT_DIRECTORY = "/bot"
"""Where a jailed bot's `__file__` claims to live (the file itself is sent, not mounted)."""
HOSTNAME = "tavolo"

READ_ONLY_MOUNTS = (
    PYTHON,
    "/usr/lib/python3.11",
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib64",
)
"""Host paths bound read-only at the same place: the runtime, its stdlib and shared libraries.

Neither `/usr/lib/python3/dist-packages` nor `/usr/local` is bound, so no
site-packages or dist-packages exist inside.
"""

SYMLINKS = (("usr/lib", "/lib"), ("usr/lib64", "/lib64"), ("usr/bin", "/bin"))
DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")
"""The only device nodes: no /dev/pts, no tty."""

NAMESPACE_FLAGS = ("--unshare-all", "--unshare-user", "--disable-userns")
"""Every namespace (user, mount, pid, net, ipc, uts, cgroup), and no nested user namespaces."""
PROCESS_FLAGS = ("--die-with-parent", "--new-session", "--cap-drop", "ALL")


@dataclass(frozen=True, slots=True)
class Denial:
    """System calls answered with an error instead of being run."""

    syscalls: tuple[str, ...]
    error: int
    why: str


DENIED = (
    Denial(
        ("ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp"),
        errno.EPERM,
        "reading or steering another process",
    ),
    Denial(("add_key", "request_key", "keyctl"), errno.EPERM, "kernel keyrings, shared per user"),
    Denial(
        ("io_uring_setup", "io_uring_enter", "io_uring_register", "bpf", "perf_event_open"),
        errno.EPERM,
        "large kernel attack surface",
    ),
    Denial(("userfaultfd", "syslog"), errno.EPERM, "stalling the kernel, reading its log"),
    Denial(
        ("mount", "umount2", "pivot_root", "chroot", "setns", "unshare", "mount_setattr"),
        errno.EPERM,
        "new mounts and namespaces",
    ),
    Denial(
        ("open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick"),
        errno.EPERM,
        "new mounts, through the new mount API",
    ),
    Denial(
        ("flock", "inotify_init", "inotify_init1", "fanotify_init"),
        errno.EPERM,
        "covert channels through the read-only files every bot shares",
    ),
    Denial(
        ("fadvise64", "readahead", "mincore", "cachestat", "process_madvise"),
        errno.EPERM,
        "evicting a shared file's pages from the page cache, or asking which are cached",
    ),
    Denial(
        ("io_setup", "io_destroy", "io_submit", "io_cancel", "io_getevents", "io_pgetevents"),
        errno.EPERM,
        "Linux AIO: its contexts count against fs.aio-max-nr, one host-wide number",
    ),
    Denial(
        ("memfd_secret", "modify_ldt", "personality", "sysinfo"),
        errno.EPERM,
        "memory hidden from the kernel, x86 segments, other execution domains, host load",
    ),
    Denial(("timer_create",), errno.EPERM, "a timer sending SIGCONT would wake a paused bot"),
    Denial(("clone3",), errno.ENOSYS, "its flags are out of a filter's reach; libc uses clone"),
)

CLONE_NAMESPACE_FLAGS = (
    0x00020000,  # CLONE_NEWNS
    0x02000000,  # CLONE_NEWCGROUP
    0x04000000,  # CLONE_NEWUTS
    0x08000000,  # CLONE_NEWIPC
    0x10000000,  # CLONE_NEWUSER
    0x20000000,  # CLONE_NEWPID
    0x40000000,  # CLONE_NEWNET
)
"""`clone` with any of these flags is denied (EPERM)."""

FCNTL_DENIED_COMMANDS = {
    "F_GETLK": 5,
    "F_SETLK": 6,
    "F_SETLKW": 7,
    "F_OFD_GETLK": 36,
    "F_OFD_SETLK": 37,
    "F_OFD_SETLKW": 38,
    "F_SETLEASE": 1024,
    "F_GETLEASE": 1025,
    "F_NOTIFY": 1026,
    "F_SETSIG": 10,
}
"""`fcntl` commands denied (EPERM): locks, leases and directory notices (covert channels
between bots), and the choice of signal for I/O events (it could be SIGCONT)."""

SIGCONT = 18
SIGNAL_ARGUMENT = {
    "kill": 1,
    "tkill": 1,
    "tgkill": 2,
    "rt_sigqueueinfo": 1,
    "rt_tgsigqueueinfo": 2,
    "pidfd_send_signal": 1,
}
"""Calls that send a signal, by the index of the signal argument: SIGCONT is denied (EPERM).

Only the runner resumes a paused bot. Where no freezer cgroup pauses it, a bot
could otherwise wake its own stopped processes; a child's exit signal (the
low byte of `clone`'s flags) is checked the same way.
"""
CLONE_EXIT_SIGNAL_MASK = 0xFF

IO_FLAGS_ARGUMENT = {"preadv2": 5, "pwritev2": 5}
"""Calls whose `RWF_*` flags must be 0 (else EPERM): `RWF_NOWAIT` fails with EAGAIN on a
page not cached, a probe of the page cache every jail shares, and `RWF_DONTCACHE` drops
the pages it read."""

MADVISE_DENIED = {
    "MADV_COLD": 20,
    "MADV_PAGEOUT": 21,
    "MADV_POPULATE_READ": 22,
    "MADV_POPULATE_WRITE": 23,
}
"""`madvise` advice denied (EPERM): pushing pages out of memory (the page cache every jail
shares), and populating a mapping in the kernel, which goes on while the bot is frozen."""

SESSION_CALLS = ("setsid", "setpgid")
"""Denied (EPERM) where there are no cgroups and pausing is SIGSTOP: a process group made
by the bot that is orphaned while stopped gets SIGCONT from the kernel."""

TIOCSTI = 0x5412
"""The ioctl that pushes bytes into a terminal's input; denied (EPERM)."""

KEPT_SERVER_CAPABILITIES = ("CAP_SYS_ADMIN", "CAP_SETPCAP")
"""A kept jail's server's capabilities, in the jail's user namespace only (its bounding set
holds these two and nothing else): see `sandbox.host.SERVER_CAPABILITIES`."""

ALLOWED_SOCKET_FAMILY = socket.AF_UNIX
"""`socket` and `socketpair` of any other family are denied (EPERM)."""


def bwrap_argv(
    limits: JailLimits, *, seccomp_fd: int, host_fd: int, match_filter_fd: int | None = None
) -> list[str]:
    """The bubblewrap command that runs the host under `limits`.

    `seccomp_fd` holds the BPF filter and `host_fd` the host script; both are
    read by bwrap once, so each spawn needs fresh descriptors. With a
    `match_filter_fd` (the whole policy's filter) the host is a kept jail's
    server, with `KEPT_SERVER_CAPABILITIES` in the jail's user namespace to make
    each match's namespaces (`sandbox.host.serve_matches`).
    """
    argv = [BWRAP, *NAMESPACE_FLAGS, *PROCESS_FLAGS, "--hostname", HOSTNAME]
    if match_filter_fd is not None:
        for capability in KEPT_SERVER_CAPABILITIES:
            argv += ["--cap-add", capability]
    for path in READ_ONLY_MOUNTS:
        argv += ["--ro-bind", path, path]
    for target, link in SYMLINKS:
        argv += ["--symlink", target, link]
    argv += ["--size", str(64 * 1024), "--tmpfs", "/dev"]
    for device in DEVICES:
        argv += ["--dev-bind", device, device]
    argv += ["--size", str(limits.shm_bytes), "--tmpfs", "/dev/shm"]
    argv += ["--size", str(limits.tmp_bytes), "--tmpfs", "/tmp"]
    argv += ["--perms", "0444", "--ro-bind-data", str(host_fd), HOST_PATH]
    if match_filter_fd is not None:
        argv += ["--perms", "0444", "--ro-bind-data", str(match_filter_fd), MATCH_FILTER_PATH]
    argv += ["--remount-ro", "/dev", "--remount-ro", "/", "--chdir", "/tmp"]
    argv += ["--seccomp", str(seccomp_fd), "--", PYTHON, *PYTHON_FLAGS, HOST_PATH]
    return argv
