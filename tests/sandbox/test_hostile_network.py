"""Hostile bots reaching for the network: every socket but AF_UNIX is refused."""

from __future__ import annotations

import errno
import socket
from collections.abc import Iterator

import pytest

from tests.sandbox.hostile_match import assert_contained, outcomes, play

pytestmark = [pytest.mark.jail, pytest.mark.usefixtures("both_jail_kinds")]

REFUSED = f"PermissionError {errno.EPERM}"


@pytest.fixture
def listeners() -> Iterator[list[socket.socket]]:
    """TCP and UDP servers on the host's IPv4 and IPv6 loopback, ports 47811 and 47812."""
    servers = []
    for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
        tcp = socket.socket(family, socket.SOCK_STREAM)
        tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        tcp.bind((host, 47811))
        tcp.listen()
        udp = socket.socket(family, socket.SOCK_DGRAM)
        udp.bind((host, 47812))
        servers += [tcp, udp]
    for server in servers:
        server.setblocking(False)
    yield servers
    for server in servers:
        server.close()


def assert_nothing_arrived(servers: list[socket.socket]) -> None:
    for server in servers:
        with pytest.raises(BlockingIOError):
            if server.type == socket.SOCK_STREAM:
                server.accept()
            else:
                server.recvfrom(64)


@pytest.mark.parametrize(
    "bot, label",
    [
        ("tcp_loopback_ipv4", "connect"),
        ("udp_loopback_ipv4", "send"),
        ("tcp_loopback_ipv6", "connect"),
        ("udp_loopback_ipv6", "send"),
    ],
)
def test_a_bot_cannot_reach_the_hosts_loopback(listeners, bot, label):
    record = play(bot)
    assert outcomes(record.seats[0].log)[label] == REFUSED
    assert_nothing_arrived(listeners)
    assert_contained(record)


def test_a_bot_cannot_reach_an_external_address():
    record = play("external_address")
    assert outcomes(record.seats[0].log) == {"tcp": REFUSED, "udp": REFUSED}
    assert_contained(record)


def test_a_bot_cannot_resolve_a_host_name():
    record = play("dns_lookup")
    assert outcomes(record.seats[0].log)["resolve"] == "gaierror"
    assert_contained(record)


def test_a_bot_cannot_open_a_vsock_socket():
    record = play("vsock_socket")
    assert outcomes(record.seats[0].log)["vsock"] == REFUSED
    assert_contained(record)


def test_a_bot_cannot_open_raw_packet_or_netlink_sockets():
    record = play("packet_socket")
    assert outcomes(record.seats[0].log) == {"packet": REFUSED, "netlink": REFUSED, "raw": REFUSED}
    assert_contained(record)


def test_a_bot_cannot_connect_to_an_abstract_unix_socket_on_the_host():
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind("\0tavolo-hostile-abstract")
        server.listen()
        server.setblocking(False)
        record = play("abstract_unix_socket")
        with pytest.raises(BlockingIOError):
            server.accept()
    assert (
        outcomes(record.seats[0].log)["connect"] == f"ConnectionRefusedError {errno.ECONNREFUSED}"
    )
    assert_contained(record)
