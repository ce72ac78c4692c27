"""TuRBO-1's Thompson draw against its implementation before the speedups: the same points?

The oracle (`tests/unit/turbo_oracle.py`) takes the prior draw's values from np.cos (scalar in
float64) and the kernel rows from scipy's cdist; the library takes them through the half-angle
tangent (`FourierSamplePath.values_by_half_angle`) and in Gram form (`localbo.gram.cross_kernel`).
For each d, one whole run of each from the same stream on the bench's path (`full_run.bench_path`,
the paper's settings), one core: every evaluated point is recorded, and the row gives the
largest difference between the two runs' points (0 when every Thompson argmin agreed), both
final values and both CPU times. Appends one JSON line per d to `--out`.

    nice -n 5 python bench/turbo_thompson_draw.py --dims 1 5 10 20 30 50 --budget 5000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from unittest import mock

import numpy as np
from full_run import (  # bench/, the script's folder
    append_row,
    bench_path,
    one_core,
    timed_paper_run,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the oracle lives in tests/

import localbo.methods.turbo
from localbo.objective import NoisyObjective
from localbo.optimizers import optimizer_class
from tests.unit import turbo_oracle


def recorded_run(d: int, budget: int, oracle: bool) -> tuple[np.ndarray, float, float]:
    """(evaluated points (budget, d), final true f, CPU seconds) of one TuRBO-1 run."""
    points: list[np.ndarray] = []
    evaluate = NoisyObjective.__call__

    def recording(objective: NoisyObjective, X: np.ndarray) -> np.ndarray:
        points.append(np.atleast_2d(X).copy())
        return evaluate(objective, X)

    draw = turbo_oracle.thompson_values if oracle else localbo.methods.turbo.thompson_values
    with (
        mock.patch.object(NoisyObjective, "__call__", recording),
        mock.patch.object(localbo.methods.turbo, "thompson_values", draw),
    ):
        result, cpu = timed_paper_run(optimizer_class("turbo")(), bench_path(d), budget)
    return np.vstack(points), result.value, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dims", type=int, nargs="+", default=[1, 5, 10, 20, 30, 50])
    parser.add_argument("--budget", type=int, default=5000)
    parser.add_argument("--out", type=Path, default=Path("bench/results/turbo_thompson_draw.jsonl"))
    args = parser.parse_args()
    for d in args.dims:
        oracle_points, oracle_f, oracle_cpu = recorded_run(d, args.budget, oracle=True)
        points, f, cpu = recorded_run(d, args.budget, oracle=False)
        row = {
            "d": d,
            "budget": args.budget,
            "max_point_difference": float(np.abs(points - oracle_points).max()),
            "f": f,
            "oracle_f": oracle_f,
            "cpu_s": cpu,
            "oracle_cpu_s": oracle_cpu,
            "speedup": oracle_cpu / cpu,
        }
        append_row(row, args.out)


if __name__ == "__main__":
    with one_core():
        main()
