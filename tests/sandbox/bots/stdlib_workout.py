"""Uses what bots commonly take from the standard library, under the jail's filter:
threads, a process pool, asyncio, sqlite3, mmap, tempfile, selectors, the CPU count."""

import asyncio
import concurrent.futures
import mmap
import multiprocessing
import os
import sqlite3
import sys
import tempfile
import threading
import time


def square(number):
    return number * number


def workout():
    done = {}
    worker = threading.Thread(target=lambda: done.setdefault("thread", True))
    worker.start()
    worker.join()
    with multiprocessing.get_context("fork").Pool(2) as pool:
        done["pool"] = pool.map(square, range(4)) == [0, 1, 4, 9]
    with concurrent.futures.ThreadPoolExecutor(2) as executor:
        done["executor"] = list(executor.map(square, range(3))) == [0, 1, 4]
    done["asyncio"] = asyncio.run(asyncio.sleep(0.001, result=True))
    database = sqlite3.connect(":memory:")
    done["sqlite3"] = database.execute("select 6 * 7").fetchone() == (42,)
    region = mmap.mmap(-1, 1 << 16)
    region[:5] = b"hello"
    done["mmap"] = region[:5] == b"hello"
    with tempfile.NamedTemporaryFile() as scratch:
        scratch.write(b"x" * 10000)
        scratch.flush()
        done["tempfile"] = os.path.getsize(scratch.name) == 10000
    done["cpu_count"] = (os.cpu_count() or 0) >= 1
    done["sleep"] = time.sleep(0.001) is None
    return done


for label, worked in workout().items():
    print(f"outcome: {label}: {'ok' if worked else 'wrong'}", file=sys.stderr)


def act(observation):
    return observation["legal_actions"][0]
