"""MPD (Nguyen, Wu, Gardner & Garnett 2022): local BO by maximizing the probability of descent.

Our numpy reading of kayween/local-bo-mpd (`MPDOptimizer`, the `DownhillQuadratic` acquisition),
with the settings of its synthetic-experiment config, for minimization. One iteration at x:

1. evaluate f(x);
2. b = d times: choose z in the box x +- delta (clipped to the domain) maximizing the expected
   value, after observing y(z), of mu^T Sigma^-1 mu for the gradient posterior N(mu, Sigma) at x.
   With c = Cov(grad f(x), y(z) | D), s = Var(y(z) | D), u = Sigma^-1 c, a = c^T u, w = mu^T u,
   observing y(z) moves mu by c (y - E y) / s and leaves Sigma - c c^T / s, so (Sherman-Morrison)

       alpha(z) = mu^T Sigma^-1 mu + (w^2 + a) / (s - a),

   the reference's ||L^-1 mu||^2 + ||L^-1 A||^2 in closed form. As in the reference, mu is the
   gradient mean at the start of the iteration and Sigma, c, s use all current data. Maximized by
   L-BFGS-B (analytic gradient) from the best `restarts` of `raw_samples` uniform points; then
   evaluate f(z);
3. move from x in sub-steps of `step` along the most probable descent direction
   -Sigma^-1 mu / ||Sigma^-1 mu|| while its probability of descent
   p* = Phi(sqrt(mu^T Sigma^-1 mu)) is at least `min_probability`, recomputing mu and Sigma at
   each sub-step from the same GP (no evaluation), at most `max_substeps`, projected onto the box.

The GP keeps the newest `window_factor` x d observations (the reference's N_max = 5 d) with the
path's known hyperparameters (RBF only: the gradient of alpha uses the RBF's second derivatives).

Where we depart from the reference code, and why:
- p* is the paper's Phi(sqrt(mu^T Sigma^-1 mu)); the code computes Phi(sqrt(v^T mu)) with the
  unit vector v = Sigma^-1 mu / ||Sigma^-1 mu|| (0.876 against 0.997 on a random 10-d case; for
  Sigma = c I it ignores the uncertainty);
- the gradient covariance is symmetrized and factored with the library's jitter (`cholesky`), not
  clamped entrywise at 1e-9 (which makes it indefinite for small noise, see
  ../shared/notes/reference-implementations.md); the noise is sigma^2 + `min_noise_var`;
- y is not standardized over the window (the outputscale is the path's);
- b = d points per iteration, as the method's paper states (the reference stores an early stop
  of the sampling, epsilon_diff_acq_value, that its step does not read: the same);
- the move is projected onto the box (the reference's is unbounded) and stops after
  `max_substeps` = 1000 sub-steps (the reference's after 10 001, an odd count): a move that ends
  in a 2-cycle (common at d = 1, see `move`) ends on the cycle's other point, one sub-step of
  0.01 from the reference's. Kept at 1000 because the gallery's MPD runs were made with it;
- the acquisition's starts are the best `restarts` of `raw_samples` uniform points, each refined
  by its own L-BFGS-B; the reference (botorch 0.6 `optimize_acqf`, nonnegative, batch_limit 5)
  picks them by Boltzmann sampling from Sobol points and refines the five jointly, one L-BFGS-B
  on the sum of their values. Measured on the same states (bench/mpd_restarts.py): the joint
  solve costs 1.43x (d = 10) and 1.57x (d = 50) the CPU and reaches the same acquisition value
  (median ratio 1 - 1e-9).

With `reference_code`, MPD follows the reference code's choices where we depart from it, to
measure what they change: p* = Phi(sqrt(v^T mu)) with the unit v, the window's targets
standardized as the code's model does (`localbo.window`: mean 0 and standard deviation 1 with
ddof 0, a lone observation as it is), the code's model noise variance 0.01 in place of
sigma^2 + `min_noise_var`, every entry of the gradient covariance clamped at 1e-9 in the move
(the code's `posterior_derivative` clamps it; its acquisition factors the covariance after z
unclamped, and so does ours), and a move not bounded by the box. The gradient mean is the one
from before an iteration's new points either way. On the code's own states, step by step, the
reference mode's acquisition and move are the code's (bench/mpd_step_by_step.py). It computes
in float64; the code, as its script runs it, in float32 (bench/mpd_against_reference.py
measures what that changes).

Returned: the final iterate, at its true f (as local BO's); the info gives `best_observation_value`,
the true f at the best observation, which is often better (the iterate jumps out of basins).

References:
    Nguyen, Wu, Gardner & Garnett (2022), Local Bayesian optimization via maximizing probability
    of descent.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr  # Phi, as scipy.stats.norm.cdf computes it, without its overhead

from localbo.gp import GP
from localbo.kernels import RBF, Kernel
from localbo.linalg import cho_solve, cholesky, solve_lower
from localbo.multistart import maximize
from localbo.objective import PROGRESS_EVERY, Box, NoisyObjective, OptimizationResult, Trace, finish
from localbo.optimizers import Cost, FunctionOptimizer, register
from localbo.settings_checks import require
from localbo.window import Window


@dataclass(frozen=True)
class MPDSettings:
    """Knobs of MPD; the defaults are the reference's synthetic-experiment config, except
    max_substeps (the module docstring says why) and min_noise_var, a nugget of ours (the
    reference's model noise variance is 0.01, ../shared/notes/reference-implementations.md).

    Attributes:
        delta: half-width of the box around the iterate where points are sampled.
        restarts, raw_samples: L-BFGS-B starts, and the uniform points they are chosen from.
        window_factor: the GP keeps the newest window_factor x d observations.
        step: length of a sub-step of the move.
        min_probability: the move goes on while p* is at least this.
        max_substeps: cap on the sub-steps of one move (the reference's: 10 001).
        min_noise_var: nugget added to sigma^2 in the GP.
        reference_code: follow the reference code's choices where we depart from them (the
            module docstring).
    """

    delta: float = 0.2
    restarts: int = 5
    raw_samples: int = 64
    window_factor: int = 5
    step: float = 0.01
    min_probability: float = 0.65
    max_substeps: int = 1000
    min_noise_var: float = 1e-6
    reference_code: bool = False

    def __post_init__(self) -> None:
        counts = ("restarts", "raw_samples", "window_factor", "max_substeps")
        require(self, lambda v: v >= 1, ">= 1", *counts)
        require(self, lambda v: v >= self.restarts, "at least restarts", "raw_samples")
        require(self, lambda v: v > 0, "> 0", "delta", "step")
        require(self, lambda v: 0.5 < v < 1, "in (0.5, 1)", "min_probability")
        require(self, lambda v: v >= 0, ">= 0", "min_noise_var")


# the floor the reference code clamps every entry of the gradient covariance at
# (../shared/notes/reference-implementations.md)
REFERENCE_CLAMP = 1e-9


def gradient_covariance(gp: GP, x: np.ndarray, clamp: bool = False) -> np.ndarray:
    """(d, d) covariance of grad f(x) given the GP's data, symmetrized; with `clamp`, every
    entry at least `REFERENCE_CLAMP`, as the reference code makes it."""
    cov = gp.grad_cov(x)
    cov = 0.5 * (cov + cov.T)
    return np.maximum(cov, REFERENCE_CLAMP) if clamp else cov


def gradient_posterior(gp: GP, x: np.ndarray, clamp: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(d,) mean and (d, d) covariance (`gradient_covariance`) of grad f(x) given the data."""
    return gp.grad_mean(x), gradient_covariance(gp, x, clamp)


def descent(
    mean: np.ndarray, cov: np.ndarray, unit_probability: bool = False
) -> tuple[np.ndarray, float]:
    """The most probable descent direction -Sigma^-1 mu / ||Sigma^-1 mu|| (d,) and its
    probability p* = Phi(sqrt(mu^T Sigma^-1 mu)); with `unit_probability`, the reference code's
    Phi(sqrt(v^T mu)) with v = Sigma^-1 mu / ||Sigma^-1 mu||.

    Example:
        >>> mean, cov = np.array([1.0, 0.0]), np.diag([0.25, 1.0])
        >>> direction, p = descent(mean, cov)  # mu^T Sigma^-1 mu = 4
        >>> direction.tolist(), round(p, 6), round(descent(mean, cov, True)[1], 6)
        ([-1.0, -0.0], 0.97725, 0.841345)
    """
    L, _ = cholesky(cov)
    v = cho_solve(L, mean)
    norm = np.linalg.norm(v)  # 0 where mu = 0 (no data yet): no direction, probability 1/2
    direction = -v / norm if norm > 0 else np.zeros_like(v)
    quadratic = float(mean @ v) / norm if unit_probability and norm > 0 else float(mean @ v)
    return direction, float(ndtr(math.sqrt(max(quadratic, 0.0))))


class DownhillQuadratic:
    """alpha(z) of one iteration at x (module docstring) and its analytic gradient in z.

    Everything is O(n d) per point, through two factors fixed for the iteration: the window's
    K = L L^T and Sigma = L_S L_S^T. With A = L^-1 G^T (G = Cov(grad f(x), f(X)), (d, n)) and
    r = L^-1 k(X, z): c = -(x - z) k(x, z) / l^2 - A^T r, s = s2 + noise - r^T r, and with
    q = L_S^-1 c: a = q^T q, w = (L_S^-1 mu)^T q. The gradient needs c's Jacobian only against
    the two vectors u = Sigma^-1 c and Sigma^-1 mu, and k(X, z)'s Jacobian J only against three
    vectors, so neither Jacobian is formed (the implementation before, which formed c's (d, d)
    one by an (n, d) x (n, d) product, is the oracle of tests/unit/test_mpd.py).

    Args:
        gp: the posterior (RBF kernel). x: (d,) the iterate. mean: (d,) the gradient mean kept
            for the iteration. clamp: Sigma clamped entrywise as the code's move clamps it (no
            run uses it; bench/mpd_step_by_step.py measures what it would change).
    """

    def __init__(self, gp: GP, x: np.ndarray, mean: np.ndarray, clamp: bool = False) -> None:
        if not isinstance(gp.kernel, RBF):
            raise ValueError(f"MPD's acquisition needs the RBF kernel, got {gp.kernel.name}")
        self.gp, self.x = gp, x
        self.ell2 = gp.kernel.lengthscale**2
        self.L_sigma, _ = cholesky(gradient_covariance(gp, x, clamp))
        self.sigma_inv_mean = cho_solve(self.L_sigma, mean)
        self.whitened_mean = solve_lower(self.L_sigma, mean)  # (d,) L_S^-1 mu
        self.quadratic = float(mean @ self.sigma_inv_mean)
        self.A = solve_lower(gp.L, gp.kernel.grad_x(x, gp.X).T)  # (n, d) L^-1 G^T
        self.K_inv_Gt = solve_lower(gp.L, self.A, trans=True)  # (n, d) K^-1 G^T
        self.prior_var = gp.kernel.outputscale + gp.noise_var

    def values(self, Z: np.ndarray) -> np.ndarray:
        """alpha at (m, d) points; returns (m,)."""
        k_xz = self.gp.kernel(self.x[None, :], Z)[0]  # (m,)
        r = solve_lower(self.gp.L, self.gp.kernel(Z, self.gp.X).T)  # (n, m)
        c = (Z - self.x) / self.ell2 * k_xz[:, None] - (self.A.T @ r).T  # (m, d)
        q = solve_lower(self.L_sigma, c.T)  # (d, m)
        a, w = np.einsum("im,im->m", q, q), self.whitened_mean @ q
        D = self.prior_var - np.einsum("im,im->m", r, r) - a
        return self.quadratic + (w * w + a) / D

    def __call__(self, z: np.ndarray) -> tuple[float, np.ndarray]:
        """alpha at a (d,) point and its (d,) gradient (vector solves only: a BLAS trsm packs
        the whole factor at each call)."""
        gp, ell2 = self.gp, self.ell2
        diff, u_xz = gp.X - z, self.x - z  # (n, d), (d,)
        kz = gp.kernel.outputscale * np.exp(-0.5 / ell2 * np.einsum("ij,ij->i", diff, diff))
        k_xz = gp.kernel.outputscale * math.exp(-0.5 / ell2 * float(u_xz @ u_xz))
        r = solve_lower(gp.L, kz)
        c = -u_xz / ell2 * k_xz - self.A.T @ r
        q = solve_lower(self.L_sigma, c)
        a, w = float(q @ q), float(self.whitened_mean @ q)
        D = self.prior_var - float(r @ r) - a
        value = self.quadratic + (w * w + a) / D
        vectors = np.column_stack([solve_lower(self.L_sigma, q, trans=True), self.sigma_inv_mean])
        # J = diff k(X, z) / l^2 is k(X, z)'s Jacobian; J^T K^-1 k(X, z), J^T K^-1 G^T u and
        # J^T K^-1 G^T Sigma^-1 mu (u = Sigma^-1 c) are all the gradient needs of it
        P = np.column_stack([solve_lower(gp.L, r, trans=True), self.K_inv_Gt @ vectors])
        JtP = diff.T @ (kz[:, None] * P) / ell2  # (d, 3)
        # c's Jacobian is k(x, z) (I / l^2 - u_xz u_xz^T / l^4) - G K^-1 J; its transpose times
        # the two vectors:
        dc_t = k_xz * (vectors / ell2 - np.outer(u_xz, u_xz @ vectors) / ell2**2) - JtP[:, 1:]
        da, dw, ds = 2.0 * dc_t[:, 0], dc_t[:, 1], -2.0 * JtP[:, 0]
        grad = ((2.0 * w * dw + da) * D - (w * w + a) * (ds - da)) / D**2
        return value, grad


def sample_point(
    gp: GP,
    x: np.ndarray,
    mean: np.ndarray,
    box: Box,
    rng: np.random.Generator,
    settings: MPDSettings,
    acquisition_type: type[DownhillQuadratic] = DownhillQuadratic,
) -> np.ndarray:
    """The point of the box x +- delta (within the domain) that maximizes alpha.

    `acquisition_type` computes alpha (`values` at a batch, value and gradient by a call); the
    equality checks pass the implementation before the O(n d) rewrite (tests/unit/mpd_oracle.py).
    """
    lower = np.maximum(x - settings.delta, box.lower)
    upper = np.minimum(x + settings.delta, box.upper)
    acquisition = acquisition_type(gp, x, mean)
    return maximize(acquisition, lower, upper, rng, settings.restarts, settings.raw_samples)


def move(gp: GP, x: np.ndarray, box: Box, settings: MPDSettings) -> np.ndarray:
    """Sub-steps along the most probable descent direction while p* >= min_probability.

    The GP is fixed during a move, so each sub-step is a function of the point alone: once a
    point repeats (bitwise), the sub-steps cycle through the same points with p* above the
    threshold, up to `max_substeps`, and the end point is read off the cycle instead of walked
    to. Common in d = 1: the iterate oscillates by one sub-step around the posterior mean's
    minimum, where a confident GP keeps p* high (or sits on the boundary, a cycle of one).
    """
    seen: dict[bytes, int] = {}
    orbit: list[np.ndarray] = []
    for k in range(settings.max_substeps):
        first = seen.setdefault(x.tobytes(), k)
        if first < k:  # x_n = x_(first + (n - first) mod period) for every later n
            return orbit[first + (settings.max_substeps - first) % (k - first)]
        orbit.append(x)
        reference = settings.reference_code
        direction, probability = descent(*gradient_posterior(gp, x, reference), reference)
        if probability < settings.min_probability:
            break
        x = x + settings.step * direction
        x = x if reference else box.project(x)  # the reference code's move is unbounded
    return x


def mpd(
    objective: NoisyObjective,
    kernel: Kernel,
    x0: np.ndarray,
    box: Box,
    rng: np.random.Generator,
    settings: MPDSettings | None = None,
) -> OptimizationResult:
    """Run MPD until the budget is spent; returns the final iterate.

    Args:
        objective: the (noisy) objective with its budget.
        kernel: the GP's kernel (the path's RBF, hyperparameters known).
        x0: (d,) start. box: the domain. rng: the optimizer's own stream.
        settings: `MPDSettings` (None: the defaults).
    """
    settings = settings or MPDSettings()
    d = box.d
    reference = settings.reference_code
    x = box.project(np.array(x0, dtype=float))
    data = Window(
        objective, kernel, settings.window_factor * d, settings.min_noise_var, reference, x
    )
    trace = Trace(progress_every=PROGRESS_EVERY)
    trace.record(objective, x)
    iterations = 0
    while objective.remaining > 0:
        gp = data.observe(x)
        mean = gp.grad_mean(x)
        for _ in range(min(d, objective.remaining)):
            gp = data.observe(sample_point(gp, x, mean, box, rng, settings))
        x = move(gp, x, box, settings)
        iterations += 1
        trace.record(objective, x)
    return finish(
        objective,
        x,
        trace,
        iterations=iterations,
        stop="budget",
        best_observation_value=objective.true_value(data.x),
    )


@register
class MPD(FunctionOptimizer):
    """MPD as a pipeline method (`mpd`)."""

    name = "mpd"
    label = "MPD"
    returned = "final iterate"
    # NaN compares false with any bound: refused
    invalid_settings = ({"restarts": 0}, {"min_noise_var": float("nan")})
    Settings = MPDSettings
    function = staticmethod(mpd)
    default_paths_per_job = 5

    def cost(self, d: int, budget: int) -> Cost:
        """Per evaluation one acquisition optimization (raw samples and L-BFGS-B restarts in d
        dimensions over a window of 5 d points): 2.9 (14 + 0.6 d + 0.0165 d^2) ms, the shape
        fitted to whole runs of 5000 alone on one core (bench/full_run.py: d = 5 / 10 / 20 / 30
        / 50 in 94 / 108 / 167 / 234 / 426 s), the factor to the jobs' logged CPU with both
        cores busy (d = 5 / 10 / 20 / 30 in 302 / 300 / 486 / 626 s,
        bench/results/forecast_check.jsonl); d = 1, a 1-d acquisition, costs a fifth of it. The
        cost is linear in the restarts (default 5): 10 took 2.02x at d = 10, budget 500, and
        1.91x at d = 50, budget 300; doubling the window or quadrupling the raw samples took at
        most 1.08x there (bench/mpd_cost_knobs.py)."""
        per_evaluation = 2.9 * (0.014 + 6e-4 * d + 1.65e-5 * d**2) * self.settings.restarts / 5
        if d == 1:
            per_evaluation /= 5
        return Cost(seconds=budget * per_evaluation + 1.0)
