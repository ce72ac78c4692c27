"""Would a cheaper GP-UCB refinement be no worse? Final values and CPU per refinement setting.

Issue 10 allows a cheaper acquisition refinement (a change of algorithm) as the default only if
its final values over 10 Fig. 1 paths at d = 10 and d = 50 are no worse than today's. This bench
is the screen before that paper-scale comparison: GP-UCB runs on Fig. 1's own sample paths and
streams (`localbo.pipeline.fig1_job`: the same runs as the pipeline's at this budget), one per
path and (restarts, refine_iterations) setting, at a budget of the caller's choosing. It prints
and appends to --out, per setting, the median final value, the median paired difference to the
first setting (positive: worse) and the CPU seconds and L-BFGS-B evaluations summed over the paths.

A third number in a setting, M, refines each start on the GP of the M data points of largest
covariance with it (an O(M^2) evaluation instead of one pass over all n; while n <= M, on all
the data) and keeps the refined point only where its exact lcb beats the best so far: a cheaper
refinement to screen. Its L-BFGS-B evaluations, counted, are the local GP's.

    nice -n 15 python bench/gp_ucb_refinement_settings.py --d 10 --budget 1000 --paths 10 \\
        --settings 3,50 3,15 1,50 3,15,256
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path
from unittest.mock import patch

import numpy as np
import yaml
from full_run import append_row, one_core  # bench/, the script's folder
from scipy.optimize import minimize

import localbo.methods.gp_ucb as gp_ucb_module
from localbo.gp import GP
from localbo.kernels import make_kernel
from localbo.methods.gp_ucb.lower_confidence_bound import LowerConfidenceBound
from localbo.objective import Box
from localbo.optimizers import run_on_path
from localbo.pipeline.fig1_job import path_stream, run_streams
from localbo.pipeline.settings import load_settings
from localbo.sample_paths import FourierSamplePath


def refinement_setting(text: str) -> tuple[int, int, int]:
    """'restarts,refine_iterations[,local_points]' -> the triple (local_points 0: all data)."""
    parts = [int(part) for part in text.split(",")]
    if len(parts) not in (2, 3):
        raise argparse.ArgumentTypeError(f"expected restarts,iterations[,local_points]: {text}")
    return parts[0], parts[1], parts[2] if len(parts) == 3 else 0


def locally_refined(local_points: int, minimize_counted):
    """A `minimize` for `localbo.methods.gp_ucb.minimize_lcb` that refines a start on the GP of its
    `local_points` data points of largest covariance and reports the refined point's exact lcb
    as its value (so `minimize_lcb` keeps it only where that beats the best so far)."""

    def refine(lcb, x0, **options):
        gp = lcb.gp
        if gp.n <= local_points:
            return minimize_counted(lcb, x0, **options)
        near = np.argpartition(-gp.kernel(x0[None, :], gp.X)[0], local_points)[:local_points]
        S = np.sort(near)
        local_gp = GP(gp.kernel, gp.X[S], gp.y[S], gp.noise_var, mean=gp.prior_mean)
        res = minimize_counted(LowerConfidenceBound(local_gp, lcb.sqrt_beta), x0, **options)
        lower, upper = np.array(options["bounds"]).T
        res.fun = lcb(np.clip(res.x, lower, upper))[0]
        return res

    return refine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=Path("config/config.yaml"))
    parser.add_argument("--d", type=int, default=10)
    parser.add_argument("--budget", type=int, default=1000)
    parser.add_argument("--paths", type=int, default=10)
    parser.add_argument(
        "--settings",
        type=refinement_setting,
        nargs="+",
        default=[(3, 50, 0), (3, 15, 0), (1, 50, 0)],
    )
    parser.add_argument(
        "--out", type=Path, default=Path("bench/results/gp_ucb_refinement_settings.jsonl")
    )
    args = parser.parse_args()
    pipeline = load_settings(yaml.safe_load(args.config.read_text()))
    fig1, seed = pipeline.fig1, pipeline.seed
    kernel = make_kernel(fig1.kernel, fig1.lengthscale, fig1.outputscale)
    box = Box(fig1.box.lower, fig1.box.upper, args.d)
    paths = [
        FourierSamplePath.draw(kernel, args.d, fig1.num_features, path_stream(seed, args.d, i))
        for i in range(args.paths)
    ]
    evaluations = [0]

    def counted(*positional, **options):
        res = minimize(*positional, **options)
        evaluations[0] += res.nfev
        return res

    configured = fig1.method("gp_ucb").optimizer.settings
    first: np.ndarray | None = None
    for restarts, iterations, local_points in args.settings:
        method = gp_ucb_module.GPUCB(
            replace(configured, restarts=restarts, refine_iterations=iterations)
        )
        start, evaluations[0] = time.process_time(), 0
        refine = locally_refined(local_points, counted) if local_points else counted
        with patch.object(gp_ucb_module, "minimize", refine):
            values = np.array(
                [
                    run_on_path(
                        method,
                        path,
                        kernel,
                        0.0,
                        args.budget,
                        box,
                        *run_streams(seed, "gp_ucb", args.d, 0.0, i),
                    ).value
                    for i, path in enumerate(paths)
                ]
            )
        first = values if first is None else first
        row = {
            "d": args.d,
            "budget": args.budget,
            "paths": args.paths,
            "restarts": restarts,
            "refine_iterations": iterations,
            "local_points": local_points,
            "median": float(np.median(values)),
            "paired_difference_median": float(np.median(values - first)),
            "cpu_s": time.process_time() - start,
            "lbfgsb_evaluations": evaluations[0],
            "values": values.tolist(),
        }
        append_row(row, args.out)


if __name__ == "__main__":
    with one_core():
        main()
