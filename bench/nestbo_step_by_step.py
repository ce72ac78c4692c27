"""NeST-BO's reference mode against its authors' code step by step, on the code's own states.

The script exports one of Fig. 1's paths and runs the authors' code on it through
`bench/nestbo_reference_driver.py --trace --isotropic` (in the checkout and environment
`bench/nestbo_against_reference.py` takes, from x = 0, noiseless): the code with one lengthscale
(the check's "one lengthscale" diagnosis), so that each of its GPs is one ours can hold. The
trace has every fit, acquisition optimization and move with the GP's data and hyperparameters.
This script puts each recorded state into `localbo.methods.nestbo`, in the path's units (the
code's unit cube is Fig. 1's box, W = 10 wide; its targets are standardized, its mean 0), with
the reference mode's settings, and asks it the same questions, so a departure shows where it
happens instead of in the final values of whole runs:

- acquisition at the code's point: the code's value against ours (the code's value is the
  whole variance its data and the point explain, in its unit cube: W^2 (||B||_F^2 + alpha(z))
  in ours with h = W; the same function if their ratio less 1 is 0);
- acquisition our restarts reach: alpha at the point our L-BFGS-B restarts find from the same
  state against alpha at the code's point, (ours - the code's) / ours (1 where the code's point
  explains nothing);
- move: our move from the state against the code's end point, and the moves where ours takes
  the Newton step and the code's the gradient step or the other way (share of moves);
- fit: our ML-II fit (the reference mode's: one lengthscale, on the standardized observations
  with a zero mean, as the code's) on the code's data against the code's fit (lengthscale, ours
  / the code's less 1): an iteration's first fit from the code's initial values, the fit before
  a move from the code's first fit of the iteration (as the code starts it); our move with our
  fit against the code's end point; the same with the constant mean fitted too (`fit_mean`).

Writes one JSON line per question with the median and the 10 % and 90 % quantiles. With
`--work`, the exported path and the trace are kept there, and a trace found there is used
instead of running the code again (a run takes minutes).

    python bench/nestbo_step_by_step.py CHECKOUT --python REFERENCE_PYTHON --path 5
"""

from __future__ import annotations

import numpy as np
from full_run import append_row, code_version  # bench/, the script's folder
from nestbo_against_reference import AS_THE_CODE, BOX, NESTBO_CODE, WIDTH
from reference_check import quantiles, step_by_step_parser, traced_run

from localbo.gp import GP
from localbo.hyperparameters import Hyperparameters
from localbo.kernels import RBF
from localbo.methods.nestbo import (
    NewtonInformation,
    mean_derivatives,
    newton_direction,
    newton_move,
    refitted,
)
from localbo.multistart import maximize
from localbo.objective import Box


def fitted(trace: dict, kind: str, k: int) -> Hyperparameters:
    """Step k's hyperparameters as the code fitted them (of its standardized targets, mean 0),
    the lengthscale in the path's units."""
    lengthscale = WIDTH * float(trace[f"{kind}_lengthscale"][k][0])
    outputscale, noise = trace[f"{kind}_outputscale"][k], trace[f"{kind}_noise"][k]
    return Hyperparameters(0.0, lengthscale, float(outputscale), float(noise))


def state(trace: dict, kind: str, k: int) -> tuple[GP, np.ndarray]:
    """Step k's GP as the code held it, in the path's units, and the (n,) observations its
    targets standardize."""
    kept = ~np.isnan(trace[f"{kind}_targets"][k])
    X = BOX.lower + WIDTH * trace[f"{kind}_X"][k][kept]
    params = fitted(trace, kind, k)
    kernel = RBF(params.lengthscale, params.outputscale)
    targets, y = trace[f"{kind}_targets"][k][kept], trace[f"{kind}_y"][k][kept]
    return GP(kernel, X, targets, params.noise_var), y


def main() -> None:
    description, out = __doc__.split("\n\n")[0], "bench/results/nestbo_step_by_step.jsonl"
    args = step_by_step_parser(NESTBO_CODE, description, 5, 300, out).parse_args()
    name = f"nestbo-trace-d{args.d}-path{args.path}-isotropic"
    commit, trace = traced_run(NESTBO_CODE, args, name, ["--isotropic"])
    box = Box(BOX.lower, BOX.upper, args.d)
    settings, rng = AS_THE_CODE, np.random.default_rng(args.seed)
    same, reached = [], []
    for k in range(len(trace["acquisition_value"])):
        gp, _ = state(trace, "acquisition", k)
        x = BOX.lower + WIDTH * trace["acquisition_x"][k]
        lower, upper = BOX.lower + WIDTH * trace["acquisition_bounds"][k]
        information = NewtonInformation(gp, x, hessian_scale=settings.hessian_scale)
        chosen = (BOX.lower + WIDTH * trace["acquisition_chosen"][k])[None, :]
        at_chosen = float(information.values(chosen)[0])
        explained = WIDTH**2 * (float(np.sum(information.B**2)) + at_chosen)
        same.append(explained / trace["acquisition_value"][k] - 1)
        ours = maximize(information, lower, upper, rng, settings.restarts, settings.raw_samples,
                        settings.acquisition_iterations)  # fmt: skip
        best = float(information.values(ours[None, :])[0])
        reached.append((best - at_chosen) / best if best > 0 else 0.0)
    first_fits = []  # an iteration's first fit, from the code's initial values
    for k in range(0, len(trace["fit_noise"]), 2):
        gp, y = state(trace, "fit", k)
        ours, _ = refitted(GP(gp.kernel, gp.X, y, gp.noise_var), len(y), rng)
        first_fits.append(ours.kernel.lengthscale / gp.kernel.lengthscale - 1)
    distance, travelled, kinds = [], [], []
    refits = {False: ([], []), True: ([], [])}  # fit_mean: lengthscale ratios, distances
    for k in range(len(trace["move_x"])):
        gp, y = state(trace, "move", k)
        x = BOX.lower + WIDTH * trace["move_x"][k]
        after = BOX.lower + WIDTH * np.clip(trace["move_after"][k], 0.0, 1.0)  # as the loop
        distance.append(float(np.linalg.norm(newton_move(gp, x, box, settings) - after)))
        travelled.append(float(np.linalg.norm(after - x)))
        newton = newton_direction(*mean_derivatives(gp, x)) is not None
        kinds.append(float(newton != bool(trace["move_kind"][k])))
        start = fitted(trace, "fit", 2 * k)  # the code's fit before this iteration's batch
        data = GP(gp.kernel, gp.X, y, gp.noise_var)
        for fit_mean, (lengthscales, distances) in refits.items():
            ours, _ = refitted(data, len(y), rng, fit_mean, start)
            lengthscales.append(ours.kernel.lengthscale / gp.kernel.lengthscale - 1)
            distances.append(float(np.linalg.norm(newton_move(ours, x, box, settings) - after)))
    run = {"commit": commit, "localbo": code_version(), "d": args.d, "budget": args.budget,
           "path": args.path}  # fmt: skip
    rows = {
        "acquisition at the code's point: ours / code's - 1": same,
        "acquisition our restarts reach: (ours - at the code's point) / ours": reached,
        "move: distance of our end point from the code's": distance,
        "move: the code's step length": travelled,
        "first fit of an iteration: our lengthscale / the code's - 1": first_fits,
        "fit before a move: our lengthscale / the code's - 1": refits[False][0],
        "move with our fit: distance of our end point from the code's": refits[False][1],
        "fit before a move, the mean fitted too: our lengthscale / the code's - 1": refits[True][0],
        "move with that fit: distance of our end point from the code's": refits[True][1],
    }
    for question, values in rows.items():
        append_row({**run, "question": question, **quantiles(values)}, args.out)
    question = "move: Newton step in one and the gradient step in the other"
    append_row({**run, "question": question, "share": float(np.mean(kinds)),
                "steps": len(kinds)}, args.out)  # fmt: skip


if __name__ == "__main__":
    main()
