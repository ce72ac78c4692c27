"""ML-II: the analytic gradient of the negative log marginal likelihood, its value against a
dense Gaussian density, and recovery of a known lengthscale (Rasmussen & Williams, ch. 5)."""

import warnings

import numpy as np
import pytest
from scipy.stats import multivariate_normal

from localbo.hyperparameters import (
    GPYTORCH_START,
    FitSettings,
    Hyperparameters,
    fit_hyperparameters,
    fitted_gp,
    gpytorch_loss,
    negative_log_marginal_likelihood,
    softplus,
)
from localbo.kernels import KERNELS, Matern52, make_kernel
from localbo.linalg import JitterWarning, cholesky
from localbo.pipeline.gradient_estimation import PAPER_FIT
from localbo.seeding import rng_for
from tests.unit.finite_differences import assert_gradient_close, central_difference


def data(seed, n=12, d=2):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)), rng.normal(size=n)


@pytest.mark.parametrize("name", sorted(KERNELS))
@pytest.mark.parametrize(
    "theta", [(0.3, np.log(0.7), np.log(1.3), np.log(0.05)), (-1.0, np.log(2.5), 0.0, -6.0)]
)
def test_gradient_matches_central_differences(name, theta):
    X, y = data(1)
    kernel = make_kernel(name)
    theta = np.array(theta)
    _, grad = negative_log_marginal_likelihood(theta, kernel, X, y)
    numeric = central_difference(
        lambda t: negative_log_marginal_likelihood(t, kernel, X, y)[0], theta, h=1e-6
    )
    assert_gradient_close(grad, numeric, rtol=1e-6)


def test_value_is_the_gaussian_log_density():
    X, y = data(2)
    m, ell, s2, noise = 0.4, 0.8, 1.7, 0.03
    theta = np.array([m, np.log(ell), np.log(s2), np.log(noise)])
    value, _ = negative_log_marginal_likelihood(theta, Matern52(), X, y)
    cov = Matern52(ell, s2)(X, X) + noise * np.eye(len(y))
    expected = -multivariate_normal(mean=np.full(len(y), m), cov=cov).logpdf(y)
    assert value == pytest.approx(expected, rel=1e-10)


def test_fit_recovers_the_lengthscale_of_a_known_gp():
    """200 noisy values of a Matern-5/2 draw (l = 0.5, s2 = 1, sigma^2 = 0.01) on [0, 3]^2:
    the fitted lengthscale within 0.1 and the noise variance within 0.008 of the truth, about
    three standard deviations of the fit over draws (0.032 and 0.0026 over ten other draws of
    the same GP; this draw fits 0.521 and 0.0110)."""
    rng = rng_for(7, "test", "ml2")
    X = rng.uniform(0.0, 3.0, size=(200, 2))
    K = Matern52(0.5, 1.0)(X, X) + 0.01 * np.eye(200)
    L, _ = cholesky(K)
    y = 0.5 + L @ rng.standard_normal(200)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", JitterWarning)
        fit = fit_hyperparameters(
            "matern52", X, y, rng_for(7, "test", "starts"), FitSettings(restarts=3)
        )
    assert abs(fit.params.lengthscale - 0.5) < 0.2 * 0.5
    assert abs(fit.params.noise_var - 0.01) < 0.008
    assert fit.nlml <= fit.restart_nlml.min() + 1e-12
    assert fit.at_bound == ()


def test_fit_stays_in_the_box_and_reports_the_bound():
    """Data from a rough function with a lengthscale box far above its scale: no lengthscale
    in the box follows it, so the fit takes it for noise about a flat mean, ends on the box's
    upper edge and says so."""
    X = np.linspace(0.0, 1.0, 15)[:, None]
    y = np.sin(40.0 * X[:, 0])
    settings = FitSettings(
        restarts=3,
        lengthscale_bounds=(2.0, 10.0),
        outputscale_bounds=(1e-2, 10.0),
        noise_var_bounds=(1e-4, 1.0),
    )
    fit = fit_hyperparameters("matern52", X, y, rng_for(0, "box"), settings)
    assert fit.params.lengthscale == pytest.approx(10.0, rel=1e-9)
    assert "lengthscale" in fit.at_bound


def test_fitted_gp_uses_the_fitted_mean():
    X, y = data(3, n=6, d=1)
    params = Hyperparameters(mean=5.0, lengthscale=0.1, outputscale=1.0, noise_var=1e-4)
    gp = fitted_gp("matern52", params, X, y)
    assert gp.mean(np.array([[100.0]]))[0] == pytest.approx(5.0)


@pytest.mark.parametrize(
    "bounds",
    [
        {"lengthscale_bounds": (1.0, 0.5)},
        {"noise_var_bounds": (0.0, 10.0)},  # log(0) = -inf passed the order check before
        {"outputscale_bounds": (-1e-4, 1.0)},
        {"lengthscale_bounds": (0.1, float("inf"))},
    ],
)
def test_bounds_must_be_positive_finite_and_ordered(bounds):
    with pytest.raises(ValueError, match="0 < low < high"):
        FitSettings(**bounds)


def test_the_gpytorch_start_is_one_deterministic_start_from_ln2():
    """GPyTorch's initial values (raw parameters 0): mean 0, softplus(0) = ln 2 for lengthscale
    and outputscale, ln 2 + 1e-4 for the noise; the fit from there needs no random stream."""
    np.testing.assert_allclose(
        np.exp(GPYTORCH_START[1:]), [np.log(2.0), np.log(2.0), np.log(2.0) + 1e-4], rtol=1e-14
    )
    assert GPYTORCH_START[0] == 0.0
    X, y = data(5, n=8, d=2)
    settings = FitSettings(restarts=1, max_iterations=50, start="gpytorch")
    first = fit_hyperparameters("matern52", X, y, rng_for(1), settings)
    second = fit_hyperparameters("matern52", X, y, rng_for(2), settings)
    assert first.params == second.params
    random = fit_hyperparameters("matern52", X, y, rng_for(1), FitSettings(restarts=1))
    assert random.params != first.params
    with pytest.raises(ValueError, match="unknown start"):
        FitSettings(start="sobol")
    with pytest.raises(ValueError, match="restarts must be 1"):
        FitSettings(start="gpytorch", restarts=2)


def test_a_fixed_mean_stays_at_zero_and_fits_no_better_than_a_free_one():
    """With fixed_mean the mean is 0 whatever the data's level, and the free mean's fit is more
    likely (its family holds the fixed one)."""
    X, y = data(6, n=10, d=2)
    y = y + 3.0
    settings = FitSettings(restarts=3)
    fixed = fit_hyperparameters("matern52", X, y, rng_for(3), settings, fixed_mean=True)
    free = fit_hyperparameters("matern52", X, y, rng_for(3), settings)
    assert fixed.params.mean == 0.0 and abs(free.params.mean) > 1.0
    assert free.nlml < fixed.nlml


def test_a_warm_start_is_one_start_from_the_given_values():
    """start= replaces the settings' starts by one from the given hyperparameters: from the fit's
    own optimum it ends there."""
    X, y = data(7, n=10, d=2)
    best = fit_hyperparameters("matern52", X, y, rng_for(4), FitSettings(restarts=5))
    again = fit_hyperparameters("matern52", X, y, rng_for(5), FitSettings(restarts=5), best.params)
    assert len(again.restart_nlml) == 1
    assert again.nlml == pytest.approx(best.nlml, abs=1e-6)
    assert again.params.lengthscale == pytest.approx(best.params.lengthscale, rel=1e-3)


@pytest.mark.parametrize(
    "raw", [(0.3, 0.0, -1.0, 0.5), (-0.2, -3.0, 2.0, -8.0), (0.0, 25.0, 0.1, 0.0)]
)
def test_the_gpytorch_loss_gradient_matches_central_differences(raw):
    """Below, at and above torch's softplus threshold (20)."""
    X, y = data(8, n=9, d=2)
    floors = np.array([0.0, 0.0, 1e-4])
    raw = np.array(raw)
    _, grad = gpytorch_loss(raw, Matern52(), X, y, floors)
    numeric = central_difference(lambda r: gpytorch_loss(r, Matern52(), X, y, floors)[0], raw)
    assert_gradient_close(grad, numeric, rtol=1e-6)


def test_the_gpytorch_loss_is_the_nlml_per_point_at_softplus_hyperparameters():
    X, y = data(9, n=7, d=2)
    floors = np.array([0.0, 0.0, 1e-4])
    raw = np.array([0.4, 0.2, -0.3, -2.0])
    value, _ = gpytorch_loss(raw, Matern52(), X, y, floors)
    positive = floors + np.log1p(np.exp(raw[1:]))
    theta = np.concatenate([raw[:1], np.log(positive)])
    assert value == pytest.approx(negative_log_marginal_likelihood(theta, Matern52(), X, y)[0] / 7)
    assert softplus(np.array([25.0]))[0] == 25.0  # torch's threshold: the argument itself


def test_the_code_s_fit_reaches_the_box_fit_s_optimum_where_it_is_interior():
    """On 30 points of a smooth function the likelihood has one interior optimum: the code's 50
    steps from GPyTorch's start and our 10 starts in a box end within 1e-4 of each other."""
    rng = rng_for(9, "test", "code fit")
    X = rng.uniform(-1.0, 1.0, size=(30, 2))
    y = np.sin(2 * X[:, 0]) + X[:, 1] ** 2 + 0.05 * rng.standard_normal(30)
    ours = fit_hyperparameters("matern52", X, y, rng_for(10), FitSettings())
    code = fit_hyperparameters("matern52", X, y, None, PAPER_FIT)
    assert ours.at_bound == () and code.nlml == pytest.approx(ours.nlml, abs=1e-4)
    for name in ("lengthscale", "outputscale", "noise_var"):
        assert getattr(code.params, name) == pytest.approx(getattr(ours.params, name), rel=1e-2)


@pytest.mark.parametrize(
    "change, match",
    [
        ({"start": "random", "restarts": 1}, "gpytorch start"),
        ({"lengthscale_bounds": (0.0, 10.0)}, "high .inf"),
        ({"noise_var_bounds": (-1e-4, np.inf)}, "0 <= low"),
        ({"optimizer": "adam"}, "unknown optimizer"),
    ],
)
def test_the_code_s_fit_takes_floors_only_and_its_own_start(change, match):
    import dataclasses

    with pytest.raises(ValueError, match=match):
        dataclasses.replace(PAPER_FIT, **change)
