"""Two methods compared on the same sample paths: paired differences and their statistics.

For a method against a baseline, the differences d_i = f_method(path i) - f_baseline(path i) over
the paths both ran (negative: the method ends lower, better). A difference within a practical
tolerance (a converged run's resolution, not a statistical statement) is a tie, and counts as
zero in every statistic: two runs that end at the same minimum up to the optimizer's last digits
neither win nor lose, and do not decide a test. Then:

- wins, ties and losses;
- the median difference, with its percentile bootstrap interval (`scipy.stats.bootstrap`, the
  paths resampled, a seeded generator so a table is deterministic), each end rounded to the
  decade of its Monte Carlo standard error;
- the Hodges-Lehmann estimate, the median of the Walsh averages (d_i + d_j) / 2, i <= j: the
  shift the signed-rank test estimates, which reads the decided paths where the median of
  differences, with many ties, is zero;
- the Wilcoxon signed-rank test of a zero median (`scipy.stats.wilcoxon`, two-sided) on the
  decided paths, the ties dropped (zero_method "wilcox"): under the null the decided differences
  are symmetric about zero whatever the number of ties, so the test conditions on them, exact
  for up to 50 pairs; and Holm's step-down correction of a family of its p-values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ZERO_METHOD = "wilcox"  # ties (zeroed differences) are dropped before ranking


@dataclass(frozen=True)
class PairedSummary:
    """What a table row says of one method against the baseline (ties counted as zero).

    Attributes:
        paths: paths both ran. median: median difference (method - baseline).
        low, high: its bootstrap interval. hodges_lehmann: the Hodges-Lehmann estimate.
        wins, ties, losses: paths where the method ends lower by more than the tolerance,
            within it, higher by more. p_value: Wilcoxon's on the decided paths (NaN when
            every path is a tie).
    """

    paths: int
    median: float
    low: float
    high: float
    hodges_lehmann: float
    wins: int
    ties: int
    losses: int
    p_value: float


def median_interval(
    x: np.ndarray, confidence: float, resamples: int, rng: np.random.Generator
) -> tuple[float, float]:
    """The percentile bootstrap interval of the median of x (n,), each end rounded to the
    decade of its Monte Carlo standard error (`monte_carlo_error`, `to_precision`).

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
    ends = result.confidence_interval.low, result.confidence_interval.high
    quantiles = (1 - confidence) / 2, (1 + confidence) / 2
    return tuple(  # type: ignore[return-value]
        to_precision(float(end), monte_carlo_error(result.bootstrap_distribution, q))
        for end, q in zip(ends, quantiles, strict=True)
    )


MONTE_CARLO_BATCHES = 10


def monte_carlo_error(resampled: np.ndarray, q: float) -> float:
    """The Monte Carlo standard error of the q-quantile of the bootstrap statistics `resampled`
    (B,), by batch means: the spread of the quantile over `MONTE_CARLO_BATCHES` batches of the
    resamples, divided by the square root of their number. A median's resampled values take a
    few values with large atoms, so a window of order statistics around rank B q can hold one
    value alone while another seed's quantile lands on the next; the batches see the jumps.

    Example:
        >>> monte_carlo_error(np.zeros(100), 0.5)
        0.0
    """
    batches = np.array_split(resampled, MONTE_CARLO_BATCHES)
    quantiles = [np.quantile(batch, q) for batch in batches]
    return float(np.std(quantiles, ddof=1) / np.sqrt(MONTE_CARLO_BATCHES))


def to_precision(value: float, error: float) -> float:
    """`value` rounded to the decade of its standard error (kept whole when the error is 0).

    Example:
        >>> to_precision(0.123456, 0.0037), to_precision(-12.91834, 0.042), to_precision(0.5, 0.0)
        (0.123, -12.92, 0.5)
    """
    if error <= 0:
        return value
    return round(value, -math.floor(math.log10(error)))


def hodges_lehmann(x: np.ndarray) -> float:
    """The median of the Walsh averages (x_i + x_j) / 2, i <= j, of x (n,).

    Example:
        >>> hodges_lehmann(np.array([0.0, 1.0, 5.0]))  # 0, 0.5, 2.5, 1, 3, 5
        1.75
    """
    i, j = np.triu_indices(len(x))
    return float(np.median((x[i] + x[j]) / 2))


def wilcoxon_p(differences: np.ndarray) -> float:
    """Two-sided Wilcoxon signed-rank p-value of a zero median, zeros dropped first (NaN if
    every difference is 0); exact for up to 50 nonzero differences without ties.

    Example:
        >>> wilcoxon_p(np.array([1.0, 2.0, 3.0, 4.0, 5.0]))  # exact: 2 / 2^5
        0.0625
    """
    decided = differences[differences != 0]
    if not decided.size:
        return math.nan
    from scipy import stats

    return float(stats.wilcoxon(decided, zero_method=ZERO_METHOD).pvalue)


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


def ties_as_zero(differences: np.ndarray, tolerance: float) -> np.ndarray:
    """The differences (n,) with every one within the tolerance set to zero."""
    return np.where(np.abs(differences) <= tolerance, 0.0, differences)


def paired_summary(
    differences: np.ndarray,
    tolerance: float,
    confidence: float,
    resamples: int,
    rng: np.random.Generator,
) -> PairedSummary:
    """The row of one method against the baseline from its paired differences (n,), a
    difference within `tolerance` counted as zero."""
    d = ties_as_zero(differences, tolerance)
    low, high = median_interval(d, confidence, resamples, rng)
    return PairedSummary(
        paths=len(d),
        median=float(np.median(d)),
        low=low,
        high=high,
        hodges_lehmann=hodges_lehmann(d),
        wins=int(np.sum(d < 0)),
        ties=int(np.sum(d == 0)),
        losses=int(np.sum(d > 0)),
        p_value=wilcoxon_p(d),
    )


def difference_of_medians(
    reference: np.ndarray, ours: np.ndarray, seed: int
) -> tuple[float, float, float]:
    """median(reference) - median(ours) of paired per-path values (n,) each, with the 90 %
    percentile bootstrap interval (the paths resampled in pairs; 9999 resamples from `seed`):
    the checks of a method against its authors' code (bench/reference_check.py)."""
    from scipy import stats

    result = stats.bootstrap(
        (reference, ours),
        lambda a, b, axis=-1: np.median(a, axis=axis) - np.median(b, axis=axis),
        paired=True,
        vectorized=True,
        n_resamples=9999,
        confidence_level=0.9,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    interval = result.confidence_interval
    return float(np.median(reference) - np.median(ours)), interval.low, interval.high
