"""The unprivileged account jailed bots run as when the runner is root.

Root may not run bwrap for a bot: inside it RLIMIT_NPROC would not hold and
the bot would be root in the host's user namespace. So a root runner starts
bwrap as `BOT_USER`, creating that system account (no home, no shell) on
first use, and falls back to `nobody` if it cannot. A runner that is not
root runs bwrap as itself.

The switch of ids is made by `setpriv` (util-linux) in the new process: then
`subprocess` starts it with vfork, whose cost does not grow with the runner's
memory, where ``Popen(user=...)`` must fork and copy the runner's page tables
(docs/benchmarks.md). Without `setpriv`, ``Popen``'s own options do it.
"""

from __future__ import annotations

import functools
import logging
import os
import pwd
import subprocess
from dataclasses import dataclass
from typing import Any

BOT_USER = "tavolo-bot"
FALLBACK_USER = "nobody"
SETPRIV = "/usr/bin/setpriv"

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Account:
    """Who a jail runs as: `None` ids mean "as the runner itself"."""

    uid: int | None
    gid: int | None
    name: str


def _create_bot_user() -> bool:
    command = [
        "useradd",
        "--system",
        "--user-group",
        "--no-create-home",
        "--home-dir",
        "/nonexistent",
        "--shell",
        "/usr/sbin/nologin",
        BOT_USER,
    ]
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            check=False,
            env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"},
        )
    except OSError as error:
        log.warning("cannot create the %s user: %s", BOT_USER, error)
        return False
    if done.returncode != 0 and "already exists" not in done.stderr:
        log.warning("cannot create the %s user: %s", BOT_USER, done.stderr.strip())
        return False
    return True


@functools.cache
def jail_account() -> Account:
    """The account to start bwrap as; creates `BOT_USER` when root and it is missing."""
    if os.geteuid() != 0:
        return Account(uid=None, gid=None, name=pwd.getpwuid(os.geteuid()).pw_name)
    for name in (BOT_USER, FALLBACK_USER):
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            if name == BOT_USER and _create_bot_user():
                entry = pwd.getpwnam(name)
            else:
                continue
        if entry.pw_uid != 0:
            if name == FALLBACK_USER:
                log.warning("bots run as %s: the %s user is missing", FALLBACK_USER, BOT_USER)
            return Account(uid=entry.pw_uid, gid=entry.pw_gid, name=name)
    raise LookupError(f"neither {BOT_USER} nor {FALLBACK_USER} is a usable account")


def start_as(account: Account) -> tuple[list[str], dict[str, Any]]:
    """How to start a command as `account`: the words to put before it, and the options
    to give `subprocess.Popen`. Either way the process has the account's uid and gid, no
    supplementary groups and (from root to another uid) no capabilities."""
    if account.uid is None or account.gid is None:
        return [], {}
    if not os.access(SETPRIV, os.X_OK):
        return [], {"user": account.uid, "group": account.gid, "extra_groups": []}
    switch = [f"--reuid={account.uid}", f"--regid={account.gid}", "--clear-groups", "--"]
    return [SETPRIV, *switch], {}
