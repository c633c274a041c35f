"""Every limit a bot process runs under, in one frozen value."""

from __future__ import annotations

from dataclasses import dataclass

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB


@dataclass(frozen=True, slots=True)
class JailLimits:
    """The limits of one bot process; each has a default fit for a ladder match.

    The rlimits (`address_space_bytes` to `open_files`) are set by the trusted
    host before any bot code runs, jailed or not; soft and hard limits are
    equal, so the bot cannot raise them. The rest are the jail's mounts and
    cgroup, and the runner's own caps on what it reads.
    """

    address_space_bytes: int = 512 * MIB
    """RLIMIT_AS: virtual memory of each process; past it allocations fail."""
    cpu_seconds: int = 600
    """RLIMIT_CPU: CPU time over the whole match; past it the kernel kills the bot."""
    processes: int = 32
    """RLIMIT_NPROC and the pids cgroup: processes and threads, the host included."""
    file_size_bytes: int = 8 * MIB
    """RLIMIT_FSIZE: the largest file a bot may write."""
    open_files: int = 64
    """RLIMIT_NOFILE: open file descriptors per process."""
    pending_signals: int = 0
    """RLIMIT_SIGPENDING: real-time signals a bot may have queued. The count is the bot
    user's, so any room would let one jail tell another how much of it is taken; at 0
    `sigqueue` of a real-time signal fails with EAGAIN, while a standard signal (kill,
    a child's exit, a timer) is delivered as ever, the kernel queueing it past the limit."""
    message_queue_bytes: int = 0
    """RLIMIT_MSGQUEUE: bytes of POSIX message queues; at 0 `mq_open` with O_CREAT fails
    with EMFILE. The count is the bot user's, shared like the one above; no standard
    library module makes a message queue."""
    memory_bytes: int = 512 * MIB
    """The memory cgroup's limit for all the bot's processes and its tmpfs pages."""
    tmp_bytes: int = 16 * MIB
    """Size of the bot's private tmpfs at /tmp."""
    shm_bytes: int = 1 * MIB
    """Size of the bot's private tmpfs at /dev/shm."""
    log_bytes: int = 64 * KIB
    """The stderr ring buffer: `close()` returns at most the last this many bytes."""
    line_bytes: int = 64 * KIB
    """The longest line the runner reads from the bot; longer is an infraction."""
    source_bytes: int = 1 * MIB
    """The largest bot file accepted."""
    startup_seconds: float = 10.0
    """Time for the process to start and import the bot file before `start()` gives up."""

    def rlimits(self) -> dict[str, int]:
        """The rlimits the host sets, by `resource` module name."""
        return {
            "RLIMIT_AS": self.address_space_bytes,
            "RLIMIT_CPU": self.cpu_seconds,
            "RLIMIT_NPROC": self.processes,
            "RLIMIT_FSIZE": self.file_size_bytes,
            "RLIMIT_NOFILE": self.open_files,
            "RLIMIT_CORE": 0,
            "RLIMIT_SIGPENDING": self.pending_signals,
            "RLIMIT_MSGQUEUE": self.message_queue_bytes,
        }
