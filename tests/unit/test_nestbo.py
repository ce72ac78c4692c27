"""NeST-BO: the Newton information against brute-force conditioning and its gradient against
finite differences, the mean's Hessian against finite differences of its gradient, the move's
two branches, the budget."""

import numpy as np
import pytest

from localbo.gp import GP
from localbo.kernels import RBF, Matern52
from localbo.methods.nestbo import (
    NeSTBO,
    NeSTBOSettings,
    NewtonInformation,
    mean_derivatives,
    nestbo,
    newton_move,
)
from localbo.objective import Box, NoisyObjective
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for
from tests.unit.finite_differences import assert_gradient_close, central_difference
from tests.unit.nestbo_oracle import RebuiltNewtonInformation
from tests.unit.small_gp import KERNELS, small_gp


def _gp(seed, **kwargs):
    return small_gp("nestbo-gp", seed, **kwargs)[0]


def _explained(kernel, X, noise_var, x, hessian_scale=1.0, step=1e-4):
    """tr of the prior-minus-posterior covariances of grad f(x) and of Hess f(x)'s entries (the
    Hessian's times hessian_scale^2) given y(X), from the kernel matrix solved directly and the
    cross-covariances by finite differences of k(., X) (central, of the closed-form gradient for
    the Hessian)."""
    K = kernel(X, X) + noise_var * np.eye(len(X))
    G = kernel.grad_x(x, X)  # (d, n)
    d = len(x)
    H = np.stack(
        [(kernel.grad_x(x + step * e, X) - kernel.grad_x(x - step * e, X)) / (2 * step)
         for e in np.eye(d)]
    )  # (d, d, n)  # fmt: skip
    rows = np.vstack([G, hessian_scale * H.reshape(d * d, -1)])
    return float(np.einsum("jn,jn->", rows, np.linalg.solve(K, rows.T).T))


@pytest.mark.parametrize("hessian_scale", [1.0, 10.0])
@pytest.mark.parametrize("kernel", KERNELS)
def test_the_information_is_the_fall_of_the_gradients_and_hessians_variance(kernel, hessian_scale):
    """The traces' fall after observing y(z), by brute force, equals alpha(z) to 1e-6 relative
    (the Hessian's cross-covariance by finite differences, weighted by h^2)."""
    gp = _gp(90, kernel=kernel)
    x = np.array([0.1, -0.1, 0.0])
    information = NewtonInformation(gp, x, hessian_scale=hessian_scale)
    for z in ([0.25, 0.05, -0.1], [-0.2, 0.3, 0.1], [1.5, -1.0, 0.5]):
        z = np.array(z)
        before = _explained(kernel, gp.X, gp.noise_var, x, hessian_scale)
        after = _explained(kernel, np.vstack([gp.X, z]), gp.noise_var, x, hessian_scale)
        assert after - before > 1e-6
        assert information(z)[0] == pytest.approx(after - before, rel=1e-6)
        assert information.values(z[None, :])[0] == pytest.approx(after - before, rel=1e-6)


@pytest.mark.parametrize("hessian_scale", [1.0, 10.0])
@pytest.mark.parametrize("kernel", KERNELS)
def test_the_information_gradient_matches_finite_differences(kernel, hessian_scale):
    gp = _gp(91, kernel=kernel)
    x = np.array([0.1, -0.1, 0.0])
    information = NewtonInformation(gp, x, hessian_scale=hessian_scale)
    for z in ([0.25, 0.05, -0.1], [-0.15, 0.2, 0.18], [0.6, -0.4, 0.3]):
        z = np.array(z)
        _, grad = information(z)
        numeric = central_difference(lambda p: information(p)[0], z)
        assert_gradient_close(grad, numeric, rtol=1e-5)


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_means_hessian_matches_finite_differences_of_its_gradient(kernel):
    gp = _gp(92, kernel=kernel)
    x = np.array([0.05, 0.1, -0.2])
    g, H = mean_derivatives(gp, x)
    assert_gradient_close(g, central_difference(lambda p: gp.mean(p[None, :])[0], x), rtol=1e-6)
    for i in range(3):
        numeric = central_difference(lambda p, i=i: gp.grad_mean(p)[i], x)
        assert_gradient_close(H[i], numeric, rtol=1e-5)


@pytest.mark.parametrize("hessian_scale", [1.0, 10.0])
@pytest.mark.parametrize("kernel", KERNELS)
def test_extending_the_information_equals_building_it_anew(kernel, hessian_scale):
    """B and K^-1 C extended as the batch observes (a point or two at a time) equal those built on
    all the points (the oracle) to 1e-12 relative, and so do alpha and its gradient at points of
    the box."""
    gp, rng = small_gp("nestbo-extend", 93, kernel=kernel)
    x = np.array([0.1, -0.1, 0.0])
    information = NewtonInformation(gp, x, room=4, hessian_scale=hessian_scale)
    for m in (1, 2, 1):
        Z = x + 0.2 * rng.uniform(-1.0, 1.0, (m, 3))
        gp.append(Z, np.sin(2 * Z[:, 0]) + Z[:, 1] ** 2)
        information.extend()
        rebuilt = RebuiltNewtonInformation(gp, x, hessian_scale=hessian_scale)
        for kept, built in ((information.B, rebuilt.B), (information.K_inv_C, rebuilt.K_inv_C)):
            assert np.abs(kept - built).max() < 1e-12 * np.abs(built).max()
        for z in x + 0.2 * rng.uniform(-1.0, 1.0, (3, 3)):
            (value, grad), (value_0, grad_0) = information(z), rebuilt(z)
            assert value == pytest.approx(value_0, rel=1e-10)
            assert_gradient_close(grad, grad_0, rtol=1e-10)


def test_the_information_takes_in_no_more_points_than_its_room():
    gp, _ = small_gp("nestbo-extend", 94)
    information = NewtonInformation(gp, np.zeros(3), room=1)
    gp.append(np.full((2, 3), 0.1) + np.eye(3)[:2], np.zeros(2))
    with pytest.raises(ValueError, match="2 new observations, room for 1"):
        information.extend()


def test_a_short_run_is_the_oracles_run():
    """With B extended rather than rebuilt a point, a run at d = 2 of 200 evaluations ends where
    the oracle's does to 1e-8 (longer runs part where rounding moves the acquisition's argmax:
    `bench/nestbo_acquisition.py` compares the two step by step)."""
    from localbo.methods import nestbo as module

    def run():
        d = 2
        return nestbo(_objective(d, 200, seed=5), RBF(), np.zeros(d), Box(-5.0, 5.0, d),
                      rng_for(5, "nestbo"))  # fmt: skip

    library = run()
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(module, "NewtonInformation", RebuiltNewtonInformation)
        oracle = run()
    assert np.abs(library.x - oracle.x).max() < 1e-8
    assert library.value == pytest.approx(oracle.value, abs=1e-8)


def test_the_information_needs_the_rbf_kernel():
    gp = GP(Matern52(), np.zeros((1, 2)), np.zeros(1), 1e-3)
    with pytest.raises(ValueError, match="RBF"):
        NewtonInformation(gp, np.zeros(2))


def test_near_a_minimum_of_the_mean_the_move_is_newtons_and_lowers_the_mean():
    """On a bowl the Hessian is positive definite: the full Newton step passes Armijo's test and
    lands within 0.05 of the mean's minimizer."""
    d = 2
    X = np.array([[0.0, 0.0], [0.5, 0.0], [0.0, 0.5], [-0.5, 0.0], [0.0, -0.5], [0.3, 0.3]])
    gp = GP(RBF(), X, np.sum(X**2, axis=1), noise_var=1e-6)
    x = np.array([0.2, -0.1])
    _, H = mean_derivatives(gp, x)
    assert np.all(np.linalg.eigvalsh(H) > 0)
    end = newton_move(gp, x, Box(-1.0, 1.0, d), NeSTBOSettings())
    assert np.linalg.norm(end) < 0.05
    assert gp.mean(end[None, :])[0] < gp.mean(x[None, :])[0]


def test_where_the_hessian_is_indefinite_the_move_is_a_normalized_gradient_step():
    """On a saddle the step is along -g / ||g||, its length one of 0.5 * 0.5^k, at least the
    floor's, and the mean falls."""
    X = np.array([[0.0, 0.0], [0.5, 0.0], [0.0, 0.5], [-0.5, 0.0], [0.0, -0.5]])
    gp = GP(RBF(), X, X[:, 0] ** 2 - X[:, 1] ** 2, noise_var=1e-6)
    x = np.array([0.1, 0.1])
    g, H = mean_derivatives(gp, x)
    assert np.linalg.eigvalsh(H).min() < 0
    step = newton_move(gp, x, Box(-1.0, 1.0, 2), NeSTBOSettings()) - x
    length = np.linalg.norm(step)
    assert step / length == pytest.approx(-g / np.linalg.norm(g), abs=1e-12)
    assert np.log(length / 0.5) / np.log(0.5) == pytest.approx(
        round(np.log(length / 0.5) / np.log(0.5)), abs=1e-9
    )
    assert gp.mean((x + step)[None, :])[0] < gp.mean(x[None, :])[0]


def _objective(d, budget, sigma=0.0, seed=0):
    path = FourierSamplePath.draw(RBF(), d, 256, rng_for(seed, "nestbo-path", d))
    return NoisyObjective(path, sigma, budget, rng_for(seed, "nestbo-noise", d))


def test_the_design_then_iterations_of_d_plus_one_evaluations_spend_the_budget():
    d, iterations, design = 3, 4, 5
    budget = 1 + design + iterations * (d + 1)
    result = nestbo(
        _objective(d, budget),
        RBF(),
        np.zeros(d),
        Box(-5.0, 5.0, d),
        rng_for(0, "nestbo"),
        NeSTBOSettings(initial_points=design),
    )
    assert result.evaluations == budget and result.info["iterations"] == iterations


def test_it_ends_where_the_gradient_is_small_below_its_start():
    d = 2
    objective = _objective(d, 120, seed=3)
    result = NeSTBO().minimize(objective, RBF(), np.zeros(d), Box(-5.0, 5.0, d), rng_for(3, "n"))
    assert np.linalg.norm(objective.true_gradient(result.x)) < 1e-2
    assert result.value < objective.true_value(np.zeros(d)) - 0.1


def test_the_refit_mode_fits_the_hyperparameters_within_the_codes_bounds(monkeypatch):
    """With refit, every model is an ML-II fit within REFIT's box, two an iteration, the second
    started from the first's, and the budget is spent as without; the GP's prior mean is the
    observations' mean (the code's zero mean on standardized targets)."""
    from localbo.methods import nestbo as module

    fits, starts = [], []
    original = module.refitted

    def recorded(gp, capacity, rng, fit_mean, start=None):
        fitted, params = original(gp, capacity, rng, fit_mean, start)
        assert fitted.prior_mean == pytest.approx(np.mean(gp.y), abs=1e-12)
        fits.append(fitted.kernel.lengthscale)
        starts.append(start)
        return fitted, params

    monkeypatch.setattr(module, "refitted", recorded)
    d, iterations = 2, 3
    budget = 1 + 4 + iterations * (d + 1)
    result = nestbo(_objective(d, budget, seed=4), RBF(), np.zeros(d), Box(-5.0, 5.0, d),
                    rng_for(4, "nestbo"), NeSTBOSettings(initial_points=4, refit=True))  # fmt: skip
    assert result.evaluations == budget and len(fits) == 2 * iterations
    low, high = module.REFIT.lengthscale_bounds
    assert all(low <= ell <= high for ell in fits) and len(set(fits)) > 1
    assert starts[::2] == [None] * iterations and None not in starts[1::2]


def test_the_refit_mode_may_fit_the_mean_too():
    """With fit_mean the prior mean is ML-II's, not the observations' mean."""
    from localbo.methods.nestbo import refitted

    X = np.linspace(-4.0, 4.0, 15)[:, None]  # a dip on a flat level: the level is not the mean
    gp = GP(RBF(), X, -3.0 * np.exp(-(X[:, 0] ** 2)), 1e-4)
    fitted, _ = refitted(gp, gp.n, np.random.default_rng(0), fit_mean=True)
    held, held_params = refitted(gp, gp.n, np.random.default_rng(0))
    assert held_params.mean == 0.0 and held.prior_mean == pytest.approx(np.mean(gp.y), abs=1e-12)
    assert abs(fitted.prior_mean - np.mean(gp.y)) > 1e-3
