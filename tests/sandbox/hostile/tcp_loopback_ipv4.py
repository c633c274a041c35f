"""Connects over TCP to a server on the host's IPv4 loopback."""

import socket
import sys

try:
    socket.create_connection(("127.0.0.1", 47811), timeout=1).close()
    print("outcome: connect: connected", file=sys.stderr)
except OSError as error:
    print(f"outcome: connect: {type(error).__name__} {error.errno}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
