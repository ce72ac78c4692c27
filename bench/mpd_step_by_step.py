"""MPD's reference mode against its authors' code step by step, on the code's own states.

The script exports one of Fig. 1's paths, runs the authors' code on it through
`bench/reference_driver.py --trace` (in the checkout and environment
`bench/mpd_against_reference.py` takes, from x = 0, noiseless), which records the run (every
acquisition optimization: the iterate, the window, the gradient mean of the iteration, the point
chosen and its value; every move: the window and the iterates before and after). This script
puts each recorded state into `localbo.methods.mpd` and asks it the same questions, so a
departure shows where it happens instead of in the final values of whole runs:

- acquisition: our alpha at the code's chosen point against the code's value (the same function
  if their ratio less 1 is 0), as the reference mode computes it and with the gradient
  covariance clamped entrywise at 1e-9 (the code's clamp, which it applies in its move only:
  what the clamp would change in the acquisition); and the value our L-BFGS-B restarts reach
  from the state against the code's;
- move: our move from the state (reference mode) against the code's end point.

The gradient mean the acquisition keeps for an iteration is checked too (ours from the window
at the iteration's first acquisition, against the code's), from the second iteration on (the
first's is 0). The code maximizes -f: its targets are the window's standardized -f, so ours
are their negation. Writes one JSON line per question with the median and the 10 % and 90 %
quantiles of the ratios less 1 and of the distances.

With `--work`, the exported path and the trace are kept there, and a trace found there is used
instead of running the code again (a run takes minutes).

    python bench/mpd_step_by_step.py CHECKOUT --python REFERENCE_PYTHON --path 0 --dtype float64
"""

from __future__ import annotations

import numpy as np
from full_run import append_row, code_version  # bench/, the script's folder
from mpd_against_reference import MPD_CODE
from reference_check import quantiles, step_by_step_parser, traced_run

from localbo.gp import GP
from localbo.kernels import RBF
from localbo.methods.mpd import DownhillQuadratic, MPDSettings, move, sample_point
from localbo.objective import Box
from localbo.pipeline.fig1 import Fig1Settings
from localbo.window import REFERENCE_NOISE_VAR


def window(trace: dict, kind: str, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Step k's window: (n, d) inputs and (n,) targets of f (the code's, negated), NaN rows
    dropped."""
    X, targets = trace[f"{kind}_X"][k], trace[f"{kind}_targets"][k]
    kept = ~np.isnan(targets)
    return X[kept], -targets[kept]


def main() -> None:
    description, out = __doc__.split("\n\n")[0], "bench/results/mpd_step_by_step.jsonl"
    parser = step_by_step_parser(MPD_CODE, description, 0, 500, out)
    parser.add_argument("--dtype", choices=("float32", "float64"), default="float64")
    args = parser.parse_args()
    name = f"mpd-trace-d{args.d}-path{args.path}-{args.dtype}"
    commit, trace = traced_run(MPD_CODE, args, name, ["--dtype", args.dtype])
    fig1 = Fig1Settings()
    kernel = RBF(fig1.lengthscale, fig1.outputscale)
    box = Box(fig1.box.lower, fig1.box.upper, args.d)
    settings = MPDSettings(reference_code=True)
    rng = np.random.default_rng(args.seed)
    same, clamped, reached, means = [], [], [], []
    for k in range(len(trace["acquisition_value"])):
        X, y = window(trace, "acquisition", k)
        gp = GP(kernel, X, y, REFERENCE_NOISE_VAR)
        x, mean = trace["acquisition_x"][k], -trace["acquisition_mean_d"][k]
        if k % args.d == 0 and k > 0:  # an iteration's first point: the window ends with f(x)
            means.append(float(np.linalg.norm(gp.grad_mean(x) - mean) / np.linalg.norm(mean)))
        chosen, value = trace["acquisition_chosen"][k][None, :], trace["acquisition_value"][k]
        same.append(float(DownhillQuadratic(gp, x, mean).values(chosen)[0]) / value - 1)
        clamp = DownhillQuadratic(gp, x, mean, clamp=True)
        clamped.append(float(clamp.values(chosen)[0]) / value - 1)
        ours = sample_point(gp, x, mean, box, rng, settings)
        reached.append(float(DownhillQuadratic(gp, x, mean).values(ours[None, :])[0]) / value - 1)
    distance, travelled = [], []
    for k in range(len(trace["move_x"])):
        X, y = window(trace, "move", k)
        x, after = trace["move_x"][k], trace["move_after"][k]
        ours = move(GP(kernel, X, y, REFERENCE_NOISE_VAR), x, box, settings)
        distance.append(float(np.linalg.norm(ours - after)))
        travelled.append(float(np.linalg.norm(after - x)))
    run = {"commit": commit, "localbo": code_version(), "d": args.d, "budget": args.budget,
           "path": args.path, "dtype": args.dtype}  # fmt: skip
    rows = {
        "gradient mean at an iteration's start: relative distance from the code's": means,
        "acquisition at the code's point: ours / code's - 1": same,
        "acquisition at the code's point, covariance clamped: ours / code's - 1": clamped,
        "acquisition our restarts reach: ours / code's - 1": reached,
        "move: distance of our end point from the code's": distance,
        "move: the code's step length": travelled,
    }
    for question, values in rows.items():
        row = {**run, "question": question, **quantiles(values)}
        append_row(row, args.out)


if __name__ == "__main__":
    main()
