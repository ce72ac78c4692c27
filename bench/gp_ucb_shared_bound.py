"""GP-UCB's candidate screen with and without its shared-points bound: same points, faster?

The screen solves a candidate only while a lower bound on its lcb can beat the third best. The
bound conditions each candidate on its 4 nearest data points; in d = 1 those are one cluster's
near-duplicates, the bound is loose, and about 170 of the 512 candidates are solved each step
(a trsm of that many columns at n up to 5000: most of a d = 1 run). Where that bound leaves more
than `TIGHTEN_ABOVE` candidates to solve, the library also bounds the variance given 32 data
points spread over the data (`spread_points`), the same for every candidate, and takes the larger
lower bound. For each d, one whole run each way from the same stream on the bench's path
(`full_run.bench_path`, the paper's settings), one core: CPU seconds, the candidate columns
solved per step, how often the shared bound was formed, both final values, and the first step
whose chosen point differs (none when every choice agreed to the bit). Appends one JSON line per
d to `--out`.

    nice -n 5 python bench/gp_ucb_shared_bound.py --dims 1 5 --budget 5000
"""

from __future__ import annotations

import argparse
from pathlib import Path
from unittest import mock

import numpy as np
from full_run import (  # bench/, the script's folder
    append_row,
    bench_path,
    one_core,
    timed_paper_run,
)

import localbo.methods.gp_ucb.lower_confidence_bound
from localbo.optimizers import optimizer_class


def counted_run(d: int, budget: int, tighten_above: int) -> dict:
    """One whole run with the given `TIGHTEN_ABOVE`; its CPU, solved columns and points."""
    LCB = localbo.methods.gp_ucb.lower_confidence_bound.LowerConfidenceBound
    solve, shared = LCB._solve, LCB._shared_variance_bound
    counts = {"columns": 0, "shared_bounds": 0}

    def counting_solve(self, C, index, *rest):
        counts["columns"] += index.size
        return solve(self, C, index, *rest)

    def counting_shared(self, Kc):
        counts["shared_bounds"] += 1
        return shared(self, Kc)

    with (
        mock.patch.object(
            localbo.methods.gp_ucb.lower_confidence_bound, "TIGHTEN_ABOVE", tighten_above
        ),
        mock.patch.object(LCB, "_solve", counting_solve),
        mock.patch.object(LCB, "_shared_variance_bound", counting_shared),
    ):
        result, cpu = timed_paper_run(optimizer_class("gp_ucb")(), bench_path(d), budget)
    return {"cpu_s": cpu, "f": result.value, "X": result.observations[0], **counts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dims", type=int, nargs="+", default=[1, 5])
    parser.add_argument("--budget", type=int, default=5000)
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "results/gp_ucb_shared_bound.jsonl"
    )
    args = parser.parse_args()
    for d in args.dims:
        nearest = counted_run(d, args.budget, tighten_above=args.budget * 512)  # never formed
        library = counted_run(
            d,
            args.budget,
            tighten_above=localbo.methods.gp_ucb.lower_confidence_bound.TIGHTEN_ABOVE,
        )
        differing = np.flatnonzero(np.any(nearest["X"] != library["X"], axis=1))
        steps = args.budget - 1
        append_row(
            {
                "d": d,
                "budget": args.budget,
                "nearest_only_cpu_s": nearest["cpu_s"],
                "library_cpu_s": library["cpu_s"],
                "speedup": nearest["cpu_s"] / library["cpu_s"],
                "nearest_only_columns_per_step": nearest["columns"] / steps,
                "library_columns_per_step": library["columns"] / steps,
                "shared_bounds_formed": library["shared_bounds"],
                "nearest_only_f": nearest["f"],
                "library_f": library["f"],
                "first_differing_point": int(differing[0]) if differing.size else None,
                "largest_point_difference": float(np.max(np.abs(nearest["X"] - library["X"]))),
            },
            args.out,
        )


if __name__ == "__main__":
    with one_core():
        main()
