"""The kernel matrix of a point set, its slope matrix and the product alpha_trace's gradient needs,
computed on one triangle in cache-sized blocks.

alpha_trace and its gradient need, for the N points S = [X_D; Z], the kernel matrix
K = s2 * phi(R) + diag(noise) (to factor), the slope matrix slope(R), and the product
((W W^T) o slope(R)) B for thin W and B (`hadamard_gram_product`), where R holds the scaled
distances ||s_i - s_j|| / l. All three matrices are symmetric, so only the row blocks on and right
of the diagonal are computed: rows [i0, i1) x columns [i0, N), each block evaluated in contiguous
scratch that stays in the core's cache. K's upper triangle is exactly what LAPACK's lower potrf
reads from the Fortran view K^T (`localbo.linalg.cholesky` with `overwrite`).

Squared distances come in Gram form from one matrix product per block,

    t_ij = c (|u_i|^2 + |u_j|^2 - 2 u_i . u_j) = [u_i, c|u_i|^2, 1] . [-2c u_j, 1, c|u_j|^2],

with u = x - s centred at the point whose gradient is estimated and c = gram_scale / l^2.
Its rounding error, a few ulps of c (|u_i|^2 + |u_j|^2), is absolute, not relative to t; that is
harmless because both profiles are Lipschitz in r^2 (|d value / d r^2| = |slope| / 2 and
|d slope / d r^2| = |curve| / 2 are bounded), so kernel and slope entries are off by the same few
ulps. The kernels clamp what rounding leaves below 0.

`cross_kernel` computes a rectangular k(U, V) the same way, for TuRBO-1's Thompson draw.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from localbo.kernels import Kernel

BLOCK_ELEMENTS = 1 << 15  # float64 entries per block (256 KiB): the fastest at N = 500 here


@dataclass(frozen=True)
class UpperBlocks:
    """A symmetric (n, n) matrix stored as its row blocks from the diagonal rightwards.

    Block k holds rows [i0, i1) and columns [i0, n) (its diagonal square whole), contiguous.

    Attributes:
        ranges: the row ranges (i0, i1), covering 0..n.
        blocks: the (i1 - i0, n - i0) arrays, views of one buffer.
    """

    ranges: list[tuple[int, int]]
    blocks: list[np.ndarray]

    @classmethod
    def empty(cls, n: int, rows: int | None = None) -> UpperBlocks:
        """Uninitialized blocks of `rows` rows (default: about BLOCK_ELEMENTS per block)."""
        rows = rows or max(8, BLOCK_ELEMENTS // max(n, 1))
        ranges = [(i0, min(n, i0 + rows)) for i0 in range(0, n, rows)]
        buffer = np.empty(sum((i1 - i0) * (n - i0) for i0, i1 in ranges))
        blocks, offset = [], 0
        for i0, i1 in ranges:
            size = (i1 - i0) * (n - i0)
            blocks.append(buffer[offset : offset + size].reshape(i1 - i0, n - i0))
            offset += size
        return cls(ranges, blocks)

    def scratch(self) -> np.ndarray:
        """A flat array as large as the largest block."""
        return np.empty(max((b.size for b in self.blocks), default=0))


def gram_sides(U: np.ndarray, kernel: Kernel) -> tuple[np.ndarray, np.ndarray]:
    """The two (n, d + 2) sides of the Gram form for (n, d) points U, [u, c|u|^2, 1] and
    [-2c u, 1, c|u|^2] with c = gram_scale / l^2: left(U) @ right(V).T is t between U and V."""
    n, d = U.shape
    c = kernel.gram_scale / kernel.lengthscale**2
    sq = c * np.einsum("ij,ij->i", U, U)
    left = np.empty((n, d + 2))
    left[:, :d], left[:, d], left[:, d + 1] = U, sq, 1.0
    right = np.empty((n, d + 2))
    right[:, :d], right[:, d], right[:, d + 1] = -2.0 * c * U, 1.0, sq
    return left, right


def fill_kernel_and_slope(
    kernel: Kernel, U: np.ndarray, noise_var: float | np.ndarray, K: np.ndarray, slope: UpperBlocks
) -> None:
    """Write the upper triangle of K = k(U, U) + diag(noise_var), and slope(R) into `slope`.

    Args:
        kernel: the kernel (its lengthscale and outputscale are used).
        U: (N, d) points; best centred near where they are used (see the module docstring).
        noise_var: scalar or (N,) added to K's diagonal.
        K: (N, N) C-ordered output; the entries with j >= i are written (and, inside each
            diagonal block, the ones below the diagonal, with their values), the rest not touched.
        slope: `UpperBlocks` of order N, overwritten with slope(R).
    """
    n = U.shape[0]
    left, right = gram_sides(U, kernel)
    t_buffer, work_buffer = slope.scratch(), slope.scratch()
    for (i0, i1), slope_block in zip(slope.ranges, slope.blocks, strict=True):
        t = t_buffer[: slope_block.size].reshape(slope_block.shape)
        np.matmul(left[i0:i1], right[i0:].T, out=t)
        work = work_buffer[: slope_block.size].reshape(slope_block.shape)
        kernel.profiles_of_t(t, K[i0:i1, i0:], slope_block, work)
    K[np.diag_indices(n)] += noise_var


def hadamard_gram_product(W: np.ndarray, M: UpperBlocks, B: np.ndarray) -> np.ndarray:
    """((W W^T) o M) B for a symmetric M, one block of W W^T at a time.

    Args:
        W: (N, k) array. M: `UpperBlocks` of order N. B: (N, m) array.

    Returns:
        (N, m) array.
    """
    out = np.zeros((W.shape[0], B.shape[1]))
    buffer = M.scratch()
    for (i0, i1), block in zip(M.ranges, M.blocks, strict=True):
        a = buffer[: block.size].reshape(block.shape)
        np.matmul(W[i0:i1], W[i0:].T, out=a)
        a *= block
        out[i0:i1] += a @ B[i0:]
        out[i1:] += a[:, i1 - i0 :].T @ B[i0:i1]
    return out


def cross_kernel(kernel: Kernel, U: np.ndarray, V: np.ndarray) -> np.ndarray:
    """k(U, V) with the squared distances in Gram form, one matrix product per row block.

    The entries are off by the few ulps of c (|u|^2 + |v|^2) in t that the module docstring
    bounds, where scipy's cdist, from exact differences, is off by ulps of t itself: centre U and
    V where the kernel matters (near U). For draws whose last bits decide nothing (TuRBO-1's
    Thompson draw), about 6x faster than `Kernel.__call__` (cdist) at (5000, 800) in d = 50.

    Args:
        kernel: the kernel. U: (n, d) points. V: (m, d) points.

    Returns:
        (n, m) array.
    """
    n, m = U.shape[0], V.shape[0]
    left, _ = gram_sides(U, kernel)
    _, right = gram_sides(V, kernel)
    K = np.empty((n, m))
    rows = max(1, BLOCK_ELEMENTS // max(m, 1))
    t_buffer, slope_buffer, work_buffer = (np.empty(rows * m) for _ in range(3))
    for i0 in range(0, n, rows):
        i1 = min(n, i0 + rows)
        t, slope, work = (
            b[: (i1 - i0) * m].reshape(i1 - i0, m) for b in (t_buffer, slope_buffer, work_buffer)
        )
        np.matmul(left[i0:i1], right.T, out=t)
        kernel.profiles_of_t(t, K[i0:i1], slope, work)
    return K
