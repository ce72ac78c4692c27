"""GP-UCB with its kept inverse (`localbo.precision`) against the factor's two solves, in one run.

Whole runs: `gp_ucb` with and without `kept_inverse` on the bench's path (`full_run.bench_path`),
sigma = 0, box [-5, 5]^d, from x = 0, the same stream, one BLAS thread: CPU seconds of each, their
ratio, the final values and the first step whose chosen points differ by more than 1e-6 (a rounding
difference moves an L-BFGS-B refinement on a flat lcb within a few steps, see
`bench_gp_ucb_exact.py --part equality`, so the two are different runs of the same algorithm).

Same work: from the kept-inverse run's first n points (n = a quarter, half, three quarters and all
of the budget), `--steps` acquisition steps (`minimize_lcb`) with the kept inverse and with the
factor alone, on the same GP and the same candidate streams: CPU per step, ratio, and how far the
chosen points lie apart (with the oracle's lcb gap where they differ). Appends one JSON line per d
to `--out`.

    nice -n 5 python bench/gp_ucb_kept_inverse.py --dims 10 --budget 3000
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # full_run's path and rows

from full_run import append_row, bench_path, one_core

from localbo.gp import GP
from localbo.kernels import RBF
from localbo.methods.gp_ucb import GPUCBSettings, gp_ucb, minimize_lcb
from localbo.methods.gp_ucb.lower_confidence_bound import LowerConfidenceBound
from localbo.objective import Box, NoisyObjective
from localbo.seeding import rng_for

SETTINGS = GPUCBSettings()


def whole_run(d: int, budget: int, kept_inverse: bool) -> tuple[float, object]:
    """(CPU seconds, result) of one run on the bench's path."""
    start = time.process_time()
    result = gp_ucb(
        NoisyObjective(bench_path(d), 0.0, budget),
        RBF(),
        np.zeros(d),
        Box(-5.0, 5.0, d),
        rng_for(1, d, 0),
        SETTINGS,
        kept_inverse=kept_inverse,
    )
    return time.process_time() - start, result


def same_work(X: np.ndarray, y: np.ndarray, n: int, steps: int) -> dict:
    """`steps` acquisition steps on the GP of the first n points, through P and the factor."""
    d, box = X.shape[1], Box(-5.0, 5.0, X.shape[1])
    gp = GP(RBF(), X[:1], y[:1], SETTINGS.min_noise_var, capacity=n, keep_precision=True)
    for i in range(1, n):
        gp.append(X[i : i + 1], y[i : i + 1])
    sqrt_beta = math.sqrt(SETTINGS.beta(n + 1, d, box.width))
    best, kept = int(np.argmin(y[:n])), gp.precision
    choices, seconds = {}, {}
    for name, precision in (("kept_inverse", kept), ("factor", None)):
        gp.precision = precision
        start = time.process_time()
        choices[name] = np.array(
            [
                minimize_lcb(gp, box, X[best], sqrt_beta, rng_for(2, d, n, step), SETTINGS)
                for step in range(steps)
            ]
        )
        seconds[name] = (time.process_time() - start) / steps
    gp.precision = None
    lcb = LowerConfidenceBound(gp, sqrt_beta)
    apart = np.max(np.abs(choices["kept_inverse"] - choices["factor"]), axis=1)
    gaps = [lcb(a)[0] - lcb(b)[0] for a, b in zip(*choices.values(), strict=True)]
    return {
        "n": n,
        "seconds_per_step": {k: round(v, 4) for k, v in seconds.items()},
        "ratio": round(seconds["factor"] / seconds["kept_inverse"], 2),
        "steps": steps,
        "steps_apart_1e-6": int(np.sum(apart > 1e-6)),
        "largest_apart": float(apart.max()),
        "largest_lcb_gap": float(np.max(np.abs(gaps))),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dims", type=int, nargs="+", default=[10])
    parser.add_argument("--budget", type=int, default=3000)
    parser.add_argument("--steps", type=int, default=10, help="steps timed per n (same work)")
    parser.add_argument("--out", type=Path, default=Path("bench/results/gp_ucb_kept_inverse.jsonl"))
    args = parser.parse_args()
    for d in args.dims:
        kept_seconds, kept = whole_run(d, args.budget, True)
        factor_seconds, factor = whole_run(d, args.budget, False)
        apart = np.max(np.abs(kept.observations[0] - factor.observations[0]), axis=1) > 1e-6
        X, y = kept.observations
        row = {
            "d": d,
            "budget": args.budget,
            "date": time.strftime("%Y-%m-%d"),
            "whole_run_seconds": {
                "kept_inverse": round(kept_seconds, 1),
                "factor": round(factor_seconds, 1),
            },
            "whole_run_ratio": round(factor_seconds / kept_seconds, 2),
            "kept_to_the_end": kept.model.precision is not None,
            "values": {"kept_inverse": kept.value, "factor": factor.value},
            "first_step_apart_1e-6": int(np.argmax(apart)) if apart.any() else None,
            "same_work": [
                same_work(X, y, n, args.steps)
                for n in sorted(
                    {args.budget // 4, args.budget // 2, 3 * args.budget // 4, args.budget - 1}
                )
            ],
        }
        append_row(row, args.out)


if __name__ == "__main__":
    with one_core():
        main()
