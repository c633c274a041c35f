"""The site's cache: Redis, falling back to a cache in the process while Redis is down.

What the site keeps in the cache can be rebuilt (a page's figures, a match's
frames) or is a budget (uploads, challenges and reads an hour). While Redis
cannot be reached, each process keeps them in its own memory instead: pages
still answer, and a budget still holds per process (so at most the number of
processes times the rate) instead of turning every request into an error. A
budget that must hold across processes asks the strict cache instead
(``caches["strict"]``, plain Redis): password guesses, which are refused with a
503 while Redis is down rather than allowed without a count
(`accounts.throttles`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

WARNING_INTERVAL_SECONDS = 60.0
"""While Redis stays down, the fallback is logged once a minute, not on every request."""

RETRY_SECONDS = 5.0
"""After Redis failed, the process's memory answers alone this long before Redis is tried
again: an unreachable server (a timeout, not a refusal) would cost every call its wait."""


class FallbackRedisCache(RedisCache):
    """Django's Redis cache that answers from a process-local cache while Redis fails."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self.local = LocMemCache(f"fallback-{id(self)}", {"OPTIONS": {"MAX_ENTRIES": 10_000}})
        self._warned_at = -WARNING_INTERVAL_SECONDS
        self._redis_again_at = 0.0

    def _either(self, method: str, *args: Any) -> Any:
        """Redis's answer to `method`, or this process's memory's while Redis fails."""
        if time.monotonic() < self._redis_again_at:
            return getattr(self.local, method)(*args)
        try:
            return getattr(super(), method)(*args)
        except RedisError as error:
            now = time.monotonic()
            self._redis_again_at = now + RETRY_SECONDS
            if now - self._warned_at >= WARNING_INTERVAL_SECONDS:
                self._warned_at = now
                logger.warning("the cache's Redis fails (%s): using this process's memory", error)
            return getattr(self.local, method)(*args)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._either("add", key, value, timeout, version)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._either("get", key, default, version)

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._either("set", key, value, timeout, version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._either("touch", key, timeout, version)

    def delete(self, key: Any, version: Any = None) -> Any:
        return self._either("delete", key, version)

    def get_many(self, keys: Iterable[Any], version: Any = None) -> dict[Any, Any]:
        found: dict[Any, Any] = self._either("get_many", list(keys), version)
        return found

    def has_key(self, key: Any, version: Any = None) -> Any:
        return self._either("has_key", key, version)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> Any:
        return self._either("incr", key, delta, version)

    def set_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> list[Any]:
        failed: list[Any] = self._either("set_many", data, timeout, version)
        return failed

    def delete_many(self, keys: Iterable[Any], version: Any = None) -> None:
        self._either("delete_many", list(keys), version)

    def clear(self) -> None:
        self._either("clear")
        self.local.clear()
