"""Triangular solves and symmetric products on strided views, straight through BLAS
(`scipy.linalg.cython_blas`).

scipy's Python BLAS wrappers take only contiguous matrices, so solving with the leading n x n block
of a larger buffer copies that block first. A GP that grows one observation at a time keeps its
Cholesky factor in a buffer with room to spare (`localbo.gp.GP`); at n = 5000 that copy is 200 MB
per step, several times the solve itself. BLAS takes the buffer's leading dimension instead, so
here the same routines (`dtrsv`, `dtrsm`) are called through the function pointers scipy exports
for Cython, with ctypes. Both are the routines the wrappers call, so the results are the same.
The symmetric product and rank-one update (`dsymv`, `dsyr`) serve a kept inverse that grows the
same way (`localbo.precision`).
"""

from __future__ import annotations

import ctypes

import numpy as np
from scipy.linalg import cython_blas
from scipy.linalg.blas import dtrsv as _scipy_dtrsv

_char, _int, _scalar = (
    ctypes.c_char_p,
    ctypes.POINTER(ctypes.c_int),
    ctypes.POINTER(ctypes.c_double),
)
_double = ctypes.c_void_p  # an array's address
_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype, _get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype, _get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]


def _routine(name: str, *argtypes: type) -> ctypes._CFuncPtr:
    capsule = cython_blas.__pyx_capi__[name]
    return ctypes.CFUNCTYPE(None, *argtypes)(_get_pointer(capsule, _get_name(capsule)))


# Fortran BLAS: every argument by reference
_dtrsv = _routine("dtrsv", _char, _char, _char, _int, _double, _int, _double, _int)
_dtrsm = _routine(
    "dtrsm", _char, _char, _char, _char, _int, _int, _scalar, _double, _int, _double, _int
)
_dsymv = _routine(
    "dsymv", _char, _int, _scalar, _double, _int, _double, _int, _scalar, _double, _int
)
_dsyr = _routine("dsyr", _char, _int, _scalar, _double, _int, _double, _int)


def _int_ref(value: int) -> ctypes._Pointer:
    return ctypes.byref(ctypes.c_int(value))


def _wrapped_dtrsv(L: np.ndarray, b: np.ndarray, lower: bool, trans: bool) -> np.ndarray:
    """op(L) x = b by scipy's dtrsv wrapper, for an F-contiguous (n, n) L; b is not changed."""
    return _scipy_dtrsv(L, np.array(b, dtype=np.float64), lower=int(lower), trans=int(trans))


def _as_fortran(A: np.ndarray) -> tuple[int, int, bool]:
    """(address, leading dimension, transposed) of a square float64 view with one unit stride:
    BLAS reads the view itself, or its transpose when only the row stride is 1 element."""
    if A.dtype != np.float64 or A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"expected a square float64 matrix, got {A.dtype} {A.shape}")
    item = A.itemsize
    row_stride, col_stride = A.strides
    n = A.shape[0]
    if row_stride == item and (col_stride >= n * item or n <= 1):
        return A.ctypes.data, max(col_stride // item, n, 1), False
    if col_stride == item and (row_stride >= n * item or n <= 1):
        return A.ctypes.data, max(row_stride // item, n, 1), True
    raise ValueError("the matrix must have unit stride along one axis")


def solve_triangular(L: np.ndarray, B: np.ndarray, lower: bool = True, trans: bool = False):
    """Solve op(L) X = B with a triangular (n, n) view L (any leading dimension); B (n,) or (n, k).

    op(L) is L, or L^T with `trans`; only the `lower` (or upper) triangle of L is read. Returns a
    new array of B's shape; B is not changed.
    """
    n = L.shape[0]
    if B.shape[0] != n:
        raise ValueError(f"right-hand side has {B.shape[0]} rows, the matrix {n}")
    if (
        B.ndim == 1
        and n > 0
        and L.dtype == np.float64
        and (L.flags.f_contiguous or L.flags.c_contiguous)
    ):
        # a whole matrix: scipy's own dtrsv wrapper calls the same routine without a copy, with
        # a few microseconds less overhead (small systems, solved often: MPD, refinements)
        if L.flags.f_contiguous:
            return _wrapped_dtrsv(L, B, lower=lower, trans=trans)
        return _wrapped_dtrsv(L.T, B, lower=not lower, trans=not trans)
    address, lda, transposed = _as_fortran(L)
    if transposed:  # the buffer holds L^T: its upper triangle is L's lower one
        lower, trans = not lower, not trans
    uplo, op = (b"L" if lower else b"U"), (b"T" if trans else b"N")
    if B.ndim == 1:
        x = np.array(B, dtype=np.float64)
        if n > 0:
            _dtrsv(uplo, op, b"N", _int_ref(n), address, _int_ref(lda), x.ctypes.data, _int_ref(1))
        return x
    X = np.array(B, dtype=np.float64, order="F")
    k = X.shape[1]
    if n > 0 and k > 0:
        one = ctypes.byref(ctypes.c_double(1.0))
        _dtrsm(
            b"L", uplo, op, b"N", _int_ref(n), _int_ref(k), one, address, _int_ref(lda),
            X.ctypes.data, _int_ref(n),
        )  # fmt: skip
    return X


def _lower_symmetric(A: np.ndarray) -> tuple[int, int, bytes]:
    """(address, leading dimension, BLAS uplo) of a square view whose lower triangle holds a
    symmetric matrix (the buffer's upper triangle when the view is its transpose)."""
    address, lda, transposed = _as_fortran(A)
    return address, lda, b"U" if transposed else b"L"


def symmetric_product(A: np.ndarray, x: np.ndarray) -> np.ndarray:
    """A x for a symmetric (n, n) view A (any leading dimension) of which only the lower triangle
    is read, and x (n,); returns a new (n,) array."""
    n = A.shape[0]
    if x.shape != (n,):
        raise ValueError(f"expected a vector of {n} entries, got shape {x.shape}")
    y = np.zeros(n)
    if n > 0:
        address, lda, uplo = _lower_symmetric(A)
        xc = np.ascontiguousarray(x, dtype=np.float64)
        one, zero = ctypes.byref(ctypes.c_double(1.0)), ctypes.byref(ctypes.c_double(0.0))
        _dsymv(
            uplo, _int_ref(n), one, address, _int_ref(lda), xc.ctypes.data, _int_ref(1), zero,
            y.ctypes.data, _int_ref(1),
        )  # fmt: skip
    return y


def symmetric_rank_one_update(A: np.ndarray, alpha: float, x: np.ndarray) -> None:
    """A += alpha x x^T in place on the lower triangle of a square (n, n) view A (any leading
    dimension); x (n,)."""
    n = A.shape[0]
    if x.shape != (n,):
        raise ValueError(f"expected a vector of {n} entries, got shape {x.shape}")
    if n > 0:
        address, lda, uplo = _lower_symmetric(A)
        xc = np.ascontiguousarray(x, dtype=np.float64)
        scale = ctypes.byref(ctypes.c_double(alpha))
        _dsyr(uplo, _int_ref(n), scale, xc.ctypes.data, _int_ref(1), address, _int_ref(lda))
