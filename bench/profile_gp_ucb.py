"""Where one GP-UCB run spends its time: cProfile of `gp_ucb` on an RBF sample path, per d.

The pipeline's settings (the defaults of `GPUCBSettings`), sigma = 0, box [-5, 5]^d, start at
x = 0, one BLAS thread. Prints, per d, the run's CPU time and the functions with the most total
(self) time, so a speedup starts from measurements.

    nice -n 5 python bench/profile_gp_ucb.py --dims 1 5 20 --budget 1500 --top 12
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time

import numpy as np

from localbo.kernels import RBF
from localbo.methods.gp_ucb import GPUCB
from localbo.objective import Box
from localbo.optimizers import run_on_path
from localbo.pipeline.runtime import blas_threads
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dims", type=int, nargs="+", default=[1, 5, 20])
    parser.add_argument("--budget", type=int, default=1500)
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    for d in args.dims:
        path = FourierSamplePath.draw(RBF(), d, 4096, rng_for(0, "profile-gp-ucb", d))
        profile = cProfile.Profile()
        start = time.process_time()
        profile.enable()
        result = run_on_path(
            GPUCB(), path, RBF(), 0.0, args.budget, Box(-5.0, 5.0, d), None, rng_for(1, d)
        )
        profile.disable()
        seconds = time.process_time() - start
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(args.top)
        print(f"d = {d}, budget {args.budget}: {seconds:.1f} s CPU, f = {result.value:.4f}")
        print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[-3000:])
        print(flush=True)


if __name__ == "__main__":
    with blas_threads(1):
        np.seterr(all="ignore")
        main()
