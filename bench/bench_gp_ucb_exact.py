"""GP-UCB with pruned candidate scoring against the dense oracle, on the same runs.

The library's `lcb_values` solves a candidate's variance only where it can matter (a negligible
kernel row leaves it at the prior to the bit; a bound from the nearest data point prunes
candidates that cannot reach the best `restarts`), and the refinement skips the solve at points
with a negligible row. The oracle (`tests/unit/gp_ucb_oracle.py`) solves every candidate and every
refinement step. Both run GP-UCB with the pipeline's settings on the same RBF sample path per d
(sigma = 0, box [-5, 5]^d, from x = 0), one BLAS thread; the table gives the CPU seconds of each,
their ratio, and the largest difference between the chosen points.

    nice -n 5 python bench/bench_gp_ucb_exact.py --dims 1 5 20 50 --budget 1500
    nice -n 5 python bench/bench_gp_ucb_exact.py --dims 1 5 10 20 30 50 --budget 500 --paths 3 \
        --out bench/results/gp_ucb_equality.json
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the oracle lives in tests/

import localbo.gp_ucb as gp_ucb_module
from localbo.gp_ucb import GPUCB
from localbo.io import save_json
from localbo.kernels import RBF
from localbo.objective import Box
from localbo.optimizers import run_on_path
from localbo.pipeline.runtime import keep_freed_memory
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for
from tests.unit.gp_ucb_oracle import dense_lcb_value_and_gradient, dense_lcb_values

LIBRARY = (gp_ucb_module.lcb_values, gp_ucb_module.lcb_value_and_gradient)
ORACLE = (dense_lcb_values, dense_lcb_value_and_gradient)


def run(d: int, budget: int, scoring: tuple, path_index: int = 0) -> tuple[np.ndarray, float]:
    """The chosen points of one run and its CPU seconds, with the given scoring functions."""
    gp_ucb_module.lcb_values, gp_ucb_module.lcb_value_and_gradient = scoring
    stream = ("bench-gp-ucb-exact", d) if path_index == 0 else ("bench-gp-ucb-exact", d, path_index)
    path = FourierSamplePath.draw(RBF(), d, 4096, rng_for(0, *stream))
    start = time.process_time()
    box = Box(-5.0, 5.0, d)
    result = run_on_path(GPUCB(), path, RBF(), 0.0, budget, box, None, rng_for(1, d, path_index))
    return result.observations[0], time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dims", type=int, nargs="+", default=[1, 5, 20, 50])
    parser.add_argument("--budget", type=int, default=1500)
    parser.add_argument("--paths", type=int, default=1, help="sample paths per d")
    parser.add_argument("--out", type=Path, default=Path("bench/results/gp_ucb_exact.json"))
    args = parser.parse_args()
    rows = []
    print("d     path  budget  oracle s  library s  ratio  max |x - x_oracle|")
    for d in args.dims:
        for i in range(args.paths):
            ours, ours_s = run(d, args.budget, LIBRARY, i)
            oracle, oracle_s = run(d, args.budget, ORACLE, i)
            diff = float(np.max(np.abs(ours - oracle)))
            rows.append(
                {
                    "d": d,
                    "path": i,
                    "budget": args.budget,
                    "oracle_s": oracle_s,
                    "library_s": ours_s,
                    "diff": diff,
                }
            )
            print(
                f"{d:<5d} {i:<5d} {args.budget:<7d} {oracle_s:8.1f}  {ours_s:9.1f}"
                f"  {oracle_s / ours_s:5.2f}  {diff:.3g}",
                flush=True,
            )
        save_json(args.out, {"rows": rows})


if __name__ == "__main__":
    keep_freed_memory()
    with threadpool_limits(limits=1):
        main()
