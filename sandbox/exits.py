"""Clean-up at a process's exit, in order, also in a worker process multiprocessing forked.

A process forked by `multiprocessing` (`tavolo play --jobs`, a Celery
prefork worker) ends with ``os._exit``, which skips `atexit`; it runs the
finalizers of `multiprocessing.util` instead. So the handlers given to
`at_exit` run from both, once, highest `order` first, and only in the
process that registered them: a forked child drops what it inherited (its
parent's pool and groups are the parent's) and registers its own.
"""

from __future__ import annotations

import atexit
import multiprocessing.util
import os
from collections.abc import Callable

ORDER_BEFORE_GRAVEYARD = 20
"""The warm pool kills its idle jails first: their groups go to the graveyard."""
ORDER_GRAVEYARD = 10

_handlers: list[tuple[int, Callable[[], None]]] = []
_owner: int | None = None


def at_exit(handler: Callable[[], None], order: int) -> None:
    """Run `handler` when this process exits, after those of a higher `order`."""
    global _owner
    if _owner != os.getpid():
        _owner = os.getpid()
        _handlers.clear()
        atexit.register(_run, _owner)
        multiprocessing.util.Finalize(None, _run, args=(_owner,), exitpriority=0)
    _handlers.append((order, handler))


def _run(owner: int) -> None:
    if owner != os.getpid():  # registered by the parent of this forked process
        return
    handlers = sorted(_handlers, key=lambda entry: -entry[0])
    _handlers.clear()
    for _, handler in handlers:
        handler()
