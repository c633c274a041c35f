"""Sends a UDP datagram to a server on the host's IPv4 loopback."""

import socket
import sys

try:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
        sender.sendto(b"escaped", ("127.0.0.1", 47812))
    print("outcome: send: sent", file=sys.stderr)
except OSError as error:
    print(f"outcome: send: {type(error).__name__} {error.errno}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
