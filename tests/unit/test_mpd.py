"""MPD: the acquisition's closed form against Monte Carlo over the new observation and its
gradient against finite differences, both against the oracle (the implementation before the
O(n d) rewrite) and a replayed run against the oracle's choices, the probability of descent
against sampled gradients, the move, convergence on a quadratic."""

import copy

import numpy as np
import pytest
from scipy.special import ndtr

from localbo.gp import GP
from localbo.kernels import RBF, Matern52
from localbo.methods.mpd import (
    MPD,
    REFERENCE_CLAMP,
    DownhillQuadratic,
    MPDSettings,
    descent,
    gradient_covariance,
    gradient_posterior,
    move,
    mpd,
    sample_point,
)
from localbo.objective import Box, NoisyObjective
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for
from localbo.window import standardized
from tests.unit.finite_differences import assert_gradient_close, central_difference
from tests.unit.mpd_oracle import DenseDownhillQuadratic
from tests.unit.quadratic import Quadratic
from tests.unit.small_gp import KERNELS, small_gp


def _gp(seed, **kwargs):
    return small_gp("mpd-gp", seed, **kwargs)


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_acquisition_is_the_expected_quadratic_after_observing_the_point(kernel):
    """alpha(z) = E[mu'^T Sigma'^-1 mu'] over y(z) from its predictive law, with mu' and Sigma'
    from the GP that also holds (z, y), by brute force: mu' is linear in y, so the expectation is
    exact with 5 Gauss-Hermite nodes. The gain over mu^T Sigma^-1 mu agrees to 1e-6."""
    gp, _ = _gp(70, kernel=kernel)
    x, z = np.array([0.1, -0.1, 0.0]), np.array([0.25, 0.05, -0.1])
    mean, _ = gradient_posterior(gp, x)
    acquisition = DownhillQuadratic(gp, x, mean)
    value, _ = acquisition(z)
    m, v = gp.mean_and_variance(z[None, :])
    nodes, weights = np.polynomial.hermite_e.hermegauss(5)
    ys = m[0] + np.sqrt(v[0] + gp.noise_var) * nodes
    expected = 0.0
    for y, weight in zip(ys, weights / weights.sum(), strict=True):
        after = GP(kernel, np.vstack([gp.X, z]), np.append(gp.y, y), gp.noise_var)
        mean_after, cov_after = gradient_posterior(after, x)
        expected += weight * mean_after @ np.linalg.solve(cov_after, mean_after)
    gain = value - acquisition.quadratic
    assert gain > 0.3  # the check below is of the gain, not of mu^T Sigma^-1 mu
    assert gain == pytest.approx(expected - acquisition.quadratic, rel=1e-6)


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_acquisition_gradient_matches_finite_differences(kernel):
    gp, _ = _gp(71, kernel=kernel)
    x = np.array([0.1, -0.1, 0.0])
    acquisition = DownhillQuadratic(gp, x, gradient_posterior(gp, x)[0])
    for z in ([0.25, 0.05, -0.1], [-0.15, 0.2, 0.18]):
        z = np.array(z)
        _, grad = acquisition(z)
        assert_gradient_close(grad, central_difference(lambda p: acquisition(p)[0], z), rtol=1e-5)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("d", [1, 3, 10])
def test_the_acquisition_and_its_gradient_are_the_oracles(d, kernel):
    """On a window of 5 d points with the pipeline's nugget: alpha and its gradient at 20 points
    of the box x +- 0.2, one at a time and in one batch (`values`), against the oracle's, to a
    relative 1e-9 (the rounding of the two orders of operations at this conditioning)."""
    rng = rng_for(75, "mpd-oracle", d)
    X = 0.4 * rng.standard_normal((5 * d, d))
    gp = GP(kernel, X, np.sin(X).sum(axis=1), noise_var=1e-6)
    x = X[-1] + 0.05
    mean = gradient_posterior(gp, x)[0]
    ours, oracle = DownhillQuadratic(gp, x, mean), DenseDownhillQuadratic(gp, x, mean)
    Z = x + 0.2 * (2.0 * rng.random((20, d)) - 1.0)
    batch = ours.values(Z)
    for z, value in zip(Z, batch, strict=True):
        (alpha, grad), (alpha_oracle, grad_oracle) = ours(z), oracle(z)
        assert alpha == pytest.approx(alpha_oracle, rel=1e-9)
        assert value == pytest.approx(alpha_oracle, rel=1e-9)
        assert np.abs(grad - grad_oracle).max() <= 1e-9 * np.abs(grad_oracle).max()


@pytest.mark.slow
def test_a_replayed_run_chooses_the_oracles_points_but_at_near_ties(monkeypatch):
    """An MPD run at d = 3 follows the oracle; at each of its sampled points the library, given
    the same state and a copy of the stream, chooses the same point to 1e-6, or one whose oracle
    alpha is within a relative 1e-8 of the oracle's choice (a near-tie of two local maxima,
    where rounding decides; bench/mpd_acquisition.py counts them at paper scale)."""
    outcomes = []

    def both(gp, x, mean, box, rng, settings):
        twin = copy.deepcopy(rng)
        point = sample_point(gp, x, mean, box, rng, settings, DenseDownhillQuadratic)
        other = sample_point(gp, x, mean, box, twin, settings)
        alpha = DenseDownhillQuadratic(gp, x, mean)
        best, second = (alpha(p, with_grad=False)[0] for p in (point, other))
        outcomes.append((np.abs(point - other).max(), abs(best - second) / abs(best)))
        return point

    monkeypatch.setattr("localbo.methods.mpd.sample_point", both)
    path = FourierSamplePath.draw(RBF(), 3, 256, rng_for(76, "mpd-replay-path"))
    mpd(NoisyObjective(path, 0.0, 150), RBF(), np.zeros(3), Box(-5, 5, 3), rng_for(76))
    distances, gaps = np.array(outcomes).T
    assert len(outcomes) > 100
    assert np.mean(distances <= 1e-6) > 0.9
    assert np.all((distances <= 1e-6) | (gaps <= 1e-8))


def test_the_probability_of_descent_is_the_share_of_sampled_gradients_that_descend():
    """p* = Phi(sqrt(mu^T Sigma^-1 mu)) against 200000 gradients from N(mu, Sigma): within 0.005
    (Monte Carlo standard error at most 0.0011)."""
    gp, rng = _gp(72)
    x = np.array([0.2, 0.1, -0.2])
    mean, cov = gradient_posterior(gp, x)
    direction, probability = descent(mean, cov)
    g = rng.multivariate_normal(mean, cov, size=200000)
    assert np.mean(g @ direction < 0) == pytest.approx(probability, abs=0.005)
    assert 0.5 < probability < 1.0


def test_a_zero_gradient_mean_has_no_direction_and_probability_one_half():
    with np.errstate(all="raise"):  # 0 / 0 made the direction NaN with a warning
        direction, probability = descent(np.zeros(3), np.eye(3))
    np.testing.assert_array_equal(direction, np.zeros(3))
    assert probability == 0.5


def test_the_move_stops_where_descent_is_no_longer_probable_and_goes_downhill():
    gp, _ = _gp(73)
    x = np.array([0.2, 0.1, -0.2])
    settings = MPDSettings()
    end = move(gp, x, Box(-1, 1, 3), settings)
    assert descent(*gradient_posterior(gp, end))[1] < settings.min_probability
    assert gp.mean(end[None, :])[0] < gp.mean(x[None, :])[0]
    steps = np.linalg.norm(end - x) / settings.step
    assert 1 <= steps <= settings.max_substeps


def test_mpd_converges_on_a_small_quadratic_and_spends_its_budget():
    f = Quadratic([0.3, -0.2], [1.0, 2.0])
    objective = NoisyObjective(f, 0.0, 120)
    result = mpd(objective, RBF(0.5), np.zeros(2), Box(-1, 1, 2), rng_for(74))
    assert result.evaluations == 120
    assert result.value < 1e-3
    assert result.info["best_observation_value"] < 1e-3


def _walked(gp, x, box, settings):
    """The move without the cycle shortcut: every sub-step walked (the oracle)."""
    for _ in range(settings.max_substeps):
        direction, probability = descent(*gradient_posterior(gp, x))
        if probability < settings.min_probability:
            break
        x = box.project(x + settings.step * direction)
    return x


@pytest.mark.parametrize("max_substeps", [1000, 999, 60])
def test_a_move_that_cycles_ends_where_walking_every_sub_step_ends(max_substeps, monkeypatch):
    """A confident 1-d GP of x^2: the move oscillates around 0 with p* near 1, so only the cycle
    shortcut stops it early; the end point (both parities, and a cap reached before the cycle
    closes) is the walked one, bitwise, and far fewer sub-steps are computed."""
    X = np.linspace(-0.2, 0.2, 5)[:, None]
    gp = GP(RBF(), X, X[:, 0] ** 2, noise_var=1e-6)
    settings = MPDSettings(max_substeps=max_substeps)
    box, x = Box(-1, 1, 1), np.array([0.333])
    calls = []
    monkeypatch.setattr("localbo.methods.mpd.descent", lambda *a: calls.append(1) or descent(*a))
    end = move(gp, x, box, settings)
    monkeypatch.undo()
    walked = _walked(gp, x, box, settings)
    assert end.tobytes() == walked.tobytes()
    assert descent(*gradient_posterior(gp, walked))[1] > settings.min_probability  # it cycles
    assert len(calls) < 60


def test_the_cost_model_follows_the_restarts():
    """Each restart is an L-BFGS-B run of the acquisition: twice the restarts, twice the time
    (the 1 s of start-up aside)."""
    default, doubled = MPD().cost(50, 5000).seconds, MPD(MPDSettings(restarts=10)).cost(50, 5000)
    assert doubled.seconds - 1.0 == pytest.approx(2 * (default - 1.0), rel=1e-12)


def test_the_acquisition_refuses_a_kernel_it_has_no_closed_form_for():
    X = rng_for(71).uniform(-1, 1, (4, 2))
    gp = GP(Matern52(), X, np.zeros(4), 1e-4)
    with pytest.raises(ValueError, match="needs the RBF kernel"):
        DownhillQuadratic(gp, np.zeros(2), np.zeros(2))


def test_the_reference_codes_choices_are_each_what_it_does():
    """Clamped covariance entries, standardized targets, the unit-v probability, an unbounded
    move: each of `reference_code`'s choices, and a run with them that spends its budget."""
    gp, _ = _gp(5, d=3)
    x = np.zeros(3)
    clamped = gradient_covariance(gp, x, clamp=True)
    assert np.all(clamped >= REFERENCE_CLAMP)
    assert np.array_equal(clamped, np.maximum(gradient_covariance(gp, x), REFERENCE_CLAMP))
    y = np.array([2.0, -1.0, 4.0, 0.5])
    assert np.isclose(standardized(y).mean(), 0.0) and np.isclose(standardized(y).std(), 1.0)
    assert standardized(np.array([0.7])) == 0.7  # one observation: the code's target as it is
    mean, cov = gp.grad_mean(x), gradient_covariance(gp, x)
    v = np.linalg.solve(cov, mean)
    code = descent(mean, cov, unit_probability=True)[1]
    assert np.isclose(code, ndtr(np.sqrt(v @ mean / np.linalg.norm(v))))
    # a slope towards the box's edge: the default move stops on it, the reference's leaves it
    f = Quadratic([1.5], [1.0])
    X = np.linspace(0.6, 1.0, 5)[:, None]
    slope = GP(RBF(), X, f(X), 1e-6)
    box = Box(-1.0, 1.0, 1)
    ours = move(slope, np.array([0.9]), box, MPDSettings())
    theirs = move(slope, np.array([0.9]), box, MPDSettings(reference_code=True))
    assert ours[0] <= 1.0 < theirs[0]
    path = FourierSamplePath.draw(RBF(), 2, 256, rng_for(41, "path"))
    result = mpd(
        NoisyObjective(path, 0.0, 40), RBF(), np.zeros(2), Box(-5, 5, 2), rng_for(42),
        MPDSettings(reference_code=True, raw_samples=8, restarts=1),
    )  # fmt: skip
    assert result.evaluations == 40


def test_the_reference_mode_samples_with_the_unclamped_acquisition():
    """The code clamps the gradient covariance in its move only; its acquisition factors the
    covariance after z unclamped, so both modes choose the same point from the same state, and
    the clamped acquisition (which the code never evaluates) is another function."""
    gp, _ = _gp(12, d=3)
    x = np.zeros(3)
    mean = gp.grad_mean(x)
    box = Box(-5.0, 5.0, 3)
    chosen = [
        sample_point(gp, x, mean, box, rng_for(43), MPDSettings(reference_code=reference))
        for reference in (False, True)
    ]
    assert np.array_equal(*chosen)
    Z = x + rng_for(44).uniform(-0.2, 0.2, (16, 3))
    clamped = DownhillQuadratic(gp, x, mean, clamp=True).values(Z)
    assert not np.allclose(clamped, DownhillQuadratic(gp, x, mean).values(Z), rtol=1e-3)
