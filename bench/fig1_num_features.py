"""Does the Fig. 1 sigma = 0 median still move with the number of Fourier features M?

Runs noiseless local BO (budget 5000, from x = 0) on the same number of RBF sample paths for each
M and prints the median and its bootstrap standard error. Paths for different M are different
draws (the streams are named by M), so differences below about two standard errors are noise.

    nice -n 10 python bench/fig1_num_features.py --d 50 --paths 30 --features 1024 4096 16384
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from localbo.kernels import RBF
from localbo.methods.local_bo import LocalBOSettings, noiseless_design, run_noiseless_local_bo
from localbo.pipeline.runtime import blas_threads
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--d", type=int, default=50)
    parser.add_argument("--paths", type=int, default=20)
    parser.add_argument("--budget", type=int, default=5000)
    parser.add_argument("--features", type=int, nargs="+", default=[1024, 4096, 16384])
    parser.add_argument("--seed", type=int, default=20231210)
    args = parser.parse_args()
    kernel, settings = RBF(), LocalBOSettings()
    design = noiseless_design(kernel, args.d, rng_for(args.seed, "design"), settings)
    boot = rng_for(args.seed, "bootstrap")
    print(f"d = {args.d}, {args.paths} paths, budget {args.budget}")
    print("M        median   bootstrap-se  s/run")
    for M in args.features:
        values, start = [], time.perf_counter()
        for i in range(args.paths):
            path = FourierSamplePath.draw(
                kernel, args.d, M, rng_for(args.seed, "fig1-M", M, args.d, i)
            )
            res = run_noiseless_local_bo(
                path, kernel, np.zeros(args.d), args.budget, design, settings
            )
            values.append(res.value)
        values = np.asarray(values)
        medians = np.median(boot.choice(values, size=(2000, len(values))), axis=1)
        seconds = (time.perf_counter() - start) / args.paths
        print(f"{M:<8d} {np.median(values):8.3f} {medians.std():10.3f} {seconds:8.2f}", flush=True)


if __name__ == "__main__":
    with blas_threads(1):
        main()
