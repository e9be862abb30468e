"""Each process's own copy of what the shared cache holds under content-addressed keys.

The server-side cache (Redis, shared by every worker) keeps rendered pages under keys
made of what the page depends on: the generations (``core.generations``), the
list's id, the URL, the language. A value kept under such a key never changes: a
change of the data makes a new key. Such a value may therefore also be kept in the
worker's memory, and a request that finds it there reads only the generations from
Redis (one round trip, which keeps every worker in step with every change) instead of
two or three more for the list and the body.

The copy is bounded (entries and bytes, least recently used first out), honours the
shared entry's timeout, and holds immutable values only: bytes and text as they are,
anything else pickled and unpickled at each read, so that no request can change what
another one reads. Only content-addressed keys belong here; the generations
themselves never do.
"""

from __future__ import annotations

import pickle
import threading
import time
from collections import OrderedDict
from typing import Any

#: bounds of one process's copy
MAX_ENTRIES = 512
MAX_BYTES = 32 * 1024 * 1024


class NearCache:
    def __init__(self, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES) -> None:
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._items: OrderedDict[str, tuple[float, bool, bytes | str]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> Any | None:
        """The value kept under ``key``, or None (absent or expired)."""
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            expires, pickled, value = item
            if expires < time.monotonic():
                self._drop(key)
                return None
            self._items.move_to_end(key)
        return pickle.loads(value) if pickled else value  # type: ignore[arg-type]

    def __contains__(self, key: object) -> bool:
        """Whether a value is kept under ``key`` (unexpired), without reading it."""
        with self._lock:
            item = self._items.get(key)  # type: ignore[call-overload]
            return item is not None and item[0] >= time.monotonic()

    def set(self, key: str, value: Any, timeout: float | None) -> None:
        """Keep ``value`` for ``timeout`` seconds (None: as long as there is room)."""
        pickled = not isinstance(value, bytes | str)
        stored: bytes | str = pickle.dumps(value, pickle.HIGHEST_PROTOCOL) if pickled else value
        size = len(stored)
        if size > self.max_bytes // 4:  # a whole CSV: Redis keeps it, not each worker
            return
        expires = time.monotonic() + timeout if timeout is not None else float("inf")
        with self._lock:
            if key in self._items:
                self._drop(key)
            self._items[key] = (expires, pickled, stored)
            self._bytes += size
            while len(self._items) > self.max_entries or self._bytes > self.max_bytes:
                self._drop(next(iter(self._items)))

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def __len__(self) -> int:
        return len(self._items)

    def _drop(self, key: str) -> None:
        _, _, value = self._items.pop(key)
        self._bytes -= len(value)


#: this process's copy
near = NearCache()
