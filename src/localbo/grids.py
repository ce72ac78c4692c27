"""Integer grids of the experiments (batch sizes, dimensions)."""

from __future__ import annotations

import numpy as np


def log_grid(low: float, high: float, num: int) -> list[int]:
    """`num` log-spaced values from `low` to `high`, rounded to integers, duplicates removed.

    Example:
        >>> log_grid(1, 100, 10)
        [1, 2, 3, 5, 8, 13, 22, 36, 60, 100]
    """
    if not 0 < low <= high or num < 1:
        raise ValueError(f"need 0 < low <= high and num >= 1, got {low}, {high}, {num}")
    values = np.rint(np.geomspace(low, high, num)).astype(int)
    return sorted({int(v) for v in values})
