"""Type-II maximum likelihood (ML-II) for a GP with a constant mean.

The hyperparameters are the constant prior mean m, the lengthscale l, the outputscale s2 and the
noise variance sigma^2. With r = y - m, K = s2 Phi(R) + sigma^2 I, Phi the kernel's radial profile
at the scaled distances R = ||x_i - x_j|| / l, and alpha = K^{-1} r, the negative log marginal
likelihood and its gradient are

    N(theta)         = 1/2 r^T alpha + 1/2 log det K + n/2 log(2 pi)
    dN / dm          = -1^T alpha
    dN / d theta_j   = -1/2 tr((alpha alpha^T - K^{-1}) dK / d theta_j)   (theta_j = log l, ...)
    dK / d log s2    = s2 Phi(R),
    dK / d log l     = -s2 phi'(R) R = -s2 slope(R) R^2,
    dK / d log sigma^2 = sigma^2 I,

(Rasmussen & Williams 2006, eq. 5.8-5.9). The positive hyperparameters are optimized in log space
by L-BFGS-B inside box bounds, from several random starts; the best local optimum wins. The box
keeps the fit away from the degenerate ends of the likelihood (a lengthscale so short that the
observations are independent, or a noise variance of zero), which few points cannot rule out.

References:
    Rasmussen & Williams (2006), Gaussian Processes for Machine Learning, sections 5.4.1 and 5.9;
    the paper, section 6.3 (hyperparameters of the gradient-estimation experiments by ML-II).
"""

from __future__ import annotations

import logging
import math
from dataclasses import asdict, dataclass

import numpy as np

from localbo import full_batch_lbfgs
from localbo.full_batch_lbfgs import OPTIMIZERS, FullBatchLBFGSSettings
from localbo.gp import GP
from localbo.kernels import Kernel, make_kernel
from localbo.linalg import cho_solve, cholesky

log = logging.getLogger(__name__)

LOG_2PI = np.log(2.0 * np.pi)


class FitFailed(ArithmeticError):
    """The paper code's fit stepped to a lengthscale so short that GPyTorch's squared distances
    overflow (`gpytorch_distances_overflow`): the code's kernel matrix is NaN off its diagonal
    there and it stops with linear_operator's NanError, and so does this fit."""


@dataclass(frozen=True)
class Hyperparameters:
    """The four ML-II hyperparameters of a constant-mean GP."""

    mean: float
    lengthscale: float
    outputscale: float
    noise_var: float

    def as_dict(self) -> dict[str, float]:
        return {k: float(v) for k, v in asdict(self).items()}


FIT_STARTS = ("random", "gpytorch")
# GPyTorch's initial values (raw parameters 0): softplus(0) = ln 2, the noise above its 1e-4 floor
GPYTORCH_START = (0.0, np.log(np.log(2.0)), np.log(np.log(2.0)), np.log(np.log(2.0) + 1e-4))
# The paper code's fit (utils.update_model): full-batch L-BFGS with lr 1 and at most 20
# line-search trials (utils.py lines 81 and 96)
CODE_FIT_STEPS = FullBatchLBFGSSettings(initial_step=1.0, max_line_search=20)
# torch.nn.functional.softplus returns its argument above this (its default threshold)
SOFTPLUS_THRESHOLD = 20.0


@dataclass(frozen=True)
class FitSettings:
    """Knobs of the ML-II fit; the defaults are the paper-scale pipeline's
    (`gradient_estimation.fit`). The mean is unconstrained; the other three live in boxes.

    Attributes:
        optimizer: "lbfgsb", scipy's L-BFGS-B on N in log space inside the boxes below, or
            "full_batch_lbfgs", the paper code's fit: `localbo.full_batch_lbfgs` with
            `CODE_FIT_STEPS` on N / n (GPyTorch's ExactMarginalLogLikelihood, negated) in
            GPyTorch's parameters, each positive hyperparameter low + softplus(raw) (its
            Positive and GreaterThan constraints); a box's low is that floor and its high must
            be infinite; one run from the gpytorch start.
        restarts: runs from random starts (>= 1); the least N wins.
        max_iterations: iteration cap per start.
        lengthscale_bounds: (low, high) of l. With queries at only two distinct locations the
            marginal likelihood grows as l shrinks, so the lower bound decides such fits: 0.1 is
            about the distance from x to its queries in the gradient-estimation designs.
        outputscale_bounds: (low, high) of s2.
        noise_var_bounds: (low, high) of sigma^2; a positive floor keeps K well conditioned
            (1e-4 is the noise floor of the paper's GPyTorch likelihood).
        start: "random" (every start uniform in the log box, the mean uniform between min(y)
            and max(y)) or "gpytorch" (the initial values of the paper's GPyTorch model: mean
            0, lengthscale and outputscale softplus(0) = ln 2, noise ln 2 + 1e-4, clipped to the
            box; deterministic, so one start).
    """

    optimizer: str = "lbfgsb"
    restarts: int = 10
    max_iterations: int = 500
    lengthscale_bounds: tuple[float, float] = (0.1, 100.0)
    outputscale_bounds: tuple[float, float] = (1e-6, 1e4)
    noise_var_bounds: tuple[float, float] = (1e-4, 10.0)
    start: str = "random"

    def __post_init__(self) -> None:
        if self.restarts < 1:
            raise ValueError(f"restarts must be >= 1, got {self.restarts}")
        if self.start not in FIT_STARTS:
            raise ValueError(f"unknown start {self.start!r}; known: {FIT_STARTS}")
        if self.start == "gpytorch" and self.restarts != 1:
            raise ValueError("the gpytorch start is one deterministic start: restarts must be 1")
        if self.optimizer not in OPTIMIZERS:
            raise ValueError(f"unknown optimizer {self.optimizer!r}; known: {OPTIMIZERS}")
        code = self.optimizer == "full_batch_lbfgs"
        if code and self.start != "gpytorch":
            raise ValueError("the full_batch_lbfgs fit runs from the gpytorch start")
        for name in ("lengthscale_bounds", "outputscale_bounds", "noise_var_bounds"):
            low, high = getattr(self, name)
            if code and not (0 <= low < math.inf and high == math.inf):  # low + softplus(raw)
                raise ValueError(f"{name}: need 0 <= low and high .inf, got {(low, high)}")
            if not code and not 0 < low < high < math.inf:  # the fit runs in log space
                raise ValueError(f"{name}: need finite bounds 0 < low < high, got {(low, high)}")

    def log_box(self) -> np.ndarray:
        """(3, 2) array of log-bounds for (log l, log s2, log sigma^2)."""
        bounds = [self.lengthscale_bounds, self.outputscale_bounds, self.noise_var_bounds]
        return np.log(np.asarray(bounds, dtype=float))


def _unpack(theta: np.ndarray) -> tuple[float, float, float, float]:
    m, log_l, log_s2, log_n = theta
    return float(m), float(np.exp(log_l)), float(np.exp(log_s2)), float(np.exp(log_n))


def negative_log_marginal_likelihood(
    theta: np.ndarray, kernel: Kernel, X: np.ndarray, y: np.ndarray
) -> tuple[float, np.ndarray]:
    """N(theta) and its analytic gradient.

    Args:
        theta: (4,) array (m, log l, log s2, log sigma^2).
        kernel: any kernel of the family; its own hyperparameters are ignored.
        X: (n, d) inputs. y: (n,) observations.

    Returns:
        (value, grad) with grad the (4,) gradient in theta.

    Example:
        >>> from localbo.kernels import Matern52
        >>> X = np.linspace(0, 1, 5)[:, None]
        >>> value, grad = negative_log_marginal_likelihood(np.zeros(4), Matern52(), X, X[:, 0])
        >>> grad.shape
        (4,)
    """
    m, ell, s2, noise = _unpack(theta)
    n = len(y)
    R = kernel.with_params(ell, 1.0).distance(X, X)  # s2 may underflow to 0 (the code's fit)
    Phi, slope = kernel.value_and_slope(R)
    K = s2 * Phi
    K[np.diag_indices_from(K)] += noise
    L, _ = cholesky(K)
    r = y - m
    alpha = cho_solve(L, r)
    value = 0.5 * float(r @ alpha) + float(np.sum(np.log(np.diagonal(L)))) + 0.5 * n * LOG_2PI
    W = np.outer(alpha, alpha) - cho_solve(L, np.eye(n))  # alpha alpha^T - K^{-1}
    grad = np.array(
        [
            -float(np.sum(alpha)),
            0.5 * s2 * float(np.sum(W * slope * R**2)),
            -0.5 * s2 * float(np.sum(W * Phi)),
            -0.5 * noise * float(np.trace(W)),
        ]
    )
    return value, grad


@dataclass(frozen=True)
class FitResult:
    """Outcome of `fit_hyperparameters`.

    Attributes:
        params: the best hyperparameters found.
        nlml: N at params.
        restart_nlml: (restarts,) final N of each restart.
        at_bound: names of the log-parameters that ended within 1e-6 of a bound.
    """

    params: Hyperparameters
    nlml: float
    restart_nlml: np.ndarray
    at_bound: tuple[str, ...]


def fit_hyperparameters(
    kernel_name: str,
    X: np.ndarray,
    y: np.ndarray,
    rng: np.random.Generator,
    settings: FitSettings | None = None,
    start: Hyperparameters | None = None,
    fixed_mean: bool = False,
) -> FitResult:
    """ML-II: minimize N(theta) by L-BFGS-B from `restarts` random starts, or as the paper's
    code does (`FitSettings.optimizer` "full_batch_lbfgs": one deterministic run, `rng` unused).

    Starts draw (log l, log s2, log sigma^2) uniformly in the log box and m uniformly between
    min(y) and max(y).

    Args:
        kernel_name: "rbf" or "matern52".
        X: (n, d) inputs. y: (n,) observations.
        rng: stream of the random starts.
        settings: `FitSettings` (None: the defaults): starts, iterations, the box.
        start: one start from these hyperparameters (clipped to the box) instead of the
            settings' starts: a fit warm-started from an earlier one, or a model's own initial
            values.
        fixed_mean: hold the mean at 0 instead of fitting it (GPyTorch's zero mean; on targets
            the caller standardized, the mean of the observations).

    Returns:
        A `FitResult`.

    Raises:
        FitFailed: the full_batch_lbfgs fit stepped where the paper's code stops.
    """
    from scipy.optimize import minimize

    settings = settings or FitSettings()
    kernel = make_kernel(kernel_name)
    X = np.asarray(X, dtype=float).reshape(len(y), -1)
    y = np.asarray(y, dtype=float)
    if settings.optimizer == "full_batch_lbfgs":
        if start is not None or fixed_mean:
            raise ValueError("the full_batch_lbfgs fit starts where GPyTorch does, its mean free")
        return _fit_as_gpytorch(kernel, X, y, settings)
    box = settings.log_box()
    lo, hi = (0.0, 0.0) if fixed_mean else (float(np.min(y)), float(np.max(y)))
    scipy_bounds = [(lo, hi) if fixed_mean else (None, None), *map(tuple, box)]
    best, finals = None, []
    initial = np.array(GPYTORCH_START)
    if start is not None:
        initial = np.log([1.0, start.lengthscale, start.outputscale, start.noise_var])
        initial[0] = 0.0 if fixed_mean else start.mean
    for _ in range(1 if start is not None else settings.restarts):
        if start is not None or settings.start == "gpytorch":
            theta0 = np.concatenate([initial[:1], np.clip(initial[1:], box[:, 0], box[:, 1])])
        else:
            theta0 = np.concatenate([[rng.uniform(lo, hi)], rng.uniform(box[:, 0], box[:, 1])])
        try:
            res = minimize(
                negative_log_marginal_likelihood,
                theta0,
                args=(kernel, X, y),
                jac=True,
                method="L-BFGS-B",
                bounds=scipy_bounds,
                options={"maxiter": settings.max_iterations, "ftol": 1e-12, "gtol": 1e-8},
            )
        except np.linalg.LinAlgError as error:  # K not factorizable even with jitter
            log.warning("ML-II start %s abandoned: %s", theta0, error)
            finals.append(np.inf)
            continue
        finals.append(float(res.fun))
        if best is None or res.fun < best.fun:
            best = res
    if best is None:
        raise np.linalg.LinAlgError("ML-II: no start could factor its kernel matrix")
    m, ell, s2, noise = _unpack(best.x)
    names = ("lengthscale", "outputscale", "noise_var")
    near = np.minimum(np.abs(best.x[1:] - box[:, 0]), np.abs(best.x[1:] - box[:, 1])) < 1e-6
    return FitResult(
        params=Hyperparameters(mean=m, lengthscale=ell, outputscale=s2, noise_var=noise),
        nlml=float(best.fun),
        restart_nlml=np.asarray(finals),
        at_bound=tuple(name for name, hit in zip(names, near, strict=True) if hit),
    )


def softplus(raw: np.ndarray) -> np.ndarray:
    """log(1 + e^raw), and raw itself above `SOFTPLUS_THRESHOLD`, as torch computes it."""
    raw = np.asarray(raw, dtype=float)
    return np.where(raw > SOFTPLUS_THRESHOLD, raw, np.log1p(np.exp(np.minimum(raw, 30.0))))


def gpytorch_loss(
    raw: np.ndarray, kernel: Kernel, X: np.ndarray, y: np.ndarray, floors: np.ndarray
) -> tuple[float, np.ndarray]:
    """N / n in GPyTorch's raw parameters and its gradient: the paper code's fit loss.

    Args:
        raw: (4,) (m, raw l, raw s2, raw sigma^2); each positive hyperparameter is
            floor + softplus(raw). kernel: any kernel of the family. X: (n, d) inputs.
            y: (n,) observations. floors: (3,) floors of (l, s2, sigma^2).

    Returns:
        (value, grad) with grad the (4,) gradient in raw.

    Raises:
        FitFailed: the lengthscale is so short that GPyTorch's squared distances overflow
            (`gpytorch_distances_overflow`), where the paper's code stops.
    """
    positive = floors + softplus(raw[1:])
    if gpytorch_distances_overflow(X, positive[0]):
        raise FitFailed(f"the fit stepped to raw parameters {raw.tolist()}, where GPyTorch's "
                        "squared distances overflow")  # fmt: skip
    with np.errstate(divide="ignore"):  # an outputscale underflowing to 0 (GPyTorch goes on)
        theta = np.concatenate([raw[:1], np.log(positive)])
    value, grad = negative_log_marginal_likelihood(theta, kernel, X, y)
    # d log p / d raw = softplus'(raw) / p, softplus' the logistic function (1 above the
    # threshold); where p underflows to 0, so does softplus', and the gradient is 0
    slope = np.where(raw[1:] > SOFTPLUS_THRESHOLD, 1.0, 0.5 * (1.0 + np.tanh(raw[1:] / 2.0)))
    raw_grad = np.divide(grad[1:] * slope, positive, out=np.zeros(3), where=positive > 0)
    n = len(y)
    return value / n, np.concatenate([grad[:1], raw_grad]) / n


def gpytorch_distances_overflow(X: np.ndarray, lengthscale: float) -> bool:
    """Whether GPyTorch's Matern kernel of X (n, d) at this lengthscale has non-finite squared
    distances off its diagonal: it centres X and divides by the lengthscale
    (`MaternCovariance.forward`), centres again and expands ||a - b||^2 = ||a||^2 + ||b||^2 -
    2 a.b (`gpytorch.kernels.kernel.sq_dist`), which overflows to inf - inf once the squared
    norms pass the float64 range, and sets the diagonal to 0."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        scaled = (X - X.mean(axis=0)) / lengthscale
        scaled = scaled - scaled.mean(axis=0)
        norms = np.sum(scaled**2, axis=1)
        squared = -2.0 * scaled @ scaled.T + norms[:, None] + norms[None, :]
    np.fill_diagonal(squared, 0.0)
    return not np.all(np.isfinite(squared))


def _fit_as_gpytorch(kernel: Kernel, X: np.ndarray, y: np.ndarray, s: FitSettings) -> FitResult:
    """The paper code's fit (`FitSettings.optimizer` "full_batch_lbfgs"): `gpytorch_loss`
    minimized from raw 0 (GPyTorch's initial values) by `CODE_FIT_STEPS`."""
    floors = np.array([s.lengthscale_bounds[0], s.outputscale_bounds[0], s.noise_var_bounds[0]])
    result = full_batch_lbfgs.minimize(
        lambda raw: gpytorch_loss(raw, kernel, X, y, floors),
        np.zeros(4),
        s.max_iterations,
        CODE_FIT_STEPS,
    )
    ell, s2, noise = floors + softplus(result.x[1:])
    nlml = len(y) * result.value
    return FitResult(
        params=Hyperparameters(float(result.x[0]), float(ell), float(s2), float(noise)),
        nlml=nlml,
        restart_nlml=np.array([nlml]),
        at_bound=(),
    )


def fitted_gp(kernel_name: str, params: Hyperparameters, X: np.ndarray, y: np.ndarray) -> GP:
    """The exact GP with the fitted hyperparameters, conditioned on (X, y)."""
    kernel = make_kernel(kernel_name, params.lengthscale, params.outputscale)
    return GP(kernel, X, y, noise_var=params.noise_var, mean=params.mean)
