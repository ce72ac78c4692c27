"""Would GP-UCB's three refinements gain from running in lockstep? Their evaluations at one step
each need P k for the kept precision P (`localbo.precision`), one pass over P's lower triangle
(`localbo.blas.symmetric_product`, BLAS dsymv). In lockstep, m refinements would share one pass:
a product of P with m columns. This times, on one core and the same (n, n) symmetric matrix,

- m dsymv calls (today's), against
- one dsymm with m columns (scipy's wrapper, lower triangle), and
- one dgemm with m columns on the full matrix (numpy's `@`),

for m = 1, 2, 3, as CPU milliseconds (median of `--repeats` calls, `floors.cpu_per_call`) and
ratios to the m dsymv calls, and checks that the columns of both batched products equal dsymv's
to rounding. Appends one JSON line per n to `--out`.

    python bench/lockstep_products.py --n 2000 4000
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from floors import cpu_per_call  # bench/, the script's folder
from full_run import append_row
from scipy.linalg.blas import dsymm

from localbo.blas import symmetric_product
from localbo.pipeline.runtime import blas_threads


def compare(P: np.ndarray, columns: np.ndarray, repeats: int) -> dict[str, float]:
    """CPU ms of the m = columns.shape[1] products P c each way, ratios to m dsymv calls, and
    each batched product's largest difference from dsymv's, relative to its largest entry."""
    m = columns.shape[1]

    def one_by_one() -> np.ndarray:
        return np.column_stack([symmetric_product(P, columns[:, j]) for j in range(m)])

    def symm() -> np.ndarray:
        return dsymm(1.0, P, columns, lower=1)

    def gemm() -> np.ndarray:
        return P @ columns

    times = {
        name: 1e3 * cpu_per_call(work, repeats)
        for name, work in (("dsymv", one_by_one), ("dsymm", symm), ("dgemm", gemm))
    }
    reference = one_by_one()
    scale = np.abs(reference).max()
    return {
        "m": m,
        **{f"{name}_ms": round(ms, 3) for name, ms in times.items()},
        "dsymm_ratio": round(times["dsymm"] / times["dsymv"], 2),
        "dgemm_ratio": round(times["dgemm"] / times["dsymv"], 2),
        "dsymm_relative_difference": float(np.abs(symm() - reference).max() / scale),
        "dgemm_relative_difference": float(np.abs(gemm() - reference).max() / scale),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[2000, 4000])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("bench/results/lockstep_products.jsonl"))
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    with blas_threads(1):
        for n in args.n:
            A = rng.standard_normal((n, n))
            P = np.asfortranarray(A + A.T)
            V = np.asfortranarray(rng.standard_normal((n, 3)))
            rows = [compare(P, V[:, :m], args.repeats) for m in (1, 2, 3)]
            append_row({"date": time.strftime("%Y-%m-%d"), "n": n, "rows": rows}, args.out)


if __name__ == "__main__":
    main()
