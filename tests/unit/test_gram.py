"""Kernel and slope matrices by upper blocks in Gram form, and the blocked Hadamard product."""

import numpy as np
import pytest

from localbo.gram import UpperBlocks, cross_kernel, fill_kernel_and_slope, hadamard_gram_product
from localbo.kernels import RBF, Matern52
from localbo.seeding import rng_for

ROWS = [1, 3, 8, None]


def as_dense(M: UpperBlocks) -> np.ndarray:
    """The (n, n) symmetric matrix the upper blocks stand for."""
    n = M.blocks[0].shape[1]
    out = np.empty((n, n))
    for (i0, i1), block in zip(M.ranges, M.blocks, strict=True):
        out[i0:i1, i0:] = block
        out[i0:, i0:i1] = block.T
    return out  # None: the production block size (one block at these sizes)


def points(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    """Points around the origin with an exact duplicate and a pair 1e-9 apart."""
    U = 0.8 * rng.normal(size=(n, d))
    U[1] = U[0]
    U[3] = U[2] + 1e-9 * rng.normal(size=d)
    return U


@pytest.mark.parametrize("rows", ROWS)
def test_upper_triangles_equal_the_exact_matrices(kernel, rows):
    rng = np.random.default_rng(20)
    n, d = 23, 4
    U = points(rng, n, d)
    noise = rng.uniform(0.01, 0.1, size=n)
    K = np.full((n, n), 7.0)
    slope = UpperBlocks.empty(n, rows)
    fill_kernel_and_slope(kernel, U, noise, K, slope)
    upper, lower = np.triu_indices(n), np.tril_indices(n, -1)
    exact = kernel(U, U) + np.diag(noise)
    # Gram-form t = c r^2 is off by at most (d + 2) ulps of c (|u_i|^2 + |u_j|^2) (4x margin);
    # value / s2 and slope are 1-Lipschitz in t for both kernels (see localbo.gram).
    c = kernel.gram_scale / kernel.lengthscale**2
    t_error = 4 * (d + 2) * np.finfo(float).eps * c * 2 * np.max(np.sum(U**2, axis=1))
    atol = t_error * max(kernel.outputscale, 1.0)
    np.testing.assert_allclose(K[upper], exact[upper], rtol=0, atol=atol)
    # below the diagonal only the diagonal blocks' squares are written, with the true values
    written = K[lower] != 7.0
    np.testing.assert_allclose(K[lower][written], exact[lower][written], rtol=0, atol=atol)
    assert written.sum() < len(K[lower]) or rows is None
    np.testing.assert_allclose(
        as_dense(slope), kernel.slope(kernel.distance(U, U)), rtol=0, atol=t_error
    )
    assert t_error < 1e-12


@pytest.mark.parametrize("rows", ROWS)
def test_blocked_hadamard_product_equals_the_dense_one(rows):
    rng = np.random.default_rng(21)
    n = 19
    M = UpperBlocks.empty(n, rows)
    dense = rng.normal(size=(n, n))
    dense = dense + dense.T
    for (i0, i1), block in zip(M.ranges, M.blocks, strict=True):
        block[...] = dense[i0:i1, i0:]
    np.testing.assert_array_equal(as_dense(M), dense)
    W, B = rng.normal(size=(n, 4)), rng.normal(size=(n, 5))
    np.testing.assert_allclose(
        hadamard_gram_product(W, M, B), ((W @ W.T) * dense) @ B, rtol=1e-12, atol=1e-12
    )


def test_blocks_cover_the_upper_triangle_once():
    M = UpperBlocks.empty(10, 4)
    assert M.ranges == [(0, 4), (4, 8), (8, 10)]
    assert [b.shape for b in M.blocks] == [(4, 10), (4, 6), (2, 2)]
    assert UpperBlocks.empty(0).ranges == []


@pytest.mark.parametrize("kernel", [RBF(0.8, 1.5), Matern52(1.3, 0.7)])
def test_cross_kernel_equals_the_kernel_to_rounding(kernel):
    """Several row blocks (rows of 32 at m = 1000), a last partial one, coincident points."""
    rng = rng_for(90, kernel.name)
    U, V = rng.uniform(-2.0, 2.0, (100, 5)), rng.uniform(-2.0, 2.0, (1000, 5))
    U[7] = V[3]
    K = cross_kernel(kernel, U, V)
    np.testing.assert_allclose(K, kernel(U, V), rtol=0, atol=1e-14)
    assert K[7, 3] == pytest.approx(kernel.outputscale, abs=1e-14)
