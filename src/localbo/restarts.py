"""What random restarts buy: the best value after k restarts (paper Fig. 3, section 6.2), and
the grid a search of independent draws would need for a value (Remark 1, section 3).

Given the final values v_1..v_n of n independent local-BO runs on one sample path, the best value
after k restarts is min(v_{pi(1)}, ..., v_{pi(k)}) for a random order pi of the runs. Drawing many
orders (without replacement within an order) gives its distribution for every k at once: one
cumulative minimum per order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Random sort keys drawn and sorted at a time (a block of orders; 32 MB of float64): Fig. 3's 5000
# orders of 10 000 runs at once took 0.8 GB. The blocks draw the same stream in the same order,
# so the result does not depend on the block size.
ORDER_BLOCK_ELEMENTS = 2**22


def grid_size_log10(value: np.ndarray | float) -> np.ndarray | float:
    """log10 of the grid size n whose expected minimum reaches `value` by Remark 1: the minimum
    of n unit-variance Gaussians is in expectation at least -sqrt(2 ln n), so n = 10^(v^2 / (2
    ln 10)) for v < 0, and 0 (n = 1) for v >= 0. Elementwise; the paper's -12.9 gives 36.1.

    Example:
        >>> print(round(grid_size_log10(-12.9), 2))
        36.14
    """
    return np.minimum(value, 0.0) ** 2 / (2.0 * np.log(10.0))


@dataclass(frozen=True)
class BestAfterRestarts:
    """Quantiles of the best value after k = 1..K restarts.

    Attributes:
        restarts: (K,) k.
        median: (K,) median of the best value after k restarts.
        low, high: (K,) the lower and upper edges of the central `band` interval.
        band: the interval's probability (e.g. 0.9).
    """

    restarts: np.ndarray
    median: np.ndarray
    low: np.ndarray
    high: np.ndarray
    band: float


def best_after_restarts(
    values: np.ndarray,
    max_restarts: int,
    orderings: int,
    band: float,
    rng: np.random.Generator,
) -> BestAfterRestarts:
    """Median and central band of the best value after k restarts, k = 1..max_restarts.

    Args:
        values: (n,) final values of n independent runs (n >= 1).
        max_restarts: largest k (capped at n).
        orderings: number of random orders of the runs.
        band: probability of the central interval, in (0, 1).
        rng: stream for the orders.

    Returns:
        A `BestAfterRestarts` with K = min(max_restarts, n) rows.

    Example:
        >>> r = best_after_restarts(np.arange(5.0), 3, 100, 0.9, np.random.default_rng(0))
        >>> float(r.median[-1]) <= float(r.median[0])
        True
    """
    values = np.asarray(values, dtype=float)
    if values.ndim != 1 or values.size == 0:
        raise ValueError("values must be a non-empty 1-d array")
    if not 0 < band < 1 or orderings < 1 or max_restarts < 1:
        raise ValueError("need 0 < band < 1, orderings >= 1, max_restarts >= 1")
    K = min(max_restarts, values.size)
    rows = max(1, ORDER_BLOCK_ELEMENTS // values.size)
    best = np.empty((orderings, K))
    for start in range(0, orderings, rows):
        keys = rng.random((min(rows, orderings - start), values.size))
        order = np.argsort(keys, axis=1)[:, :K]  # the first K runs of each random order
        best[start : start + len(keys)] = np.minimum.accumulate(values[order], axis=1)
    tail = (1.0 - band) / 2.0
    low, median, high = np.quantile(best, [tail, 0.5, 1.0 - tail], axis=0)
    return BestAfterRestarts(np.arange(1, K + 1), median, low, high, band)
