"""The cache of a site without Redis: files in its data folder, shared by all its processes.

`tavolo standalone` runs two web server processes, a worker and a scheduler.
Budgets kept in the cache (password guesses, sign-ups, reads) must be one
budget for all of them, or every limit would be multiplied by the number of
processes; a cache in each process's memory would do just that.

Django's file cache is shared already, but its ``add`` and ``incr`` are a read
then a write, so two processes counting at once could lose a count, and its
``incr`` writes the value back with the default timeout, which moves a
count's end. Here both are made under a lock on a file of the cache's folder,
and ``incr`` keeps the entry's expiry, as Redis does. Culling, which lists the
whole folder, is done at most every few seconds per process instead of on
every write.
"""

from __future__ import annotations

import fcntl
import os
import pickle
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache

CULL_INTERVAL_SECONDS = 5.0
"""How often a process looks whether the folder holds more than MAX_ENTRIES entries."""

LOCK_NAME = "lock"
"""The file in the cache's folder that ``add`` and ``incr`` lock (not a cache entry)."""


class SharedFileCache(FileBasedCache):
    """Django's file-based cache with ``add`` and ``incr`` atomic across processes."""

    _dir: str  # FileBasedCache's folder and helpers, which django-stubs leaves out
    _createdir: Callable[[], None]
    _key_to_file: Callable[[Any, Any], str]

    def __init__(self, dir: str, params: dict[str, Any]) -> None:
        super().__init__(dir, params)
        self._culled_at = -CULL_INTERVAL_SECONDS

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the folder's lock: no other process adds or increments meanwhile."""
        self._createdir()
        with open(os.path.join(self._dir, LOCK_NAME), "ab") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield  # closing the file releases the lock

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        with self._locked():
            return bool(super().add(key, value, timeout, version))

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> Any:
        with self._locked():
            name = self._key_to_file(key, version)
            try:
                with open(name, "rb") as file:
                    expiry = pickle.load(file)
                    value = pickle.loads(zlib.decompress(file.read()))
            except (FileNotFoundError, EOFError):
                expiry, value = 0, None
            if value is None or (expiry is not None and expiry < time.time()):
                raise ValueError(f"Key '{key}' not found")
            value += delta
            self._replace(name, expiry, value)
            return value

    def _replace(self, name: str, expiry: float | None, value: Any) -> None:
        """Write an entry whole, then move it in place: a reader sees the old or the new."""
        descriptor, temporary = tempfile.mkstemp(dir=self._dir)
        try:
            with open(descriptor, "wb") as file:
                file.write(pickle.dumps(expiry, self.pickle_protocol))
                file.write(zlib.compress(pickle.dumps(value, self.pickle_protocol)))
            os.replace(temporary, name)
        except BaseException:
            os.unlink(temporary)
            raise

    def _cull(self) -> None:
        now = time.monotonic()
        if now - self._culled_at < CULL_INTERVAL_SECONDS:
            return
        self._culled_at = now
        super()._cull()  # type: ignore[misc]
