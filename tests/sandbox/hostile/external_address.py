"""Reaches for the internet: TCP to a public resolver, and a DNS query over UDP."""

import socket
import sys

try:
    socket.create_connection(("1.1.1.1", 443), timeout=1).close()
    print("outcome: tcp: connected", file=sys.stderr)
except OSError as error:
    print(f"outcome: tcp: {type(error).__name__} {error.errno}", file=sys.stderr)
try:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
        sender.sendto(b"\x00" * 12, ("8.8.8.8", 53))
    print("outcome: udp: sent", file=sys.stderr)
except OSError as error:
    print(f"outcome: udp: {type(error).__name__} {error.errno}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
