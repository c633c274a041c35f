"""Connects to an abstract unix socket that a process on the host listens on."""

import socket
import sys

try:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.connect("\0tavolo-hostile-abstract")
    print("outcome: connect: connected", file=sys.stderr)
except OSError as error:
    print(f"outcome: connect: {type(error).__name__} {error.errno}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
