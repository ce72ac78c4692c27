"""E_{d,k,sigma}(b): the paper's lemmas as checks on the estimate."""

import itertools

import numpy as np
import pytest

from localbo import error_function as ef
from localbo.designs import differencing_design_value
from localbo.error_function import ErrorFunctionSettings
from localbo.kernels import RBF, Matern52
from localbo.seeding import rng_for


@pytest.mark.parametrize("kernel", [RBF(), Matern52()], ids=["rbf", "matern52"])
@pytest.mark.parametrize("d", [1, 3, 6])
def test_noiseless_d_plus_one_points_recover_the_gradient(kernel, d):
    """Lemma 2: E_{d,k,0}(d + 1) = 0 (an infimum approached as the step shrinks; with the
    1e-10 nugget the estimate is below 1e-3 of the prior trace)."""
    est = ef.estimate_error_function(
        kernel, d, d + 1, 0.0, rng_for(0, d), ErrorFunctionSettings(restarts=1)
    )
    prior = d * kernel.grad_grad_diag()
    assert est.value < 1e-3 * prior
    assert ef.noiseless_bound(kernel, d, d + 1) == 0.0
    assert ef.noiseless_bound(kernel, d, 1) == pytest.approx(prior)


@pytest.mark.parametrize("sigma", [0.1, 1.0])
@pytest.mark.parametrize(("d", "m"), [(1, 1), (2, 3), (4, 2), (3, 10)])
def test_estimate_below_lemma_bounds_and_central_design(sigma, d, m):
    b = 2 * m * d
    rbf = ef.estimate_error_function(
        RBF(), d, b, sigma, rng_for(1, d, m), ErrorFunctionSettings(restarts=2, max_iterations=100)
    )
    central = differencing_design_value(RBF(), "central", d, b, sigma**2)
    assert rbf.value <= central.value + 1e-12
    assert central.value <= ef.rbf_lambertw_bound(d, m, sigma) + 1e-9
    # the bound above holds by construction; L-BFGS must also improve on its own starts
    # (by 1.8-50 % on these cases; 0.5 % asked)
    assert min(rbf.restart_values) < 0.995 * min(rbf.start_values)
    matern = ef.estimate_error_function(
        Matern52(),
        d,
        b,
        sigma,
        rng_for(2, d, m),
        ErrorFunctionSettings(restarts=2, max_iterations=100),
    )
    central = differencing_design_value(Matern52(), "central", d, b, sigma**2)
    assert matern.value <= central.value + 1e-12
    assert matern.value <= ef.matern_bound(d, m, sigma)
    assert min(matern.restart_values) < 0.995 * min(matern.start_values)


def test_lbfgs_improves_on_the_central_design():
    """The anchor of the paper's own code at d = 5, b = 100, sigma = 0.1 is 0.1791; the central
    design alone gives 0.196: the full-design optimization must get below both."""
    est = ef.estimate_error_function(
        Matern52(), 5, 100, 0.1, rng_for(3), ErrorFunctionSettings(restarts=1)
    )
    assert est.value < 0.1791
    assert est.value < est.designs[0].value - 0.01


def test_estimate_is_non_increasing_in_b():
    values = [
        ef.estimate_error_function(
            Matern52(),
            2,
            b,
            0.3,
            rng_for(4, b),
            ErrorFunctionSettings(restarts=2, max_iterations=100),
        ).value
        for b in (2, 4, 8, 16, 32)
    ]
    assert all(later <= earlier + 1e-9 for earlier, later in itertools.pairwise(values))


def test_bad_arguments_are_rejected():
    with pytest.raises(ValueError):
        ef.estimate_error_function(RBF(), 0, 4, 0.1, rng_for(0))
    with pytest.raises(ValueError):
        ef.estimate_error_function(RBF(), 2, 4, -0.1, rng_for(0))


def test_defaults_are_the_paper_scale_settings():
    """Called without settings, the library gives the pipeline's numbers (config/config.yaml)."""
    assert ErrorFunctionSettings() == ErrorFunctionSettings(
        restarts=2, max_iterations=300, min_noise_var=1e-10, perturbation=0.3
    )
    with pytest.raises(ValueError, match="restarts"):
        ErrorFunctionSettings(restarts=0)


def test_same_seed_same_estimate():
    a = ef.estimate_error_function(
        Matern52(), 2, 8, 0.1, rng_for(5), ErrorFunctionSettings(restarts=2)
    )
    b = ef.estimate_error_function(
        Matern52(), 2, 8, 0.1, rng_for(5), ErrorFunctionSettings(restarts=2)
    )
    assert a.value == b.value
    np.testing.assert_array_equal(a.design, b.design)
