"""GP-UCB against the oracle (its implementation before issue 10's speedups), on the same runs.

`--part speed`: whole runs of `gp_ucb` and of the oracle (`tests/unit/gp_ucb_oracle.py`) with the
pipeline's settings on the same RBF sample path per d (sigma = 0, box [-5, 5]^d, from x = 0), one
BLAS thread: the CPU seconds of each and their ratio. The two runs part ways within a few steps in
low d (a rounding difference moves an L-BFGS-B refinement, see `--part equality`), so the final
values are different runs of the same algorithm and are printed, not compared.

`--part equality`: the oracle's run on `--paths` paths per d, replayed step by step
(`gp_ucb_oracle.replay`): at each step the library, given the oracle's data and candidates, makes
its choice. Counted: steps whose choice differs from the oracle's by more than 1e-6, beside the same
count for the oracle itself with its weights one ulp off (the null: how far rounding alone moves
the choice), and the largest |lcb gap| of a differing step (the oracle's lcb at the library's
choice minus at its own).

    nice -n 5 python bench/bench_gp_ucb_exact.py --part speed --dims 1 5 10 20 30 50 --budget 1500
    nice -n 5 python bench/bench_gp_ucb_exact.py --part equality --dims 1 5 10 20 30 50 \
        --budget 500 --paths 3
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from full_run import bench_path, one_core, timed_paper_run  # bench/, the script's folder

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the oracle lives in tests/

from localbo.io import save_json
from localbo.kernels import RBF
from localbo.methods.gp_ucb import GPUCB, GPUCBSettings
from localbo.objective import Box, NoisyObjective
from localbo.seeding import rng_for
from tests.unit.gp_ucb_oracle import oracle_gp_ucb, replay

NOISE_VAR = GPUCBSettings().min_noise_var  # sigma = 0


def speed(d: int, budget: int) -> dict:
    """CPU seconds and final true values of one library run and one oracle run on path 0."""
    path, box = bench_path(d), Box(-5.0, 5.0, d)
    result, library_s = timed_paper_run(GPUCB(), path, budget)
    start = time.process_time()
    X, y = oracle_gp_ucb(
        NoisyObjective(path, 0.0, budget), RBF(), np.zeros(d), box, rng_for(1, d, 0)
    )
    oracle_s = time.process_time() - start
    return {
        "d": d,
        "budget": budget,
        "oracle_s": oracle_s,
        "library_s": library_s,
        "ratio": oracle_s / library_s,
        "library_f": result.value,
        "oracle_f": float(path(X[np.argmin(y)][None, :])[0]),
    }


def equality(d: int, budget: int, index: int) -> dict:
    """Steps of the oracle's run where the library's (and the one-ulp oracle's) choice differs."""
    path, box = bench_path(d, index), Box(-5.0, 5.0, d)
    X, y = oracle_gp_ucb(
        NoisyObjective(path, 0.0, budget), RBF(), np.zeros(d), box, rng_for(1, d, index)
    )
    row = {"d": d, "path": index, "steps": budget - 1}
    for name, null in (("library", False), ("one_ulp_oracle", True)):
        choices, gaps = replay(X, y, RBF(), box, rng_for(1, d, index), NOISE_VAR, null=null)
        differs = np.max(np.abs(choices - X[1:]), axis=1) > 1e-6
        row[f"{name}_differing"] = int(differs.sum())
        row[f"{name}_first"] = int(np.argmax(differs)) + 1 if differs.any() else None
        row[f"{name}_max_gap"] = float(np.max(np.abs(gaps[differs]), initial=0.0))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["speed", "equality"], required=True)
    parser.add_argument("--dims", type=int, nargs="+", default=[1, 5, 20, 50])
    parser.add_argument("--budget", type=int, default=1500)
    parser.add_argument("--paths", type=int, default=1, help="sample paths per d (equality)")
    parser.add_argument("--out", type=Path, help="default bench/results/gp_ucb_<part>.json")
    args = parser.parse_args()
    out = args.out or Path(f"bench/results/gp_ucb_{args.part}.json")
    rows = []
    for d in args.dims:
        for index in range(args.paths if args.part == "equality" else 1):
            row = speed(d, args.budget) if args.part == "speed" else equality(d, args.budget, index)
            rows.append(row)
            print(row, flush=True)
            save_json(out, {"rows": rows})


if __name__ == "__main__":
    with one_core():
        main()
