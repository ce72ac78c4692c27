"""Random streams named by a run's coordinates.

Every run draws from `numpy.random.Generator(PCG64(SeedSequence(entropy)))` where the entropy is
the config's base seed followed by the run's coordinates (figure, d, sigma, method, replicate,
stream name). Strings and floats are turned into integers by SHA-256 of their text, never by
Python's salted `hash()`, so the same config gives the same numbers on every machine and process.
A numpy scalar is its Python value (`np.float64(0.05)` names the stream 0.05 names, under numpy 1
and 2 alike: numpy 2's repr would say "np.float64(0.05)").
"""

from __future__ import annotations

import hashlib

import numpy as np


def _as_int(coordinate: int | float | str) -> int:
    if isinstance(coordinate, np.generic):
        coordinate = coordinate.item()
    if isinstance(coordinate, bool):
        raise TypeError("booleans are not seed coordinates")
    if isinstance(coordinate, int | np.integer) and coordinate >= 0:
        return int(coordinate)
    digest = hashlib.sha256(repr(coordinate).encode()).digest()
    return int.from_bytes(digest[:8], "little")


def rng_for(seed: int, *coordinates: int | float | str) -> np.random.Generator:
    """A generator determined by the base seed and the run's coordinates.

    Example:
        >>> a = rng_for(0, "fig1", 10, 0.05, "gibo", 3).standard_normal()
        >>> b = rng_for(0, "fig1", 10, 0.05, "gibo", 3).standard_normal()
        >>> a == b
        True
    """
    entropy = [_as_int(seed), *(_as_int(c) for c in coordinates)]
    return np.random.default_rng(np.random.SeedSequence(entropy))
