"""Typed readers of environment variables that fail loudly on a bad value.

Settings read the environment only through these helpers, so a typo such as
``DEBUG=ture`` stops the site at start-up with the variable's name instead of
quietly meaning something else.

Any variable may instead be given as ``NAME_FILE``, the path of a file that
holds its value (as Docker and systemd credentials provide secrets): the file
is read at start-up, its trailing line break dropped. Setting both ``NAME`` and
``NAME_FILE`` is an error, as is a file that cannot be read.
"""

from __future__ import annotations

import os
from ipaddress import IPv4Network, IPv6Network, ip_network
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})
FILE_SUFFIX = "_FILE"


def env_raw(name: str, default: str | None = None) -> str | None:
    """The variable's text, from the environment or from the file ``NAME_FILE`` names."""
    path = os.environ.get(name + FILE_SUFFIX)
    if path is None:
        return os.environ.get(name, default)
    if name in os.environ:
        raise ImproperlyConfigured(f"set {name} or {name}{FILE_SUFFIX}, not both")
    try:
        return Path(path).read_text(encoding="utf-8").rstrip("\r\n")
    except (OSError, UnicodeDecodeError) as error:
        raise ImproperlyConfigured(
            f"{name}{FILE_SUFFIX}={path!r} cannot be read: {error}"
        ) from None


def env_str(name: str, default: str | None = None) -> str:
    """The variable as text; required when there is no default."""
    value = env_raw(name, default)
    if value is None:
        raise ImproperlyConfigured(f"set the environment variable {name} (or {name}{FILE_SUFFIX})")
    return value


def env_bool(name: str, default: bool = False) -> bool:
    """A yes/no variable: 1/true/yes/on or 0/false/no/off, any case."""
    raw = env_raw(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a yes/no value (use 1 or 0)")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    """A whole number, at least `minimum` when given."""
    raw = env_raw(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} must be at least {minimum}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blanks are dropped."""
    raw = env_raw(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """One word out of `choices`."""
    value = env_raw(name, default)
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r}: choose one of {', '.join(choices)}")
    return value


def env_path(name: str, default: str) -> Path:
    """A folder or file path, made absolute against the current directory."""
    return Path(env_str(name, default)).expanduser().resolve()


def env_port(name: str) -> int | None:
    """A TCP port from 0 (any free port) to 65535; None when unset or empty."""
    raw = (env_raw(name) or "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) > 65535:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a port (0 to 65535)")
    return int(raw)


def env_networks(name: str) -> list[IPv4Network | IPv6Network]:
    """A comma-separated list of networks (``10.0.0.0/8``) or addresses (``127.0.0.1``)."""
    networks = []
    for item in env_list(name, []):
        try:
            networks.append(ip_network(item, strict=False))
        except ValueError:
            raise ImproperlyConfigured(f"{name}: {item!r} is not a network or an address") from None
    return networks
