"""What GP-UCB's L-BFGS-B refinement of its acquisition does, step by step: whether a cheaper one
could reach the same lcb.

One default GP-UCB run on the bench's path at d (one core), where every refinement is recorded:
its evaluations, the lcb at its start and at its end. Over the second half of the run (n above
budget / 2, where the O(n^2) solves of those evaluations are most of the time) it prints, and
appends to --out, the evaluations per restart, how often each restart gives the chosen point,
how often restarts 2 and 3 beat the first and by how much lcb. A refinement that ran fewer
restarts or iterations would change the chosen point in those steps.

    nice -n 5 python bench/gp_ucb_refinement.py --d 10 --budget 1000
"""

from __future__ import annotations

import argparse
from pathlib import Path
from unittest.mock import patch

import numpy as np
from full_run import append_row, bench_path, one_core, paper_run  # bench/, the script's folder
from scipy.optimize import minimize

import localbo.methods.gp_ucb as gp_ucb_module
from localbo.optimizers import optimizer_class


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--d", type=int, default=10)
    parser.add_argument("--budget", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=Path("bench/results/gp_ucb_refinement.jsonl"))
    args = parser.parse_args()
    refinements: list[tuple[int, float, float]] = []

    def recorded(fun, x0, **options):
        res = minimize(fun, x0, **options)
        refinements.append((int(res.nfev), float(fun(x0)[0]), float(res.fun)))
        return res

    d = args.d
    method = optimizer_class("gp_ucb")()
    restarts = method.settings.restarts
    with one_core(), patch.object(gp_ucb_module, "minimize", recorded):
        result = paper_run(method, bench_path(d), args.budget)
    steps = np.array(refinements).reshape(-1, restarts, 3)  # (steps, restarts, [nfev, start, end])
    late = steps[len(steps) // 2 :]
    ends = np.minimum(late[:, :, 1], late[:, :, 2])
    first, best = ends[:, 0], ends.min(axis=1)
    beaten = best < first
    summary = {
        "d": d,
        "budget": args.budget,
        "f": result.value,
        "steps_counted": len(late),
        "evaluations_per_restart_mean": late[:, :, 0].mean(axis=0).round(1).tolist(),
        "chosen_restart_share": (
            np.bincount(ends.argmin(axis=1), minlength=restarts) / len(late)
        ).tolist(),
        "later_restart_beats_first_share": float(beaten.mean()),
        "lcb_gain_when_beaten_median": float(np.median((first - best)[beaten]))
        if beaten.any()
        else 0.0,
        "refinement_improves_first_candidate_share": float(np.mean(late[:, 0, 2] < late[:, 0, 1])),
    }
    append_row(summary, args.out)


if __name__ == "__main__":
    main()
