"""MinUCB: the gradient information against brute-force conditioning and its gradient against
finite differences, the move against the bound it minimizes, the reference mode's budget."""

import numpy as np
import pytest

from localbo.gp import GP
from localbo.kernels import RBF, Matern52
from localbo.methods.minucb import (
    GradientInformation,
    MinUCB,
    MinUCBSettings,
    minucb,
    move,
    sample_point,
)
from localbo.objective import Box, NoisyObjective
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for
from tests.unit.finite_differences import assert_gradient_close, central_difference
from tests.unit.small_gp import KERNELS, small_gp


def _gp(seed, **kwargs):
    return small_gp("minucb-gp", seed, **kwargs)[0]


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_information_is_the_fall_of_the_gradients_variance_after_observing_the_point(kernel):
    """tr Cov(grad f(x) | D) - tr Cov(grad f(x) | D, y(z)), the second from a GP that holds z
    too (its y does not enter a covariance), equals alpha(z) to 1e-9 relative."""
    gp = _gp(80, kernel=kernel)
    x = np.array([0.1, -0.1, 0.0])
    information = GradientInformation(gp, x)
    for z in ([0.25, 0.05, -0.1], [-0.2, 0.3, 0.1], [1.5, -1.0, 0.5]):
        z = np.array(z)
        after = GP(kernel, np.vstack([gp.X, z]), np.append(gp.y, 0.0), gp.noise_var)
        fall = np.trace(gp.grad_cov(x)) - np.trace(after.grad_cov(x))
        assert fall > 1e-6
        assert information(z)[0] == pytest.approx(fall, rel=1e-9)
        assert information.values(z[None, :])[0] == pytest.approx(fall, rel=1e-9)


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_information_gradient_matches_finite_differences(kernel):
    gp = _gp(81, kernel=kernel)
    x = np.array([0.1, -0.1, 0.0])
    information = GradientInformation(gp, x)
    for z in ([0.25, 0.05, -0.1], [-0.15, 0.2, 0.18], [0.6, -0.4, 0.3]):
        z = np.array(z)
        _, grad = information(z)
        numeric = central_difference(lambda p: information(p)[0], z)
        assert_gradient_close(grad, numeric, rtol=1e-5)


def test_the_information_needs_the_rbf_kernel():
    gp = GP(Matern52(), np.zeros((1, 2)), np.zeros(1), 1e-3)
    with pytest.raises(ValueError, match="RBF"):
        GradientInformation(gp, np.zeros(2))


def test_a_sample_lies_in_the_box_around_the_iterate_clipped_to_the_domain_except_as_the_code():
    gp, box = _gp(82, d=2, n=5), Box(-1.0, 1.0, 2)
    x = np.array([0.95, 0.0])
    ours = sample_point(gp, x, box, rng_for(0, "s"), MinUCBSettings())
    assert np.all(np.abs(ours - x) <= 0.25 + 1e-12) and np.all(ours <= 1.0)
    coded = [
        sample_point(gp, x, box, rng_for(i, "s"), MinUCBSettings(reference_code=True))
        for i in range(20)
    ]
    assert max(z[0] for z in coded) > 1.0  # the code's box is not clipped to the domain


def test_the_move_lowers_the_upper_bound_and_stays_in_the_domain():
    gp, box = _gp(83, d=3, n=10), Box(-0.5, 0.5, 3)
    x = gp.X[0]
    end = move(gp, x, box, 3.0)

    def bound(p):
        mean, variance = gp.mean_and_variance(p[None, :])
        return mean[0] + 3.0 * np.sqrt(variance[0])

    assert np.all(np.abs(end) <= 0.5)
    assert bound(end) < bound(x) - 1e-3


def _objective(d, budget, sigma=0.0, seed=0):
    path = FourierSamplePath.draw(RBF(), d, 256, rng_for(seed, "minucb-path", d))
    return NoisyObjective(path, sigma, budget, rng_for(seed, "minucb-noise", d))


@pytest.mark.parametrize(("reference", "per_iteration"), [(False, 1), (True, 2)])
def test_an_iteration_costs_d_plus_one_evaluations_the_codes_d_plus_two(reference, per_iteration):
    d, iterations = 3, 4
    budget = iterations * (d + per_iteration)
    result = minucb(
        _objective(d, budget),
        RBF(),
        np.zeros(d),
        Box(-5.0, 5.0, d),
        rng_for(0, "minucb"),
        MinUCBSettings(reference_code=reference),
    )
    assert result.evaluations == budget and result.info["iterations"] == iterations


def test_it_ends_where_the_gradient_is_small_and_its_best_observation_is_no_worse():
    d = 2
    objective = _objective(d, 150, seed=3)
    result = MinUCB().minimize(objective, RBF(), np.zeros(d), Box(-5.0, 5.0, d), rng_for(3, "m"))
    assert np.linalg.norm(objective.true_gradient(result.x)) < 1e-2
    assert result.info["best_observation_value"] <= result.value + 1e-9
    assert result.value < objective.true_value(np.zeros(d)) - 0.1
