"""Bot files as `BotHandle`s: each in its own process, jailed unless asked otherwise.

`open_file_bot` is the entry point the `tavolo` command line and the platform
use (registered as the `tavolo.file_bots` entry point). The handle speaks
docs/wire-protocol.md with `sandbox/host.py`; every failure a bot can cause
comes back as a `Fault` or a crash reason, never as an exception. A jailed
bot gets a match in its kept jail (`sandbox.kept`), or a new jail from the
warm pool where cgroups are missing or `TAVOLO_KEPT_JAILS=0` asks for one.
"""

from __future__ import annotations

import logging
import os
import signal
import stat
import time
from pathlib import Path

from arena.bots.handle import Answer, BotHandle, Fault
from arena.engine import JSON
from arena.units import seconds_text
from sandbox import affinity, wire
from sandbox.channel import LineChannel, Outcome
from sandbox.host import EXIT_LOAD_FAILED, EXIT_OUT_OF_MEMORY
from sandbox.jail import JailUnavailableError, jail_available, require_jail
from sandbox.kept import ProcessKind, kept_jails, process_kind
from sandbox.limits import JailLimits
from sandbox.policy import BOT_DIRECTORY
from sandbox.pool import ProcessPool, shared_pool
from sandbox.processes import BotProcess
from sandbox.unjailed import unjailed_server

__all__ = [
    "BotFileError",
    "JailLimits",
    "JailUnavailableError",
    "ProcessBot",
    "jail_available",
    "open_file_bot",
]

log = logging.getLogger(__name__)
"""Jail events carry ``extra={"jail_event": ...}``, which the platform counts (docs/sandbox.md)."""

UNSOLICITED = "unsolicited output: the bot wrote a line the runner did not ask for"
BROKE_PAUSE = "the bot started a process as it was being paused"


class BotFileError(ValueError):
    """The bot file cannot be used: not a regular file, a symbolic link, or too large."""


def read_bot_file(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The file's bytes, read without following a symbolic link."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        if os.path.islink(path):
            raise BotFileError(f"{path} is a symbolic link; give the file itself") from error
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise BotFileError(f"{path} is not a regular file")
    with open(fd, "rb") as file:
        source = file.read(max_bytes + 1)
    if len(source) > max_bytes:
        raise BotFileError(f"{path} is larger than {max_bytes} bytes")
    return source


def open_file_bot(
    path: str | os.PathLike[str],
    *,
    name: str | None = None,
    jail: bool = True,
    limits: JailLimits | None = None,
    process: ProcessKind | None = None,
) -> BotHandle:
    """A handle on the bot in `path`, run jailed (the default) or in a plain process.

    `process` says how its process is started; by default as this machine and
    ``TAVOLO_KEPT_JAILS`` allow (`sandbox.kept.process_kind`), read here, once.
    Raises `JailUnavailableError` if `jail` is asked for and cannot be built,
    and `BotFileError` or `OSError` if the file cannot be read.
    """
    limits = limits or JailLimits()
    if jail:
        require_jail()
    process = process or process_kind(jail=jail)
    if process.jailed != jail:
        raise ValueError(f"a bot {'jailed' if jail else 'not jailed'} cannot use a {process.value}")
    source = read_bot_file(path, limits.source_bytes)
    filename = f"{BOT_DIRECTORY}/{Path(path).name}" if jail else str(Path(path).resolve())
    return ProcessBot(name or Path(path).stem, source, filename, process=process, limits=limits)


def load_failure_reason(last_log_line: str) -> str:
    """The crash reason of a bot that failed to load, naming only the error's kind.

    Crash reasons are public (they are in every replay) while a bot's log is its
    owner's alone, so the reason never quotes the log: the traceback stays there.
    """
    kind, _, message = last_log_line.partition(":")
    if kind == "LoadError" and "no callable act" in message:
        return "the bot file defines no callable act(observation)"
    if kind.isidentifier():
        return f"the bot file failed to load ({kind}); the traceback is in its log"
    return "the bot file failed to load; see its log"


class ProcessBot:
    """A bot file running in its own process and answering over the wire protocol."""

    def __init__(
        self, name: str, source: bytes, filename: str, *, process: ProcessKind, limits: JailLimits
    ) -> None:
        self.name = name
        self.limits = limits
        self._source = source
        self._filename = filename
        self._kind = process
        self._jail = process.jailed
        self._process: BotProcess | None = None
        self._channel: LineChannel | None = None
        self._crash: str | None = None
        self._paused = False
        self._late = 0
        """Observations that timed out and whose replies, when they come, are dropped."""
        self._history_sent = 0
        self._log = ""
        self._log_taken = 0
        """Bytes of the log already handed out by `take_log`."""
        self._cpu: int | None = None
        """The CPU shared with the runner's thread (see `sandbox.affinity`), once started."""

    def start(self) -> str | None:
        """Start the process and load the bot; leave it paused. Return a crash reason or None.

        Raises OSError only if no process can be started at all: a fault of this
        machine, not of the bot, so the match is not played rather than lost.
        """
        deadline = time.monotonic() + self.limits.startup_seconds
        process = self._take_process()
        self._cpu = affinity.join()  # after `take`, whose keeper thread must not inherit the pin
        self._process = process
        self._channel = channel = LineChannel(
            protocol=process.protocol,
            stderr=process.stderr,
            line_bytes=self.limits.line_bytes,
            log_bytes=self.limits.log_bytes,
        )
        rlimits = self.limits.rlimits()
        if not self._jail:
            del rlimits["RLIMIT_NPROC"]  # it would count every process of the user
        try:
            load = wire.load_line(
                self._source, self._filename, rlimits, self._cpu, hold_cpu=self._jail
            )
            sent = channel.send(load, deadline)
        except BrokenPipeError:
            sent = True  # the process is gone: reading says how
        line = channel.read_line(deadline) if sent else Outcome.TIMEOUT
        reason: str | None
        if line is Outcome.TIMEOUT:
            reason = f"the bot did not start within {seconds_text(self.limits.startup_seconds)}"
        elif line is Outcome.CLOSED:
            reason = self._exit_reason()
        elif line is Outcome.TOO_LONG:
            reason = "the bot's first line is too long"
        else:
            reason = wire.parse_ready(line)
        if reason is not None:
            return self._crashed(reason)
        channel.drain_log()
        self._log_taken = channel.log.written  # what it printed loading is no decision's
        self.pause()
        return None

    def _take_process(self) -> BotProcess:
        """The process its `ProcessKind` names: from the warm pool (a jail with this bot's
        limits, or an unjailed host), or forked by a server: the unjailed one
        (`sandbox.unjailed`), or a kept jail's (`sandbox.kept`), in the jail kept for this
        bot or a blank one from the pool."""
        if self._kind is ProcessKind.UNJAILED_SERVER:
            return unjailed_server().match()
        if self._kind is ProcessKind.UNJAILED_HOST:
            return shared_pool().take(None)
        pool = shared_pool()
        process: BotProcess
        try:
            if self._kind is ProcessKind.KEPT_JAIL:
                process = self._kept_match(pool)
            else:
                process = pool.take(self.limits)
        except OSError as error:
            log.error("a jail did not start: %s", error, extra={"jail_event": "start_failed"})
            raise
        log.debug(
            "bot %s: its jail started (%s)",
            self.name,
            self._kind.value,
            extra={"jail_event": "start"},
        )
        return process

    def _kept_match(self, pool: ProcessPool) -> BotProcess:
        """A match in this bot's kept jail (or a blank one, or a new one); if no kept jail
        starts, a new jail of its own, as without kept jails."""
        try:
            process: BotProcess = kept_jails().match(
                self._source, self.limits, blank=lambda: pool.take_kept(self.limits)
            )
        except OSError as error:
            log.warning(
                "a kept jail did not start (%s): the bot gets a new jail instead",
                error,
                extra={"jail_event": "fallback"},
            )
            return pool.take(self.limits)
        pool.running(process)
        return process

    def decide(self, observation: JSON, timeout: float) -> Answer:
        """Send the observation and read the reply, all within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        if self._crash is not None:
            return Fault(self._crash, crash=True)
        if self._channel is None:
            return Fault("the bot was not started", crash=True)
        was_paused = self._paused
        if was_paused and self._process is not None and self._process.broke_pause():
            return Fault(self._crashed(BROKE_PAUSE), crash=True)
        try:
            answer = self._exchange(observation, deadline, timeout)
        except BrokenPipeError:
            answer = Fault(self._crashed("the bot stopped reading its input"), crash=True)
        if self._crash is None:
            self._channel.drain_log()
        if was_paused:
            self.pause()
        return answer

    def take_log(self) -> str:
        """What the bot printed since the last call (the host flushes it before each reply)."""
        if self._channel is None:
            return ""
        log = self._channel.log
        if log.written == self._log_taken:
            return ""
        text = log.since(self._log_taken)
        self._log_taken = log.written
        return text

    def pause(self) -> None:
        if self._process is not None and self._crash is None and not self._paused:
            self._process.pause()
            self._paused = True

    def resume(self) -> None:
        if self._process is not None and self._paused:
            self._process.resume()
            self._paused = False

    def close(self) -> str:
        """Kill the bot's every process and return its log (the last `log_bytes` of stderr)."""
        self._end()
        return self._log

    def _exchange(self, observation: JSON, deadline: float, timeout: float) -> Answer:
        assert self._channel is not None and self._process is not None
        early = self._read_unasked()
        if early is not None:
            return early
        history = observation.get("history", [])
        start = self._history_sent if len(history) >= self._history_sent else 0
        self._history_sent = len(history)
        # A paused bot is resumed once its observation waits in the socket, so that it wakes
        # once, to read it, rather than once to resume and again when the line comes.
        sent = self._channel.send(wire.observation_line(observation, start), deadline, self.resume)
        self.resume()
        if not sent:
            self._late += 1
            return Fault(
                f"late: the bot did not read its observation within {seconds_text(timeout)}"
            )
        while True:
            line = self._channel.read_line(deadline)
            if line is Outcome.TIMEOUT and not self._process.alive():
                line = Outcome.CLOSED  # its children may hold the socket open
            if line is Outcome.TIMEOUT:
                self._late += 1
                return Fault(f"late: no reply within {seconds_text(timeout)}")
            if line is Outcome.CLOSED:
                return Fault(self._crashed(self._exit_reason()), crash=True)
            if self._late:
                self._late -= 1  # the reply to an observation that already timed out
                continue
            if line is Outcome.TOO_LONG:
                return Fault(f"malformed reply: longer than {self.limits.line_bytes} bytes")
            return wire.parse_reply(line)

    def _read_unasked(self) -> Fault | None:
        """Check what came since the last reply: late replies are dropped, the rest punished."""
        assert self._channel is not None
        lines, partial = self._channel.read_pending()
        unasked = False
        for line in lines:
            if line is Outcome.CLOSED:
                return Fault(self._crashed(self._exit_reason()), crash=True)
            if self._late:
                self._late -= 1
            else:
                unasked = True
        if partial and not self._late:
            self._channel.discard_partial()
            unasked = True
        return Fault(UNSOLICITED) if unasked else None

    def _exit_reason(self) -> str:
        assert self._process is not None and self._channel is not None
        code = self._process.exit_code()
        note = self._process.limit_note()
        self._channel.drain_log()
        if note or code == EXIT_OUT_OF_MEMORY or code == -signal.SIGXCPU:
            log.warning(
                "a bot hit a limit: exit code %s%s", code, note, extra={"jail_event": "limit"}
            )
        if code is None:
            return "the bot closed its output"
        if code == EXIT_LOAD_FAILED:
            return load_failure_reason(self._channel.log.last_line())
        if code == EXIT_OUT_OF_MEMORY:
            return "the bot ran out of memory (MemoryError)"
        if code < 0:
            return f"the bot process was killed by {_signal_name(-code)}{note}"
        return f"the bot process exited with code {code}{note}"

    def _crashed(self, reason: str) -> str:
        """Record the crash and end the process now (its log is kept for `close`)."""
        if self._jail:
            log.info("a jailed bot was ended: %s", reason, extra={"jail_event": "kill"})
        self._crash = reason
        self._end()
        return reason

    def _end(self) -> None:
        if self._cpu is not None:
            affinity.leave()
            self._cpu = None
        if self._process is None or self._channel is None:
            return
        self._channel.drain_log()
        self._process.kill()
        self._channel.drain_log()
        self._process.close_pipes()
        self._log = self._channel.log.text()
        self._process = None
        if self._crash is None:
            self._crash = "the bot was closed"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
