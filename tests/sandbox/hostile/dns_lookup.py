"""Resolves a host name, the usual first step of exfiltration."""

import socket
import sys

try:
    address = socket.getaddrinfo("example.com", 80)
    print(f"outcome: resolve: {address}", file=sys.stderr)
except OSError as error:
    print(f"outcome: resolve: {type(error).__name__}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
