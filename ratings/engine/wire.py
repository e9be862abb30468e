"""Arrays as JSON, bit for bit: what a Celery message carries between processes.

A JSON list of floats round-trips exactly too, but building and parsing one Python
object per number is what made the fanned-out close slow; an array travels here as
its dtype, shape and raw bytes (base64), and comes back identical.
"""

from __future__ import annotations

import base64
from typing import Any

import numpy as np


def pack(array: np.ndarray) -> dict[str, Any]:
    """``array`` as a JSON-able dict (explicit byte order: any machine reads it alike)."""
    array = np.asarray(array)
    array = array.astype(array.dtype.newbyteorder("<"), copy=False)
    return {
        "dtype": array.dtype.str,
        "shape": list(array.shape),
        "data": base64.b64encode(np.ascontiguousarray(array).tobytes()).decode("ascii"),
    }


def pack_ints(array: np.ndarray) -> dict[str, Any]:
    """Integers in the narrowest type that holds them all (a player's position in a
    list of 100,000 needs 4 bytes, not 8): the same values, a fraction of the bytes."""
    array = np.asarray(array)
    if array.size == 0:
        return pack(array)
    low, high = (np.min_scalar_type(int(v)) for v in (array.min(), array.max()))
    return pack(array.astype(np.promote_types(low, high), copy=False))


def unpack(data: dict[str, Any], dtype: Any = None) -> np.ndarray:
    """Inverse of :func:`pack` (a writable array in native byte order, or ``dtype``)."""
    raw = np.frombuffer(base64.b64decode(data["data"]), dtype=np.dtype(data["dtype"]))
    return raw.reshape(data["shape"]).astype(dtype or raw.dtype.newbyteorder("="))
