"""Empirical convergence rates of Algorithm 1 (paper sections 4-5, Corollaries 1 and 2).

The paper bounds min_{t' <= t} ||grad f(x_t')||^2 for gradient steps x_{t+1} = x_t - eta g_t with
eta = 1 / L and the GP's gradient estimate g_t from a batch of b_t evaluations:

* sigma = 0, b_t = d + 1 (Corollary 1): <= 2 L (f(x_1) - f*) / T with T = n / (d + 1), so O(d / n);
* sigma > 0 (Corollary 2): O(sigma d) for b_t = d log^2 t (a plateau), O(n^(-1/4) log n) for
  b_t = d t, O(n^(-1/3) log^2 n) for b_t = d t^2; a constant b_t also leaves a plateau (Theorem 2).

`rate_run` runs the algorithm as analysed: unconstrained (the theorems assume interior iterates),
each gradient from its own batch only, designs computed once per batch size (`DesignCache`).
`fit_slope` measures the log-log slope (`log_log_slope`) of the running minimum over a decade of
evaluations.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable

import numpy as np

from localbo.kernels import Kernel
from localbo.methods.local_bo import DesignCache, LocalBOSettings, run_noisy
from localbo.objective import Box, NoisyObjective, Trace
from localbo.sample_paths import FourierSamplePath

NOISELESS_SCHEDULE = "d_plus_1"
# the exponent of n in each schedule's bound on min ||grad f||^2 (0: a plateau)
THEORY_EXPONENTS = {
    NOISELESS_SCHEDULE: -1.0,
    "d_log2_t": 0.0,
    "d_t": -0.25,
    "d_t2": -1.0 / 3.0,
    "constant": 0.0,
}
# each schedule's b_t as the figures write it (matplotlib mathtext)
SCHEDULE_LABELS = {
    NOISELESS_SCHEDULE: "$b_t = d + 1$",
    "d_log2_t": "$b_t = d \\log^2 t$",
    "d_t": "$b_t = d t$",
    "d_t2": "$b_t = d t^2$",
    "constant": "$b_t = d$",
}


def schedule_settings(schedule: str, d: int, settings: LocalBOSettings) -> LocalBOSettings:
    """Local BO's settings for one rates schedule: b_t = d + 1 is the constant schedule with
    factor (d + 1) / d; the others are local BO's own schedules with factor 1. Each gradient
    comes from its own batch (data_window 0), as in the theorems.

    Raises:
        ValueError: an unknown schedule.
    """
    if schedule not in THEORY_EXPONENTS:
        raise ValueError(f"unknown schedule {schedule!r}; known: {sorted(THEORY_EXPONENTS)}")
    if schedule == NOISELESS_SCHEDULE:
        schedule, factor = "constant", (d + 1) / d
    else:
        factor = 1.0
    return dataclasses.replace(settings, schedule=schedule, batch_factor=factor, data_window=0)


def rate_run(
    path: FourierSamplePath,
    kernel: Kernel,
    sigma: float,
    budget: int,
    settings: LocalBOSettings,
    designs: DesignCache,
    noise_rng: np.random.Generator | None,
) -> Trace:
    """Algorithm 1 from x = 0 without projection until the budget is spent.

    Args:
        path: the objective. kernel: the GP's kernel (the path's). sigma: noise level.
        budget: evaluations. settings: schedule, batch factor, step rule and step size
            (`schedule_settings`). designs: the designs by batch size, shared by the runs of one
            (d, sigma) (noise variance sigma^2 plus the nugget, no centre point).
        noise_rng: the observation noise stream (None when sigma = 0).

    Returns:
        The run's trace: one row per iteration, with the true f and ||grad f|| at each iterate.
    """
    d = path.frequencies.shape[1]
    objective = NoisyObjective(path, sigma, budget, noise_rng)
    unconstrained = Box(-np.inf, np.inf, d)
    return run_noisy(objective, kernel, np.zeros(d), unconstrained, settings, designs).trace


def running_min_on_grid(
    evaluations: np.ndarray, values: np.ndarray, grid: np.ndarray
) -> np.ndarray:
    """min over records with evaluations <= n of `values`, at each n of the grid.

    Args:
        evaluations: (k,) non-decreasing evaluation counts of a trace's records.
        values: (k,) the quantity at each record (e.g. ||grad f(x_t)||^2).
        grid: (g,) evaluation counts.

    Returns:
        (g,) the running minimum at each grid point; NaN before the first record.
    """
    running = np.minimum.accumulate(values)
    last = np.searchsorted(evaluations, grid, side="right") - 1  # last record with evals <= n
    return np.where(last >= 0, running[np.maximum(last, 0)], np.nan)


def log_log_slope(x: Iterable[float], y: Iterable[float]) -> float:
    """Least-squares slope of log10 y against log10 x: the exponent of a power law y ~ x^p
    (NaN for fewer than two distinct x).

    Example:
        >>> round(log_log_slope([1, 10, 100], [5.0, 5.0 / 10**0.5, 5.0 / 10]), 12)
        -0.5
    """
    lx = np.log10(np.asarray(list(x), dtype=float))
    ly = np.log10(np.asarray(list(y), dtype=float))
    if np.unique(lx).size < 2:
        return math.nan
    return float(np.polyfit(lx, ly, 1)[0])


def fit_slope(n: np.ndarray, values: np.ndarray, n_end: float) -> float:
    """Least-squares slope of log10(values) against log10(n) over the decade [n_end / 10, n_end].

    Args:
        n: (k,) evaluation counts. values: (k,) positive values. n_end: the decade's end.

    Returns:
        The slope; NaN when fewer than 3 points of the decade are finite and positive.
    """
    keep = (n >= n_end / 10) & (n <= n_end) & np.isfinite(values) & (values > 0)
    if keep.sum() < 3:
        return float("nan")
    return log_log_slope(n[keep], values[keep])


def fit_end(n: np.ndarray, values: np.ndarray, floor: float) -> float:
    """Where the slope is fitted: the first n at which `values` reaches the floor (below it the
    noiseless curve only shows the nugget's resolution), else the last n.

    Args:
        n: (k,) evaluation counts. values: (k,) running minimum. floor: the resolution floor.
    """
    below = np.flatnonzero(values <= floor)
    return float(n[below[0]] if below.size else n[-1])


def noiseless_bound(L: float, f_start: float, f_star: float, n: np.ndarray, d: int) -> np.ndarray:
    """Corollary 1's bound 2 L (f(x_1) - f*) / T at T = n / (d + 1) iterations; (k,) for (k,) n."""
    return 2.0 * L * (f_start - f_star) * (d + 1) / np.asarray(n, dtype=float)
