"""MPD's acquisition optimization against the oracle (its implementation before the O(n d)
rewrite), on the same states.

A default MPD run at d on the bench's path follows the oracle (`tests/unit/mpd_oracle.py`); at
every point it samples, the library's `sample_point` is given the same GP, iterate, gradient mean
and a copy of the same stream, and both are timed (process CPU, one BLAS thread, interleaved).
Counted: points where the two choices differ by more than 1e-6 (max norm), the largest
difference, and at those points the oracle's alpha at the library's choice relative to its own
(alpha' / alpha - 1: > 0 where the library's is better, ~0 at a near-tie); beside the same for
the oracle against itself with the gradient mean one ulp off (the null: how far rounding alone
moves the choice, L-BFGS-B's path being sensitive to it). Appends one JSON line per d to --out.

    nice -n 5 python bench/mpd_acquisition.py --dims 1 5 10 20 30 50 --budget 600
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from pathlib import Path
from unittest.mock import patch

import numpy as np
from full_run import append_row, bench_path, one_core, paper_run  # bench/, the script's folder

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the oracle lives in tests/

import localbo.methods.mpd as mpd_module
from localbo.optimizers import optimizer_class
from tests.unit.mpd_oracle import DenseDownhillQuadratic


def compare(d: int, budget: int) -> dict:
    """The run of `budget` evaluations at d, both ways at every sampled point."""
    library = mpd_module.sample_point
    seconds = {"oracle": 0.0, "library": 0.0}
    differences: dict[str, list[float]] = {"library": [], "null": []}
    gaps: dict[str, list[float]] = {"library": [], "null": []}

    def record(kind: str, alpha: DenseDownhillQuadratic, point, other) -> None:
        differences[kind].append(float(np.abs(point - other).max()))
        if differences[kind][-1] > 1e-6:
            values = [alpha(p, with_grad=False)[0] for p in (point, other)]
            gaps[kind].append(values[1] / values[0] - 1.0)

    def both(gp, x, mean, box, rng, settings):
        twin, null_twin = copy.deepcopy(rng), copy.deepcopy(rng)
        start = time.process_time()
        point = library(gp, x, mean, box, rng, settings, DenseDownhillQuadratic)
        middle = time.process_time()
        other = library(gp, x, mean, box, twin, settings)
        seconds["oracle"] += middle - start
        seconds["library"] += time.process_time() - middle
        alpha = DenseDownhillQuadratic(gp, x, mean)
        record("library", alpha, point, other)
        off = library(
            gp, x, np.nextafter(mean, np.inf), box, null_twin, settings, DenseDownhillQuadratic
        )
        record("null", alpha, point, off)
        return point

    with one_core(), patch.object(mpd_module, "sample_point", both):
        paper_run(optimizer_class("mpd")(), bench_path(d), budget)
    row = {
        "d": d,
        "budget": budget,
        "points": len(differences["library"]),
        "oracle_cpu_s": seconds["oracle"],
        "library_cpu_s": seconds["library"],
        "ratio": seconds["oracle"] / seconds["library"],
    }
    for kind in ("library", "null"):
        row |= {
            f"{kind}_differing_over_1e-6": len(gaps[kind]),
            f"{kind}_largest_difference": max(differences[kind]),
            f"{kind}_alpha_ratio_min": min(gaps[kind], default=0.0),
            f"{kind}_alpha_ratio_max": max(gaps[kind], default=0.0),
            f"{kind}_alpha_ratio_median": float(np.median(gaps[kind])) if gaps[kind] else 0.0,
        }
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dims", type=int, nargs="+", default=[1, 5, 10, 20, 30, 50])
    parser.add_argument("--budget", type=int, default=600)
    parser.add_argument("--out", type=Path, default=Path("bench/results/mpd_acquisition.jsonl"))
    args = parser.parse_args()
    for d in args.dims:
        row = {"date": time.strftime("%Y-%m-%d"), **compare(d, args.budget)}
        append_row(row, args.out)


if __name__ == "__main__":
    main()
