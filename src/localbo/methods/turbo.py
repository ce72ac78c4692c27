"""TuRBO-1 (Eriksson et al. 2019): Thompson sampling in one trust region that grows and shrinks.

Our numpy/scipy reading of the reference implementation (uber-research/TuRBO, `turbo/turbo_1.py`)
with q = 1 and its constants, expressed in the box: the region is a cube of side L times the box
width (L_init = 0.8, L_min = 2^-7, L_max = 1.6) centred on the best observation of the region's
data, clipped to the box. Each step scores `candidates` points of the region (Sobol points that
replace each coordinate of the centre with probability min(20 / d, 1), at least one) by one
Thompson draw of the GP and evaluates the least. After `success_tolerance` improvements in a row
(y < min y - 1e-3 |min y|) L doubles (at most L_max); after `failure_tolerance` steps without one
(ceil(max(4, d)) for q = 1) it halves; below L_min the region restarts: its data are dropped
and a fresh Latin-hypercube design is evaluated.

Where we depart from the reference, and why (the Fig. 1 question is the algorithm, on paths
whose GP is known):
- the GP is the path's own prior, hyperparameters known, no ML-II fit and no standardization of
  y (the reference fits both each step); with equal lengthscales its region is a cube;
- the first design is x0 plus 2d - 1 Latin-hypercube points (the reference: 2d LHS points), so
  every method starts from x = 0; restarts draw 2d LHS points, as the reference;
- the Thompson draw is pathwise (Wilson et al. 2020): a random-feature prior draw f0 with
  `thompson_features` features, plus the exact Matheron update
  f0 + k(., X) (K + sigma^2 I)^{-1} (y - f0(X) - eps), eps ~ N(0, sigma^2 I). Its only error is
  the random-feature prior's: in one draw its covariance is k up to O(1/sqrt(M)) per entry
  (tests/unit/test_sample_paths.py); over draws, each with its own features, the draw has the
  exact posterior's mean and covariance (tests/unit/test_turbo.py);
- the draw is of f, not of a noisy y (the reference samples the likelihood's y): the same at
  sigma = 0, and for sigma > 0 the candidate of least f, which is what TuRBO is after;
- the coordinate kept from the Sobol point when none is replaced is any of the d (the
  reference's `randint(0, dim - 1)` never picks the last one).

Returned: the point with the best observation over all regions, at its true f. The info also
gives `first_region_value`, the true f at the best observation before the first restart: the one
local solution that compares with one local BO run (the overall best is a multi-start result),
and `restarts`. The trace records, after every step, the region's length `tr_length` (fraction of
the box width), its centre `tr_center` and the restarts so far.

References:
    Eriksson, Pearce, Gardner, Turner & Poloczek (2019), Scalable global optimization via local
    Bayesian optimization. Wilson et al. (2020), Efficiently sampling functions from Gaussian
    process posteriors.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from localbo.gp import GP
from localbo.gram import cross_kernel
from localbo.kernels import Kernel
from localbo.linalg import cho_solve
from localbo.objective import PROGRESS_EVERY, Box, NoisyObjective, OptimizationResult, Trace, finish
from localbo.optimizers import Cost, FunctionOptimizer, register
from localbo.sample_paths import FourierSamplePath
from localbo.settings_checks import require


@dataclass(frozen=True)
class TuRBOSettings:
    """Knobs of TuRBO-1; the defaults are the reference's constants (q = 1), except
    thompson_features (our pathwise draw's, module docstring) and min_noise_var, a nugget of
    ours (the reference fits the noise variance by ML-II).

    Attributes:
        length_init, length_min, length_max: side of the region, a fraction of the box width.
        success_tolerance: improvements in a row that double the side.
        failure_tolerance: steps without improvement that halve it (None: ceil(max(4, d))).
        improvement: relative margin of an improvement, y < min y - improvement |min y|.
        candidates: Thompson candidates per step (None: min(100 d, 5000)).
        perturbation_dims: a coordinate of the centre is replaced with probability
            min(perturbation_dims / d, 1).
        initial_points: design of a region (None: 2 d; the first includes x0).
        thompson_features: random features of the Thompson draw's prior.
        min_noise_var: nugget added to sigma^2 in the GP.
    """

    length_init: float = 0.8
    length_min: float = 2.0**-7
    length_max: float = 1.6
    success_tolerance: int = 3
    failure_tolerance: int | None = None
    improvement: float = 1e-3
    candidates: int | None = None
    perturbation_dims: float = 20.0
    initial_points: int | None = None
    thompson_features: int = 1024
    min_noise_var: float = 1e-8

    def __post_init__(self) -> None:
        init, top = self.length_init, self.length_max
        require(self, lambda v: 0 < v <= init, f"in (0, length_init = {init}]", "length_min")
        require(self, lambda v: v <= top, f"at most length_max = {top}", "length_init")
        counts = ("success_tolerance", "thompson_features")
        require(self, lambda v: v >= 1, ">= 1", *counts)
        optional = ("failure_tolerance", "candidates", "initial_points")
        require(self, lambda v: v is None or v >= 1, ">= 1 or null", *optional)
        require(self, lambda v: v >= 0, ">= 0", "improvement", "min_noise_var")
        require(self, lambda v: v > 0, "> 0", "perturbation_dims")

    def design_size(self, d: int) -> int:
        """Points of a region's design in dimension d."""
        return 2 * d if self.initial_points is None else self.initial_points

    def failure_limit(self, d: int) -> int:
        """Steps without improvement that halve the region in dimension d."""
        return max(4, d) if self.failure_tolerance is None else self.failure_tolerance

    def candidate_count(self, d: int) -> int:
        """Thompson candidates per step in dimension d."""
        return min(100 * d, 5000) if self.candidates is None else self.candidates


@dataclass
class TrustRegion:
    """The side of the region and the counters that move it (the reference's `_adjust_length`).

    Attributes:
        length: current side, a fraction of the box width.
        settings: the tolerances and bounds. failure_tolerance: resolved for this d.
        successes, failures: the current runs of improving and non-improving steps.
    """

    length: float
    settings: TuRBOSettings
    failure_tolerance: int
    successes: int = 0
    failures: int = 0

    def update(self, improved: bool) -> None:
        """Count one step; double the side after `success_tolerance` improvements in a row,
        halve it after `failure_tolerance` steps without one."""
        if improved:
            self.successes, self.failures = self.successes + 1, 0
        else:
            self.successes, self.failures = 0, self.failures + 1
        if self.successes == self.settings.success_tolerance:
            self.length, self.successes = min(2.0 * self.length, self.settings.length_max), 0
        elif self.failures == self.failure_tolerance:
            self.length, self.failures = self.length / 2.0, 0

    @property
    def collapsed(self) -> bool:
        """Below the smallest side: time to restart."""
        return self.length < self.settings.length_min


def region_candidates(
    center: np.ndarray, lower: np.ndarray, upper: np.ndarray, n: int, prob: float, rng
) -> np.ndarray:
    """(n, d) candidates: the centre with each coordinate replaced, with probability `prob` and at
    least one per candidate, by that of a scrambled Sobol point in [lower, upper]."""
    from scipy.stats import qmc  # here: scipy.stats is 0.6 s, and every Snakemake start imports us

    d = center.shape[0]
    sobol = qmc.Sobol(d, scramble=True, seed=rng).random_base2(max(0, math.ceil(math.log2(n))))
    points = lower + (upper - lower) * sobol[:n]
    mask = rng.random((n, d)) <= prob
    none = np.flatnonzero(~mask.any(axis=1))
    mask[none, rng.integers(0, d, size=none.size)] = True
    C = np.broadcast_to(center, (n, d)).copy()
    C[mask] = points[mask]
    return C


def thompson_values(
    gp: GP, C: np.ndarray, rng: np.random.Generator, num_features: int
) -> np.ndarray:
    """One pathwise posterior draw at (m, d) points C; returns (m,).

    f0 + k(C, X) (K + sigma^2 I)^{-1} (y - m - f0(X) - eps) + m, with f0 a random-feature draw
    of the prior and eps ~ N(0, sigma^2 I) (the GP's noise variance). f0's values come through
    the half-angle tangent and k(C, X) in Gram form about the candidates' mean, both to rounding
    (`FourierSamplePath.values_by_half_angle`, `localbo.gram.cross_kernel`): 5-6x faster at
    d = 50 than np.cos and cdist, and a run chooses the same points (tests/unit/test_turbo.py,
    bench/turbo_thompson_draw.py).
    """
    prior = FourierSamplePath.draw(gp.kernel, C.shape[1], num_features, rng)
    eps = math.sqrt(gp.noise_var) * rng.standard_normal(gp.n)
    update = cho_solve(gp.L, gp.y - gp.prior_mean - prior.values_by_half_angle(gp.X) - eps)
    origin = C.mean(axis=0)
    rows = cross_kernel(gp.kernel, C - origin, gp.X - origin)  # (m, n)
    return gp.prior_mean + prior.values_by_half_angle(C) + rows @ update


def latin_hypercube(n: int, box: Box, rng: np.random.Generator) -> np.ndarray:
    """(n, d) Latin-hypercube points in the box."""
    from scipy.stats import qmc

    return box.lower + box.width * qmc.LatinHypercube(box.d, seed=rng).random(n)


def turbo(
    objective: NoisyObjective,
    kernel: Kernel,
    x0: np.ndarray,
    box: Box,
    rng: np.random.Generator,
    settings: TuRBOSettings | None = None,
) -> OptimizationResult:
    """Run TuRBO-1 until the budget is spent.

    Args:
        objective: the (noisy) objective with its budget.
        kernel: the GP's kernel (the path's, hyperparameters known).
        x0: (d,) first point of the first design. box: the domain.
        rng: the optimizer's own stream (designs, candidates, Thompson draws).
        settings: `TuRBOSettings` (None: the defaults).
    """
    settings = settings or TuRBOSettings()
    d = box.d
    noise_var = objective.sigma**2 + settings.min_noise_var
    n_init, n_candidates = settings.design_size(d), settings.candidate_count(d)
    failure_tolerance = settings.failure_limit(d)
    prob = min(settings.perturbation_dims / d, 1.0)
    trace = Trace(progress_every=PROGRESS_EVERY)
    best_x, best_y = box.project(np.array(x0, dtype=float)), math.inf
    first_region: tuple[np.ndarray, float] | None = None
    gp: GP | None = None
    center = best_x  # the region's best point, set at each record (a design comes first)
    restarts = steps = 0
    if objective.remaining == 0:  # no design: the start is the result, as for the other methods
        trace.record(
            objective, best_x, tr_length=settings.length_init, tr_center=center, restarts=0
        )
    while objective.remaining > 0:
        if gp is None:  # a new region: its design
            if restarts == 0:
                X = np.vstack([best_x[None, :], latin_hypercube(n_init - 1, box, rng)])
            else:
                X = latin_hypercube(n_init, box, rng)
            X = X[: objective.remaining]
            y = objective(X)
            gp = GP(kernel, X, y, noise_var, capacity=len(y) + objective.remaining)
            region = TrustRegion(settings.length_init, settings, failure_tolerance)
        else:
            half = region.length * box.width / 2.0
            lower = np.maximum(center - half, box.lower)
            upper = np.minimum(center + half, box.upper)
            C = region_candidates(center, lower, upper, n_candidates, prob, rng)
            X = C[np.argmin(thompson_values(gp, C, rng, settings.thompson_features))][None, :]
            y = objective(X)
            least = float(np.min(gp.y))
            region.update(bool(y[0] < least - settings.improvement * abs(least)))
            gp.append(X, y)
            steps += 1
        i = int(np.argmin(y))
        if y[i] < best_y:
            best_x, best_y = X[i].copy(), float(y[i])
        center = gp.X[np.argmin(gp.y)]
        trace.record(
            objective, best_x, tr_length=region.length, tr_center=center, restarts=restarts
        )
        if region.collapsed:
            if first_region is None:
                first_region = (best_x.copy(), best_y)
            restarts += 1
            gp = None
    first_x = best_x if first_region is None else first_region[0]
    return finish(
        objective,
        best_x,
        trace,
        iterations=steps,
        stop="budget",
        restarts=restarts,
        first_region_value=float(objective.path(first_x[None, :])[0]),
    )


@register
class TuRBO(FunctionOptimizer):
    """TuRBO-1 as a pipeline method (`turbo`)."""

    name = "turbo"
    label = "TuRBO-1"
    returned = "overall best"
    traced = "incumbent"
    invalid_settings = ({"candidates": 0}, {"improvement": float("nan")})
    Settings = TuRBOSettings
    function = staticmethod(turbo)
    default_paths_per_job = 5

    def min_budget(self, d: int) -> int:
        """The first region's design."""
        return self.settings.design_size(d)

    def cost(self, d: int, budget: int) -> Cost:
        """A step is led by the Thompson draw's random features at the m candidates
        (min(100 d, 5000) by default): m M half-angle cosines and an (m, d) x (d, M) product,
        then the kernel rows. Fitted to whole runs of 5000 with both cores busy (the draw is
        bound by memory, so it slows most beside other work: d = 1 / 5 / 10 / 20 / 30 / 50 in
        28 / 77 / 158 / 340 / 563 / 1242 s, bench/results/forecast_check.jsonl, about 4x the
        same runs alone, bench/turbo_thompson_draw.py) as 4 ms + m M (19 + 0.57 d) ns per step,
        within 10 %. Memory: the GP's factor and the (m, n) kernel rows, n at most the budget
        (the prior's values are taken in blocks)."""
        m = self.settings.candidate_count(d)
        features = self.settings.thompson_features
        per_step = 4e-3 + m * features * (19.0 + 0.57 * d) * 1e-9
        rows_mb = 8 * m * budget // 2**20
        return Cost(seconds=budget * per_step + 1.0, mem_mb=8 * budget**2 // 2**20 + rows_mb)
