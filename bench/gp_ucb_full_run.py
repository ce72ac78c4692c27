"""One whole GP-UCB run at the paper's settings on one core: its CPU seconds and progress log.

The pipeline's settings (the defaults of `GPUCBSettings`), sigma = 0, box [-5, 5]^d, from x = 0,
on the bench's RBF sample path for d (the same as `bench_gp_ucb_exact.py`). Appends one JSON line
per run to `--out`, the per-d cost that the README's cost table and the Fig. 1 rules' `runtime`
come from.

    nice -n 5 python bench/gp_ucb_full_run.py --dims 1 5 10 20 30 50 --budget 5000
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path

from threadpoolctl import threadpool_limits

from localbo.gp_ucb import GPUCB
from localbo.kernels import RBF
from localbo.objective import Box
from localbo.optimizers import run_on_path
from localbo.pipeline.runtime import keep_freed_memory
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dims", type=int, nargs="+", default=[1, 5, 10, 20, 30, 50])
    parser.add_argument("--budget", type=int, default=5000)
    parser.add_argument("--out", type=Path, default=Path("bench/results/gp_ucb_full_runs.jsonl"))
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    for d in args.dims:
        path = FourierSamplePath.draw(RBF(), d, 4096, rng_for(0, "bench-gp-ucb-exact", d))
        start = time.process_time()
        result = run_on_path(
            GPUCB(), path, RBF(), 0.0, args.budget, Box(-5.0, 5.0, d), None, rng_for(1, d, 0)
        )
        row = {
            "d": d,
            "budget": args.budget,
            "cpu_s": time.process_time() - start,
            "f": result.value,
        }
        print(row, flush=True)
        with args.out.open("a") as out:
            out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    keep_freed_memory()
    with threadpool_limits(limits=1):
        main()
