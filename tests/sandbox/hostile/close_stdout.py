"""Closes the protocol's output on its first turn and keeps running."""

import os
import stat
import time


def act(observation):
    for fd in range(3, 16):
        try:
            if stat.S_ISSOCK(os.fstat(fd).st_mode):
                os.close(fd)
        except OSError:
            pass
    time.sleep(600)
