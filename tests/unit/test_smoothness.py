"""The smoothness constant of a sample path: the largest sampled Hessian norm."""

import numpy as np

from localbo.kernels import RBF
from localbo.objective import Box
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for
from localbo.smoothness import (
    hessian_norm_and_gradient,
    hessian_norms,
    smoothness_constant,
    smoothness_points,
)
from tests.unit.finite_differences import assert_gradient_close, central_difference


def test_spectral_norm_is_the_largest_absolute_eigenvalue():
    path = FourierSamplePath.draw(RBF(), 3, 128, rng_for(1, "norms"))
    X = np.random.default_rng(2).normal(size=(5, 3))
    expected = [np.linalg.norm(h, 2) for h in path.hessian(X)]
    np.testing.assert_allclose(hessian_norms(path, X), expected, rtol=1e-12)


def test_the_norm_gradient_matches_finite_differences():
    path = FourierSamplePath.draw(RBF(), 3, 256, rng_for(8, "norm-grad"))
    for x in np.random.default_rng(9).normal(size=(3, 3)):
        value, gradient = hessian_norm_and_gradient(path, x)
        assert np.isclose(value, np.linalg.norm(path.hessian(x[None, :])[0], 2), rtol=1e-12)
        numeric = central_difference(lambda z: hessian_norm_and_gradient(path, z)[0], x)
        assert_gradient_close(gradient, numeric, rtol=1e-6)


def test_the_estimate_bounds_every_sampled_hessian_norm():
    """L bounds the norms at the start and the uniform points (in chunks smaller than the
    sample, so chunking is exercised); without polishing it is their maximum, with it more."""
    path, box = FourierSamplePath.draw(RBF(), 4, 512, rng_for(3, "L")), Box(-5.0, 5.0, 4)
    X = smoothness_points(box, 2500, rng_for(4, "points"))
    assert X.shape == (2501, 4) and np.all(X[0] == 0)
    norms = hessian_norms(path, X)
    sampled = smoothness_constant(path, box, 2500, rng_for(4, "points"), polish=0, chunk=1000)
    assert np.isclose(sampled, norms.max(), rtol=1e-14)
    polished = smoothness_constant(path, box, 2500, rng_for(4, "points"), chunk=1000)
    assert np.all(norms <= polished) and polished > 1.001 * sampled


def test_the_gradient_is_lipschitz_with_the_estimate_on_sampled_pairs():
    """What L is for: ||grad f(x) - grad f(z)|| <= L ||x - z|| on 2000 random pairs of the box
    (the sampled maximum alone does not bound them on this seed; the polished one does)."""
    path, box = FourierSamplePath.draw(RBF(), 2, 1024, rng_for(5, "lip")), Box(-5.0, 5.0, 2)
    L = smoothness_constant(path, box, 10000, rng_for(6, "points"))
    sampled = smoothness_constant(path, box, 10000, rng_for(6, "points"), polish=0)
    rng = np.random.default_rng(7)
    X = box.uniform(2000, rng)
    Z = box.project(X + 0.3 * rng.standard_normal(X.shape))
    ratios = np.linalg.norm(path.gradient(X) - path.gradient(Z), axis=1) / np.linalg.norm(
        X - Z, axis=1
    )
    assert sampled < ratios.max() <= L
    assert ratios.max() > 0.5 * L  # and it is not a vacuous bound
