"""Is a number one more draw of ours? Predictive p-values for one number against our draws.

A number the paper states is judged as one more draw of the random procedure that made ours
(another path, another median over paths, another draw of an estimate's random parts). Each
function gives a predictive p-value: were the number drawn as ours are, the probability of one
at least as atypical of ours. "Inconsistent when p <= alpha" then calls a number drawn as ours
inconsistent with probability alpha (at most alpha where the p-value is discrete), whatever the
distribution: multimodal, skewed, or nearly a point.

The paper prints its numbers rounded ("-12.9"), so its number differs from its procedure's by a
rounding error of at most half a unit of the last printed digit (`half_unit`). Where the
printed grid has no relation to the value, that error is uniform on [-h, h]; each rule takes it
as one more random part, so that it stays calibrated when our procedure is (nearly)
deterministic: our draws get an error of their own from the same law (`rank_p_value`,
`density_p_value`), or the predictive law is convolved with it (`median_p_value`).

- `rank_p_value`: one more draw of a scalar (a path's value): the rank of the number among our
  n values. Exact: with n = 19 and alpha = 0.1, inconsistent exactly outside the range of ours.
- `median_p_value`: the median of m draws (the paper's median over its paths) against our n
  values. Were the m drawn as ours, the count of our values below their median follows a
  beta-binomial law whatever the distribution (exact for odd m, within a point for even m);
  spread over the gaps between our order statistics, it is the median's predictive law.
- `density_p_value`: one draw of a vector (an estimate): full-conformal, with a Gaussian kernel
  density (`scipy.stats.gaussian_kde`) of our draws and the number together, its bandwidth
  chosen by leave-one-out likelihood on them all; p is the share of the n + 1 points whose
  density is no higher than the number's. A number in the gap between two modes of ours is
  atypical, however central it is.

Example:
    >>> rng = np.random.default_rng(0)
    >>> rank_p_value(np.arange(19.0), -1.0, 0.0, rng)  # below all 19: 2 / 20
    0.1
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

# Bandwidth factors tried by the leave-one-out likelihood (scipy's factor: the kernel's
# covariance is factor^2 times the points' covariance); Scott's rule gives 0.35-0.41 for 200
# points in one or two dimensions, far too wide for two modes of unequal spread.
BANDWIDTH_FACTORS = np.geomspace(0.005, 2.0, 49)
# Points of the uniform rounding error averaged over in the median's predictive law
ROUNDING_POINTS = 401


def half_unit(printed: str) -> float:
    """Half a unit of the last digit of a number as printed: its largest rounding error.

    Example:
        >>> half_unit("-12.9"), half_unit("2.06e-5"), half_unit("36")
        (0.05, 5e-08, 0.5)
    """
    mantissa, _, exponent = printed.strip().lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (int(exponent or 0) - decimals)


def _rounded(x: np.ndarray, h: float | np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """x with a uniform error on [-h, h] per entry (the rounding the paper's number carries)."""
    h = np.asarray(h, dtype=float)
    if not np.any(h):
        return x
    return x + rng.uniform(-1.0, 1.0, size=x.shape) * h


def rank_p_value(
    ours: np.ndarray, value: float, half_unit: float, rng: np.random.Generator
) -> float:
    """Two-sided rank p-value of `value` as one more of `ours` (n,).

    With R the rank of the value among the n + 1, p = 2 min(R, n + 2 - R) / (n + 1), capped at
    1: a value below (or above) all n has p = 2 / (n + 1). Ours get the rounding error of the
    value (`half_unit`; `rng` draws it); a tie counts on neither side.
    """
    x = _rounded(np.asarray(ours, dtype=float), half_unit, rng)
    below, above = int(np.sum(x < value)), int(np.sum(x > value))
    return min(1.0, 2 * (min(below, above) + 1) / (len(x) + 1))


def rank_agreement(ours: np.ndarray, alpha: float) -> tuple[float, float]:
    """The values whose `rank_p_value` exceeds alpha (without rounding): between the k-th
    smallest and k-th largest of ours, k = floor(alpha (n + 1) / 2) + 1; (-inf, inf) when no
    value can reach alpha (fewer than 2 / alpha - 1 values of ours).

    Example:
        >>> rank_agreement(np.arange(19.0), 0.1)
        (0.0, 18.0)
    """
    x = np.sort(np.asarray(ours, dtype=float))
    k = int(np.floor(alpha * (len(x) + 1) / 2 + 1e-9))  # values outside on each side
    if k == 0:
        return -np.inf, np.inf
    return float(x[k - 1]), float(x[len(x) - k])


def median_cdf(ours: np.ndarray, count: int, half_unit: float) -> Callable[[float], float]:
    """The predictive law of the median of `count` more draws, printed to `half_unit`, from
    `ours` (n,): its CDF.

    Were the count draws from the law of ours, the number K of ours below their median is
    beta-binomial (n, r, count + 1 - r) with r = (count + 1) / 2, whatever the law (exact for
    odd count: the median is then the r-th order statistic). K = j puts the median between the
    j-th and (j + 1)-th smallest of ours; there the CDF is taken as linear, and the mass below
    the smallest (above the largest) sits on it. The rounding error is convolved in.
    """
    from scipy import stats

    x = np.sort(np.asarray(ours, dtype=float))
    n, r = len(x), (count + 1) / 2
    mass = stats.betabinom.pmf(np.arange(n + 1), n, r, count + 1 - r)
    at_order_statistics = np.cumsum(mass)[:-1]  # P(median <= x[j]) = P(K <= j)

    def exact(t: np.ndarray) -> np.ndarray:
        inside = np.interp(t, x, at_order_statistics)
        return np.where(t < x[0], 0.0, np.where(t >= x[-1], 1.0, inside))

    errors = half_unit * np.linspace(-1.0, 1.0, ROUNDING_POINTS)
    return lambda t: float(np.mean(exact(t - errors)))


def median_p_value(ours: np.ndarray, value: float, count: int, half_unit: float) -> float:
    """Two-sided p-value of `value` as the median of `count` more draws printed to `half_unit`,
    from `ours` (n,): 2 min(G(value), 1 - G(value)) for `median_cdf` G, capped at 1."""
    g = median_cdf(ours, count, half_unit)(value)
    return min(1.0, 2 * min(g, 1 - g))


def median_agreement(
    ours: np.ndarray, count: int, half_unit: float, alpha: float
) -> tuple[float, float]:
    """The values whose `median_p_value` exceeds alpha: between the alpha / 2 and 1 - alpha / 2
    quantiles of `median_cdf`."""
    from scipy import optimize

    cdf = median_cdf(ours, count, half_unit)
    low, high = np.min(ours) - half_unit - 1.0, np.max(ours) + half_unit + 1.0
    return tuple(  # type: ignore[return-value]
        float(optimize.brentq(lambda t, q=q: cdf(t) - q, low, high, xtol=1e-12))
        for q in (alpha / 2, 1 - alpha / 2)
    )


def density_p_value(
    ours: np.ndarray, value: np.ndarray, half_units: np.ndarray, rng: np.random.Generator
) -> float:
    """Full-conformal density p-value of `value` (p,) as one more of `ours` (n, p).

    Ours get the value's rounding error (`half_units` (p,), one per component); a Gaussian KDE
    of the n + 1 points together, at the bandwidth of `likelihood_bandwidth`, scores each; p is
    the share of the n + 1 whose density is no higher than the value's. Every step treats the
    n + 1 points alike, so under exchangeability p is uniform on {1, ..., n + 1} / (n + 1).

    Raises:
        numpy.linalg.LinAlgError: ours and the value do not span the p dimensions (a component
            constant and printed exactly).
    """
    from scipy import stats

    x = np.atleast_2d(np.asarray(ours, dtype=float).reshape(len(ours), -1))
    points = np.vstack([_rounded(x, half_units, rng), np.reshape(value, (1, -1))])
    kde = stats.gaussian_kde(points.T, bw_method=likelihood_bandwidth(points))
    density = kde(points.T)
    return float(np.mean(density <= density[-1]))


def likelihood_bandwidth(points: np.ndarray) -> float:
    """The `BANDWIDTH_FACTORS` entry that maximizes the leave-one-out log likelihood of the
    Gaussian KDE of `points` (N, p) (scipy's factor: the kernel's covariance is its square times
    the points' covariance)."""
    centred = points - points.mean(axis=0)
    covariance = np.atleast_2d(np.cov(points.T))
    whitened = centred @ np.linalg.cholesky(np.linalg.inv(covariance))
    squared = np.sum((whitened[:, None, :] - whitened[None, :, :]) ** 2, axis=-1)
    np.fill_diagonal(squared, np.inf)  # leave each point out of its own density
    # per factor f: sum over i of log sum_{j != i} exp(-q_ij / 2 f^2), less N p log f (+ const);
    # the nearest other point's term is factored out of each sum, so none underflows to zero
    nearest = squared.min(axis=1)
    exponent = -0.5 * (squared - nearest[:, None])[None] / BANDWIDTH_FACTORS[:, None, None] ** 2
    loo = np.log(np.exp(exponent).sum(axis=2)).sum(axis=1)
    loo -= 0.5 * nearest.sum() / BANDWIDTH_FACTORS**2
    loo -= len(points) * points.shape[1] * np.log(BANDWIDTH_FACTORS)
    return float(BANDWIDTH_FACTORS[np.argmax(loo)])
