"""Opens raw and netlink sockets to sniff or reconfigure the network."""

import socket
import sys

for label, family, kind in (
    ("packet", socket.AF_PACKET, socket.SOCK_RAW),
    ("netlink", socket.AF_NETLINK, socket.SOCK_RAW),
    ("raw", socket.AF_INET, socket.SOCK_RAW),
):
    try:
        socket.socket(family, kind).close()
        print(f"outcome: {label}: opened", file=sys.stderr)
    except OSError as error:
        print(f"outcome: {label}: {type(error).__name__} {error.errno}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
