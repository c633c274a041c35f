"""Writes to /tmp until something stops it."""

import sys

written = 0
try:
    with open("/tmp/fill", "wb") as target:
        while written < 64 * 1024 * 1024:
            target.write(b"x" * 65536)
            target.flush()
            written += 65536
    print(f"outcome: fill: wrote {written}", file=sys.stderr)
except OSError as error:
    print(f"outcome: fill: {type(error).__name__} {error.errno} after {written}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
