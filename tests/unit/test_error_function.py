"""E_{d,k,sigma}(b): the paper's lemmas as checks on the estimate."""

import itertools

import numpy as np
import pytest

from localbo import error_function as ef
from localbo.designs import differencing_design_value
from localbo.error_function import ErrorFunctionSettings
from localbo.kernels import KERNELS, RBF, Matern52
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
    # Lemma 3's bound is below the prior's trace d here, so the check below can fail
    assert ef.rbf_lambertw_bound(d, m, sigma) < d * RBF().grad_grad_diag()
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
    # Lemma 4's bound says something only below the prior's trace d * 5/3: at sigma = 0.1 here
    # (0.2-0.6 of it); at sigma = 1 it is 2-9x above it, and no posterior trace can break it
    if sigma == 0.1:
        assert ef.matern_bound(d, m, sigma) < d * Matern52().grad_grad_diag()
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
    with pytest.raises(ValueError, match=r"^restarts: must be >= 1, got 0"):
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


def dense_gradient_trace(Z: np.ndarray, noise_var: float) -> float:
    """tr Cov[grad f(0) | y(Z)] of the unit RBF GP by brute-force conditioning of the joint
    Gaussian of (grad f(0), f(Z) + noise) on the expanded (b, d) design, repeats included."""
    K = np.exp(-0.5 * np.sum((Z[:, None, :] - Z[None, :, :]) ** 2, axis=-1))
    C = (Z * np.exp(-0.5 * np.sum(Z**2, axis=1))[:, None]).T  # Cov(d_i f(0), f(z_j)) = z_ji k
    return float(Z.shape[1] - np.trace(C @ np.linalg.solve(K + noise_var * np.eye(len(Z)), C.T)))


@pytest.mark.parametrize("kind", ["central", "forward"])
@pytest.mark.parametrize(("d", "b", "sigma"), [(1, 4, 0.1), (2, 9, 1.0), (3, 12, 0.01)])
def test_rbf_differencing_design_values_are_the_brute_force_trace(kind, d, b, sigma):
    """The merged-repeats value at the optimal step equals the dense trace of the expanded
    design (rtol 1e-9), and a 10 % longer or shorter step is no better (the step is optimal)."""
    dv = differencing_design_value(RBF(), kind, d, b, sigma**2)
    assert dv.value == pytest.approx(dense_gradient_trace(dv.expanded(d, b), sigma**2), rel=1e-9)
    for factor in (0.9, 1.1):
        assert dense_gradient_trace(factor * dv.expanded(d, b), sigma**2) >= dv.value - 1e-12


def test_lemma_3_uses_the_pairs_a_batch_pays_for():
    """m = floor(b / 2d); no bound below b = 2d; the bound at a b between multiples of 2d is the
    one at the multiple below."""
    assert [ef.rbf_pairs(3, b) for b in (5, 6, 11, 12, 13)] == [0, 1, 1, 2, 2]
    assert np.isnan(ef.paper_bound("rbf", 3, 5, 0.1))
    assert ef.paper_bound("rbf", 3, 11, 0.1) == ef.rbf_lambertw_bound(3, 1, 0.1)
    assert ef.paper_bound("rbf", 3, 12, 0.1) < ef.paper_bound("rbf", 3, 11, 0.1)


@pytest.mark.parametrize("sigma", [0.01, 0.1, 1.0])
def test_lemma_3s_taylor_form_bounds_the_lambert_form_and_meets_it_for_large_m(sigma):
    """1 + W(x) <= sqrt(2 (1 + e x)) on [-1/e, 0] (the paper's appendix), with equality in the
    limit x -> -1/e, i.e. m / sigma^2 -> infinity: ratio within 1 % at m = 1e8 sigma^2."""
    for m in (1, 4, 50, 2000):
        assert ef.rbf_lambertw_bound(5, m, sigma) <= ef.rbf_taylor_bound(5, m, sigma)
    m = 1e4 * sigma**2 * 1e4
    assert ef.rbf_taylor_bound(5, m, sigma) / ef.rbf_lambertw_bound(5, m, sigma) < 1.01
    assert ef.rbf_taylor_bound(5, m, sigma) <= np.sqrt(2) * sigma * 5 / np.sqrt(m)


def test_every_kernel_has_a_paper_bound_and_its_lemma_named():
    """Fig. 2 may run with any kernel of the registry: each has a bound and a legend entry."""
    assert set(ef.PAPER_BOUND_LEMMAS) == set(KERNELS)
    for name in KERNELS:
        assert ef.paper_bound(name, 2, 40, 0.1) > 0


@pytest.mark.parametrize(("d", "m", "sigma"), [(1, 1, 0.1), (10, 50, 1.0), (100, 5, 0.01)])
def test_fig2s_line_is_lemma_4s_leading_term(d, m, sigma):
    """The line Fig. 2 draws, 15 sqrt(2) / 2 sigma d^{3/2} b^{-1/2}, is at b = 2 m d the first
    term of Lemma 4's bound, 7.5 sigma d m^{-1/2}; the full bound adds a positive second term."""
    line = ef.matern_leading_bound(d, 2 * m * d, sigma)
    assert line == pytest.approx(7.5 * sigma * d / np.sqrt(m), rel=1e-12)
    assert line < ef.matern_bound(d, m, sigma)
    assert ef.paper_bound("matern52", d, 2 * m * d, sigma) == line
