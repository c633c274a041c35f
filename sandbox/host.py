"""Three programs in one file: the bot host, a kept jail's server, the unjailed server.

This file travels into the jail as one file (the runner hands it to bwrap
as /host/host.py, `sandbox.processes.HOST_FILE`), so the three programs that
run there share it, and it imports only the standard library. Which one runs
is chosen at the bottom, in ``__main__``:

1. **The bot host** (`bot_host`), ``python3 -I -S host.py``: runs one bot file
   and answers the runner in JSON lines, in a jail of its own or unjailed.
2. **A kept jail's server** (`kept_jail_server`), when the jail holds
   `MATCH_FILTER`: forks, for each match of its bot, a child in new
   namespaces whose pid 2 becomes the bot host (`sandbox.kept` drives it).
3. **The unjailed server** (`unjailed_server`), ``host.py --serve``: forks a
   fresh bot host for each unjailed bot (`sandbox.unjailed` drives it).

The bot host's protocol is in docs/wire-protocol.md; in short:

1. the runner's first line is ``{"type": "load", "source_base64": ..., "filename": ...,
   "rlimits": {...}, "cpu": n}``; the host moves to CPU `n` (the runner's, if given)
   and sets the rlimits (before any bot code runs), imports
   the source as the module ``bot`` and answers ``{"type": "ready", "api_version": 1}``,
   or prints the traceback to stderr and exits with `EXIT_LOAD_FAILED`;
2. then each line is an observation whose ``history`` holds only the events from
   index ``history_start`` on; the host rebuilds the full list, calls
   ``act(observation)`` and answers ``{"type": "action", "action": ...}``, or
   ``{"type": "error", "error": "..."}`` if `act` raised or its result is not JSON.

The lines travel over a unix socket received on stdin (see
`take_protocol_socket`). The bot's own `print` and writes to file descriptor
1 go to stderr, and its stdin reads /dev/null: only the host speaks the
protocol.

The host starts inside every jail, so it imports only what it cannot do
without: the C parts of `json` (the `json` package brings `re` and `enum`,
half the host's start), and `traceback` and the bot's source text only when
a traceback is printed.
"""

from __future__ import annotations

import _json
import _socket
import binascii
import os
import resource
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, BinaryIO, NoReturn

API_VERSION = 1
EXIT_LOAD_FAILED = 2
"""The bot file raised on import or defines no callable `act`."""
EXIT_OUT_OF_MEMORY = 3
"""The bot raised MemoryError: it broke its address-space limit."""
RESERVE_BYTES = 4 * 1024 * 1024
"""Address space held back from the bot (mapped, never touched) and given up to report a
MemoryError: the traceback module and the bot's source lines need some."""
ERROR_TEXT_CHARS = 500
"""An error reply keeps this much of the exception's text."""
FD_BYTES = 4
READ_BUFFER_BYTES = 64 * 1024
ModuleType = type(sys)


# Program 1: the bot host.


class LoadError(Exception):
    """The bot file cannot be used."""


def take_protocol_socket() -> tuple[BinaryIO, int]:
    """Receive the protocol socket over stdin; then stdin reads /dev/null and stdout is stderr.

    The runner sends the socket as SCM_RIGHTS over a control socket on stdin,
    so that no wrapper process between runner and host holds it.
    """
    control = _socket.socket(fileno=0)
    _, ancillary, _, _ = control.recvmsg(1, _socket.CMSG_SPACE(FD_BYTES))
    control.close()
    (level, kind, data), *_ = ancillary
    if (level, kind) != (_socket.SOL_SOCKET, _socket.SCM_RIGHTS):
        raise RuntimeError("expected the protocol socket on stdin")
    protocol = int.from_bytes(data[:FD_BYTES], sys.byteorder)
    null = os.open(os.devnull, os.O_RDONLY)
    if null != 0:
        os.dup2(null, 0)
        os.close(null)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(protocol, "rb", buffering=READ_BUFFER_BYTES), protocol


class _ScanOptions:
    """What `_json`'s scanner reads its options from (as `json.JSONDecoder` sets them)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = None
    memo: dict[str, Any] = {}


_scan = _json.make_scanner(_ScanOptions())  # type: ignore[arg-type]  # typeshed wants a scanner


def decode(line: bytes) -> Any:
    """The JSON value of one of the runner's lines (`json.loads`, without its imports)."""
    text = line.decode().strip()
    try:
        value, end = _scan(text, 0)
    except StopIteration:
        raise ValueError(f"not JSON: {text[:80]!r}") from None
    if end != len(text):
        raise ValueError(f"more than one JSON value: {text[:80]!r}")
    return value


def _not_json(value: object) -> None:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def encode(message: dict[str, Any]) -> bytes:
    """One protocol line; raises ValueError or TypeError for what JSON cannot hold
    (as `json.dumps(message, separators=(",", ":"), allow_nan=False)`)."""
    # a fresh map of the containers being encoded each time, for the circular check
    encoder = _json.make_encoder(
        {}, _not_json, _json.encode_basestring_ascii, None, ":", ",", False, False, False
    )
    return "".join(encoder(message, 0)).encode() + b"\n"


def print_traceback() -> None:
    """The traceback of the exception being handled, to stderr; best effort, since it may
    come when no memory is left."""
    try:
        import traceback

        traceback.print_exc()
    except BaseException:
        pass  # nothing left to report it with


def send(protocol_out: int, line: bytes) -> None:
    """Write one protocol line whole."""
    while line:
        line = line[os.write(protocol_out, line) :]


def share_cpu(cpu: int | None) -> None:
    """Run on the runner's CPU, where handing a turn over is cheapest; best effort."""
    if cpu is None:
        return
    try:  # noqa: SIM105 - contextlib is an import the host does without
        os.sched_setaffinity(0, {cpu})
    except (OSError, ValueError, TypeError):
        pass


AUDIT_ARCH_X86_64, NR_SCHED_SETAFFINITY = 0xC000003E, 203
BPF_LD_W_ABS, BPF_JEQ_K, BPF_RET_K = 0x20, 0x15, 0x06
SECCOMP_RET_ERRNO_EPERM, SECCOMP_RET_ALLOW = 0x00050001, 0x7FFF0000
PLACEMENT_FILTER = [
    (BPF_LD_W_ABS, 0, 0, 4),  # the architecture
    (BPF_JEQ_K, 0, 3, AUDIT_ARCH_X86_64),  # another: the jail's filter has judged it
    (BPF_LD_W_ABS, 0, 0, 0),  # the system call's number
    (BPF_JEQ_K, 0, 1, NR_SCHED_SETAFFINITY),
    (BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO_EPERM),
    (BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW),
]
"""Stacked by a jailed host once it sits on the runner's CPU: sched_setaffinity is EPERM
from then on, so the bot stays on the CPU its match claimed (`sandbox.affinity`)."""


def deny_placement() -> None:
    """Load `PLACEMENT_FILTER` (the jail has set no_new_privs); exit if the kernel refuses."""
    import ctypes
    import struct

    program = b"".join(struct.pack("<HBBI", *instruction) for instruction in PLACEMENT_FILTER)
    load_filter(ctypes.CDLL(None, use_errno=True), program)


def set_rlimits(rlimits: dict[str, int], extra_processes: int = 0) -> None:
    """Apply each limit as both soft and hard, so the bot can lower but never raise it.

    `extra_processes` more count towards RLIMIT_NPROC: processes of the bot's user
    that are not the bot's (a kept jail's server and match init).
    """
    for name, value in rlimits.items():
        if name == "RLIMIT_NPROC":
            value += extra_processes
        resource.setrlimit(getattr(resource, name), (value, value))


class BotSource:
    """The bot module's loader, as far as tracebacks need one: its file is nowhere to
    be read, so `linecache` asks here for its lines, when a traceback shows them."""

    def __init__(self, source: bytes) -> None:
        self._source = source

    def get_source(self, name: str) -> str:
        from importlib.util import decode_source

        return decode_source(self._source)


def load_bot(source: bytes, filename: str) -> Callable[[dict[str, Any]], Any]:
    """Run the bot file as the module ``bot`` and return its `act`."""
    module = ModuleType("bot")
    module.__file__ = filename
    vars(module)["__loader__"] = BotSource(source)
    sys.modules["bot"] = module
    # compile reads the source's encoding declaration itself (PEP 263)
    exec(compile(source, filename, "exec", dont_inherit=True), module.__dict__)
    act: Callable[[dict[str, Any]], Any] | None = getattr(module, "act", None)
    if not callable(act):
        raise LoadError(f"{filename} defines no callable act(observation)")
    return act


_reserve: Any = None
"""`RESERVE_BYTES` of address space, mapped by `play` before it loads the bot."""


def exit_out_of_memory() -> NoReturn:
    """Give the reserve up, print the MemoryError's traceback, exit."""
    if _reserve is not None:
        _reserve.close()
    print_traceback()
    os._exit(EXIT_OUT_OF_MEMORY)


def describe(error: BaseException) -> str:
    """``Type: text``, cut to `ERROR_TEXT_CHARS`."""
    try:
        text = str(error)
    except Exception:
        text = "(unprintable)"
    return f"{type(error).__name__}: {text}"[:ERROR_TEXT_CHARS]


def answer(act: Callable[[dict[str, Any]], Any], observation: dict[str, Any]) -> bytes:
    """The reply line to one observation: the action, or the error that stopped it."""
    try:
        return encode({"type": "action", "action": act(observation)})
    except MemoryError:
        exit_out_of_memory()
    except Exception as error:
        print_traceback()
        return encode({"type": "error", "error": describe(error)})


def serve(protocol_in: BinaryIO, protocol_out: int, act: Callable[[dict[str, Any]], Any]) -> None:
    """Answer observations until the runner closes stdin."""
    history: list[Any] = []
    for line in protocol_in:
        observation = decode(line)
        start = observation.pop("history_start", 0)
        del history[start:]
        history.extend(observation["history"])
        observation["history"] = history
        reply = answer(act, observation)
        sys.stderr.flush()  # what the bot printed reaches its log before the reply
        send(protocol_out, reply)


def bot_host() -> None:
    """Program 1, started for one bot: its protocol socket comes on stdin."""
    protocol_in, protocol_out = take_protocol_socket()
    play(protocol_in, protocol_out)


def play(protocol_in: BinaryIO, protocol_out: int, extra_processes: int = 0) -> None:
    """Load the bot from the runner's first line and answer until the runner closes."""
    load = decode(protocol_in.readline())
    share_cpu(load.get("cpu"))
    if load.get("hold_cpu"):
        deny_placement()
    set_rlimits(load["rlimits"], extra_processes)
    global _reserve
    import mmap

    _reserve = mmap.mmap(-1, RESERVE_BYTES)
    try:
        act = load_bot(binascii.a2b_base64(load["source_base64"]), load["filename"])
    except MemoryError:
        exit_out_of_memory()
    except BaseException as error:
        if isinstance(error, LoadError):
            print(f"{type(error).__name__}: {error}", file=sys.stderr)
        else:
            print_traceback()
        sys.stderr.flush()
        os._exit(EXIT_LOAD_FAILED)
    send(protocol_out, encode({"type": "ready", "api_version": API_VERSION}))
    serve(protocol_in, protocol_out, act)
    sys.stderr.flush()
    os._exit(0)


# Program 2: a kept jail's server.

CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWIPC = 0x20000, 0x20000000, 0x08000000
MATCH_NAMESPACES = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC
"""The only `unshare` flags a kept jail's server may pass (its seccomp filter checks)."""
MS_NOSUID, MS_NODEV = 2, 4
MATCH_MOUNT_FLAGS = MS_NOSUID | MS_NODEV
"""The only `mount` flags it may pass: a new tmpfs, as bwrap mounts one; never a bind,
a move, a remount or a change of propagation."""
CAP_SETPCAP, CAP_SYS_ADMIN = 8, 21
SERVER_CAPABILITIES = (CAP_SETPCAP, CAP_SYS_ADMIN)
"""What bwrap gives a kept jail's server, in the jail's user namespace: CAP_SYS_ADMIN to
make a match's namespaces and mounts, CAP_SETPCAP for the match to empty its bounding set."""
PR_SET_DUMPABLE, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 4, 22, 2
PR_CAPBSET_DROP, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4
CAPABILITY_VERSION_3 = 0x20080522
MATCH_FILTER = "/host/match-filter.bpf"
STATUS_BYTES = 4


def set_capabilities(libc: Any, held: int) -> None:
    """Hold exactly the capabilities of mask `held` (of the first 32), effective and
    permitted, and none inheritable or ambient; exit if the kernel refuses."""
    import ctypes

    header = (ctypes.c_uint32 * 2)(CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)(held, held, 0, 0, 0, 0)
    if libc.capset(header, data) != 0:
        os._exit(1)
    if libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0:
        os._exit(1)


def load_filter(libc: Any, program: bytes) -> None:
    """Stack the BPF `program` on the filters already loaded; exit if the kernel refuses."""
    import ctypes

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = SockFprog(len(program) // 8, ctypes.addressof(buffer))
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        os._exit(1)


def serve_matches() -> tuple[int, int, int]:
    """A kept jail's server: for each request a fresh match child, never bot code here.

    Returns only in a match's host, with what `become_host` needs, so that what
    the bot raises ends the host as it ends a host run by `bot_host`.

    Each request is a line ``tmp_bytes shm_bytes`` with three descriptors: the
    protocol socket, the stderr pipe and a status pipe. The server forks a
    child that starts a session of its own and makes new pid, mount and IPC
    namespaces; there the match's init (pid 1) mounts a fresh /tmp and
    /dev/shm, gives up every capability, loads the match filter on top of the
    jail's, forks the host (pid 2), waits for it and writes its wait status to
    the status pipe; the host plays as `bot_host` does. The server answers ``f``
    once it has forked.
    """
    import ctypes
    import signal

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    # bwrap raises what it adds in every set, ambient and inheritable too: keep it
    # effective and permitted only, so that nothing passes through an exec
    set_capabilities(libc, sum(1 << each for each in SERVER_CAPABILITIES))
    with open(MATCH_FILTER, "rb") as program:
        match_filter = program.read()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # its children are reaped by the kernel
    control = _socket.socket(fileno=0)
    while True:
        message, fds = receive_match(control)
        tmp_bytes, shm_bytes = (int(word) for word in message.split())
        if os.fork() == 0:
            control.close()
            return _match(libc, match_filter, fds, tmp_bytes, shm_bytes)
        for fd in fds:
            os.close(fd)
        control.send(b"f")


def _match(
    libc: Any, match_filter: bytes, fds: list[int], tmp_bytes: int, shm_bytes: int
) -> tuple[int, int, int]:
    """The match's session, namespaces and init, and (returned in it alone) its host."""
    import ctypes
    import signal

    protocol, stderr, status = fds
    os.setsid()  # a signal to the bot's process group or session never reaches the server
    if libc.unshare(MATCH_NAMESPACES) != 0:
        os._exit(1)
    if os.fork() != 0:
        os._exit(0)
    # The init waits for the host, and keeps no handler a bot's signal could run: a
    # namespace's pid 1 gets from inside only the signals it handles.
    for number in (signal.SIGCHLD, signal.SIGINT):
        signal.signal(number, signal.SIG_DFL)
    for target, size in ((b"/tmp", tmp_bytes), (b"/dev/shm", shm_bytes)):
        options = f"size={size},mode=0755".encode()
        if libc.mount(b"tmpfs", target, b"tmpfs", ctypes.c_ulong(MATCH_MOUNT_FLAGS), options) != 0:
            os._exit(1)
    os.chdir("/tmp")
    # From here the init is as powerless as the bot: no capability in any set (the
    # bounding set emptied with CAP_SETPCAP, the others by capset), the bot's filter.
    for capability in SERVER_CAPABILITIES:
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            os._exit(1)
    set_capabilities(libc, 0)
    load_filter(libc, match_filter)
    host = os.fork()
    if host == 0:
        return protocol, stderr, status
    os.close(protocol)
    os.close(stderr)
    report_host(host, status)


def become_host(protocol: int, stderr: int, status: int) -> None:
    """In the match's pid 2, which holds nothing its init gave up: the bot's descriptors; play."""
    take_descriptors(stderr, status)
    # the server and the match's init are the jail's processes of the bot's user
    play(os.fdopen(protocol, "rb", buffering=READ_BUFFER_BYTES), protocol, 2)


def kept_jail_server() -> None:
    """Program 2, a kept jail's: serve matches; in each match's pid 2, be its bot host."""
    become_host(*serve_matches())


# What both servers share.


def take_descriptors(stderr: int, status: int) -> None:
    """A forked host's standard descriptors: stdin reads /dev/null (fd 0 was its server's
    socket), stdout and stderr write to the match's stderr pipe; the status pipe is closed."""
    os.close(status)
    null = os.open(os.devnull, os.O_RDONLY)
    if null != 0:
        os.dup2(null, 0)
        os.close(null)
    os.dup2(stderr, 2)
    os.dup2(stderr, 1)
    os.close(stderr)
    sys.stdout = sys.stderr


def receive_match(control: Any) -> tuple[bytes, list[int]]:
    """The runner's next request: its words and its three descriptors (protocol socket,
    stderr pipe, status pipe); the server exits when the runner closes."""
    message, ancillary, _, _ = control.recvmsg(64, _socket.CMSG_SPACE(3 * FD_BYTES))
    if not message:
        os._exit(0)
    (_, _, data), *_ = ancillary
    return message, [int.from_bytes(data[i : i + FD_BYTES], sys.byteorder) for i in (0, 4, 8)]


def report_host(host: int, status: int, *, linger: bool = False) -> NoReturn:
    """Wait for the host to end, write its wait status, exit.

    Without `linger`, the host is reaped with whatever ended before it. With
    `linger`, exit only once the runner has closed the status pipe, leaving the
    host unreaped until then: the runner signals this process's session and the
    host's group by their numbers, which must not be another's meanwhile.
    """
    import select

    # Wait on a pidfd, woken only by the host's exit: a process waiting in waitpid is woken
    # each time its child is stopped or continued, twice a decision for a paused bot.
    exited = select.poll()
    exited.register(os.pidfd_open(host), select.POLLIN)
    exited.poll()
    if linger:
        ended = os.waitid(os.P_PID, host, os.WEXITED | os.WNOWAIT)
        assert ended is not None  # None only with WNOHANG
        code = wait_status(ended)
    else:
        while True:
            pid, code = os.waitpid(-1, 0)
            if pid == host:
                break
    send(status, code.to_bytes(STATUS_BYTES, "little", signed=True))
    if linger:
        closed = select.poll()
        closed.register(status, 0)  # a pipe's writer gets POLLERR once its reader is closed
        closed.poll()
    os._exit(0)


def wait_status(ended: os.waitid_result) -> int:
    """The `waitpid` status of a child that `waitid` found ended."""
    if ended.si_code == os.CLD_EXITED:
        return (ended.si_status & 0xFF) << 8
    return ended.si_status | (0x80 if ended.si_code == os.CLD_DUMPED else 0)


# Program 3: the unjailed server.


def serve_local() -> int:
    """An unjailed server (``host.py --serve``): for each request a fresh host.

    Each match gets a session of its own, whose leader forks the host into a
    process group of its own (which the runner pauses), writes the host's pid
    on the status pipe, waits for the host and writes its wait status; the
    server answers with that leader's pid (the session, which the runner
    kills). Returns only in a match's host, its protocol socket.
    """
    import signal

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # its children are reaped by the kernel
    control = _socket.socket(fileno=0)
    while True:
        _, (protocol, stderr, status) = receive_match(control)
        leader = os.fork()
        if leader == 0:
            control.close()
            os.setsid()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            host = os.fork()
            if host == 0:
                take_descriptors(stderr, status)
                del sys.argv[1:]
                return protocol
            # The runner pauses the host's own process group, which leaves this waiter asleep.
            os.setpgid(host, host)
            send(status, host.to_bytes(STATUS_BYTES, "little", signed=True))
            os.close(protocol)
            os.close(stderr)
            report_host(host, status, linger=True)
        for fd in (protocol, stderr, status):
            os.close(fd)
        control.send(leader.to_bytes(STATUS_BYTES, "little"))


def unjailed_server() -> None:
    """Program 3: serve unjailed bots; in each forked host, be its bot host."""
    served = serve_local()
    play(os.fdopen(served, "rb", buffering=READ_BUFFER_BYTES), served)


if __name__ == "__main__":
    if os.path.exists(MATCH_FILTER):  # only a kept jail has it
        kept_jail_server()
    elif sys.argv[1:] == ["--serve"]:
        unjailed_server()
    else:
        bot_host()
