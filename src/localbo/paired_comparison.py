"""Two methods compared on the same sample paths: paired differences and their statistics.

For a method against a baseline, the differences d_i = f_method(path i) - f_baseline(path i) over
the paths both ran (negative: the method ends lower, better):

- the median difference with a bootstrap interval (`scipy.stats.bootstrap`, percentile method,
  the paths resampled, a seeded generator so a table is deterministic);
- wins, ties and losses, a tie being |d_i| <= a practical tolerance (a converged run's
  resolution, not a statistical statement);
- the Wilcoxon signed-rank test of a zero median (`scipy.stats.wilcoxon`, two-sided; exact zero
  differences dropped, zero_method "wilcox"), and Holm's step-down correction of a family of its
  p-values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ZERO_METHOD = "wilcox"  # exact zero differences are dropped before ranking


@dataclass(frozen=True)
class PairedSummary:
    """What a table row says of one method against the baseline.

    Attributes:
        paths: paths both ran. median: median difference (method - baseline).
        low, high: its bootstrap interval. wins, ties, losses: paths where the method ends lower
            by more than the tolerance, within it, higher by more. p_value: Wilcoxon's (NaN when
            every difference is zero).
    """

    paths: int
    median: float
    low: float
    high: float
    wins: int
    ties: int
    losses: int
    p_value: float


def median_interval(
    x: np.ndarray, confidence: float, resamples: int, rng: np.random.Generator
) -> tuple[float, float]:
    """The percentile bootstrap interval of the median of x (n,).

    Example:
        >>> median_interval(np.array([0.0, 1.0]), 0.95, 9999, np.random.default_rng(0))
        (0.0, 1.0)
    """
    if len(x) < 2 or np.all(x == x[0]):
        return float(np.median(x)), float(np.median(x))
    from scipy import stats  # here: the Snakefile imports this module, and scipy.stats is 0.6 s

    result = stats.bootstrap(
        (x,),
        np.median,
        n_resamples=resamples,
        confidence_level=confidence,
        method="percentile",
        vectorized=True,
        rng=rng,
    )
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def wilcoxon_p(differences: np.ndarray) -> float:
    """Two-sided Wilcoxon signed-rank p-value of a zero median (NaN if every difference is 0).

    Example:
        >>> wilcoxon_p(np.array([1.0, 2.0, 3.0, 4.0, 5.0]))  # exact: 2 / 2^5
        0.0625
    """
    if not np.any(differences):
        return math.nan
    from scipy import stats

    return float(stats.wilcoxon(differences, zero_method=ZERO_METHOD).pvalue)


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values of a family (NaN stays NaN, out of the family).

    Example:
        >>> holm([0.01, 0.04, 0.03, math.nan])
        [0.03, 0.06, 0.06, nan]
    """
    family = sorted((p, i) for i, p in enumerate(p_values) if not math.isnan(p))
    adjusted = [math.nan] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(family):
        running = max(running, min(1.0, (len(family) - rank) * p))
        adjusted[i] = running
    return adjusted


def paired_summary(
    differences: np.ndarray,
    tolerance: float,
    confidence: float,
    resamples: int,
    rng: np.random.Generator,
) -> PairedSummary:
    """The row of one method against the baseline from its paired differences (n,)."""
    low, high = median_interval(differences, confidence, resamples, rng)
    return PairedSummary(
        paths=len(differences),
        median=float(np.median(differences)),
        low=low,
        high=high,
        wins=int(np.sum(differences < -tolerance)),
        ties=int(np.sum(np.abs(differences) <= tolerance)),
        losses=int(np.sum(differences > tolerance)),
        p_value=wilcoxon_p(differences),
    )
