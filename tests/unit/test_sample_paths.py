"""Random-Fourier-feature sample paths: covariance, gradient, persistence."""

import numpy as np
import pytest

from localbo.kernels import RBF, Matern52
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for
from tests.unit.finite_differences import assert_gradient_close, central_difference


@pytest.mark.parametrize("kernel", [RBF(0.8, 1.5), Matern52(1.2, 0.7)], ids=["rbf", "matern52"])
def test_empirical_covariance_matches_kernel(kernel):
    """Over P paths with M features each, Cov[f(x), f(z)] has two errors: Monte Carlo over the
    paths (std about s2 * sqrt(2 / P) per entry) and the finite-feature bias, which averages
    out over paths (each path has fresh features). Tolerance: 5 standard errors."""
    paths, features, d = 20000, 32, 3
    rng = rng_for(7, "covariance-test", kernel.name)
    X = rng.normal(size=(5, d)) * kernel.lengthscale
    F = np.stack([FourierSamplePath.draw(kernel, d, features, rng)(X) for _ in range(paths)])
    empirical = F.T @ F / paths
    tol = 5 * kernel.outputscale * np.sqrt(2.0 / paths)
    np.testing.assert_allclose(empirical, kernel(X, X), atol=tol)
    np.testing.assert_allclose(F.mean(axis=0), 0.0, atol=5 * np.sqrt(kernel.outputscale / paths))


def test_single_path_feature_map_approximates_kernel():
    """phi(X) phi(X)^T -> K(X, X) with error O(1 / sqrt(M)): each entry's standard error is at
    most s2 / sqrt(M) (tolerance 5 of them, over the 21 distinct entries)."""
    kernel, M = RBF(1.0, 2.0), 20000
    path = FourierSamplePath.draw(kernel, 4, M, rng_for(8, "feature-map"))
    X = np.random.default_rng(9).normal(size=(6, 4))
    phi = np.sqrt(kernel.outputscale * 2.0 / M) * np.cos(X @ path.frequencies.T + path.phases)
    np.testing.assert_allclose(phi @ phi.T, kernel(X, X), atol=5 * kernel.outputscale / np.sqrt(M))


@pytest.mark.parametrize("kernel", [RBF(0.7), Matern52(1.4, 2.0)], ids=["rbf", "matern52"])
def test_gradient_matches_finite_differences(kernel):
    path = FourierSamplePath.draw(kernel, 5, 256, rng_for(10, "grad"))
    X = np.random.default_rng(11).normal(size=(4, 5))
    G = path.gradient(X)
    values, G2 = path.value_and_gradient(X)
    np.testing.assert_allclose(values, path(X))
    np.testing.assert_allclose(G2, G)
    for i in range(4):
        assert_gradient_close(G[i], central_difference(lambda v: path(v[None])[0], X[i]))


@pytest.mark.parametrize("kernel", [RBF(0.7), Matern52(1.4, 2.0)], ids=["rbf", "matern52"])
def test_hessian_matches_finite_differences_of_the_gradient(kernel):
    path = FourierSamplePath.draw(kernel, 4, 256, rng_for(12, "hessian"))
    X = np.random.default_rng(13).normal(size=(3, 4))
    H = path.hessian(X)
    assert H.shape == (3, 4, 4)
    np.testing.assert_allclose(H, np.swapaxes(H, 1, 2), atol=1e-13)
    for x, h in zip(X, H, strict=True):
        for j in range(4):  # row j: d/dx of the j-th partial derivative
            numeric = central_difference(lambda z, j=j: path.gradient(z[None, :])[0, j], x)
            assert_gradient_close(h[j], numeric, rtol=1e-6)


def test_save_load_roundtrip(tmp_path):
    path = FourierSamplePath.draw(RBF(), 3, 32, rng_for(12, "io"))
    path.save(tmp_path / "p.npz")
    loaded = FourierSamplePath.load(tmp_path / "p.npz")
    X = np.ones((2, 3))
    np.testing.assert_array_equal(loaded(X), path(X))


def test_same_seed_same_path_different_seed_different_path():
    a = FourierSamplePath.draw(RBF(), 2, 16, rng_for(1, "fig1", 2, 0))
    b = FourierSamplePath.draw(RBF(), 2, 16, rng_for(1, "fig1", 2, 0))
    c = FourierSamplePath.draw(RBF(), 2, 16, rng_for(1, "fig1", 2, 1))
    np.testing.assert_array_equal(a.weights, b.weights)
    assert not np.allclose(a.weights, c.weights)


def test_translated_design_equals_direct_evaluation():
    path = FourierSamplePath.draw(Matern52(), 6, 512, rng_for(13, "translate"))
    rng = np.random.default_rng(14)
    offsets = np.vstack([np.zeros(6), 1e-3 * rng.normal(size=(6, 6)), rng.normal(size=(3, 6))])
    translated = path.translate(offsets)
    assert path.translate(offsets.copy()) is translated  # built once per set of offsets
    for _ in range(3):
        x = rng.normal(size=6) * 3
        np.testing.assert_allclose(translated(x), path(x + offsets), rtol=0, atol=1e-12)


def test_the_tables_of_the_offset_sets_used_last_are_kept():
    path = FourierSamplePath.draw(RBF(), 2, 16, rng_for(15, "translate"))
    kept = path.translate(np.zeros((1, 2)))
    for k in range(1, 12):  # 11 other sets, the first used again after each
        path.translate(np.full((1, 2), float(k)))
        assert path.translate(np.zeros((1, 2))) is kept


def test_values_by_half_angle_equal_the_cosines_to_rounding():
    """Large angles (d = 50, |omega . x| up to about 100), blocks that do not divide n, and a
    half angle at pi / 2 (tan about 1e16, cos a = -1)."""
    path = FourierSamplePath.draw(RBF(), 50, 1024, rng_for(78, "path"))
    X = rng_for(78, "points").uniform(-5.0, 5.0, (150, 50))
    omega, b = path.frequencies[0], path.phases[0]
    X[0] = (np.pi - b) * omega / (omega @ omega)  # first feature's angle: pi
    exact = path(X)
    for rows in (7, 64, 1000):
        np.testing.assert_allclose(path.values_by_half_angle(X, rows), exact, rtol=0, atol=1e-13)
    np.testing.assert_allclose(path.values_by_half_angle(X[3]), exact[3:4], rtol=0, atol=1e-13)
