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


def fig2_panels(fig2: dict) -> dict[str, list[tuple[int, int]]]:
    """The (d, b) points of the two panels of Fig. 2, from the config's `fig2` section.

    Panel "a": d fixed, b on a log grid; panel "b": b fixed, d on a log grid.
    """
    a, b = fig2["panel_a"], fig2["panel_b"]
    return {
        "a": [(a["d"], bb) for bb in log_grid(a["b_min"], a["b_max"], a["num"])],
        "b": [(dd, b["b"]) for dd in log_grid(b["d_min"], b["d_max"], b["num"])],
    }


def fig2_is_large(fig2: dict, b: int) -> bool:
    """Whether a batch size b gets the large-design settings (restarts, iterations, 2 threads)."""
    return b > fig2["large_b"]


def fig2_blas_threads(fig2: dict, b: int) -> int:
    """BLAS threads of a Fig. 2 job: two pay off only for large designs (bench/README.md)."""
    return 2 if fig2_is_large(fig2, b) else 1
