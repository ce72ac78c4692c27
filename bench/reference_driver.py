"""Run a GIBO-family reference code (its `src.loop.loop`, unmodified) on exported sample paths.

Two codes share that loop and config machinery, and this driver: kayween/local-bo-mpd (MPD,
`bench/mpd_against_reference.py`) and chinafzy1/Minimizing-UCB (MinUCB,
`bench/minucb_against_reference.py`). It runs in the reference code's own environment (its
Python 3.8, torch, gpytorch and botorch), not this project's: it imports nothing of `localbo`,
only numpy, torch and the checkout's `src`. Per path it does what the checkout's
`run_synthetic_experiment.py` does for one objective, with these overrides, and nothing else:

- the objective: minus the exported path (the codes maximize), evaluated in float64 from the
  path's arrays and handed back in the dtype of the point asked for; with `--box LOW HIGH`, at
  LOW + (HIGH - LOW) u for the code's point u of its unit cube (MinUCB's move is bounded to
  it), else at the code's point itself (MPD's domain is unbounded);
- the start: the code's point of x = 0 (0.5 in the unit cube with a symmetric box; the script
  starts at 0.5);
- the budget: `max_objective_calls` (the loop stops at the first iteration that ends at or past
  it, as the script's does);
- the hyperparameters, set as `set_hypers` sets them: outputscale 1 and lengthscale 1 in the
  path's units (1 / (HIGH - LOW) in the unit cube), the model's noise variance
  `--noise-variance` (0.01, the scripts' synthetic noise variance; MPD's code stops with
  NotPSDError at 1e-6 and 1e-4);
- `--set KEY=VALUE`: a value of the config's `optimizer_config` (the caller sets MinUCB's delta
  to its value in the unit cube);
- the seeds: numpy's and torch's set to the path index before its run, as the script sets them
  to the objective's index;
- with `--dtype float64` only: torch's default dtype and the start's float64 (the scripts' are
  float32, so every tensor of a run is): a diagnosis of what single precision changes, not the
  code as its authors run it.

Every other setting is the `--config` file's, through the code's own `config.insert` and
`config.evaluate`. Writes one JSON line per path: the final iterate and the best observation
with their true f, the evaluations, the CPU seconds.

With `--trace FILE` (MPD's code, one path), the run is also recorded step by step, for
`bench/mpd_step_by_step.py`: at every acquisition optimization the iterate, the model's window
(inputs and targets) and the point and value the code chose; at every move the window and the
iterates before and after. The recording wraps botorch's `optimize_acqf` and the optimizer's
`move` from outside; it changes no computation of the code.

    REFERENCE_PYTHON bench/reference_driver.py --checkout DIR \
        --config configs/synthetic_experiment/mpd_default.yaml --paths P0.npz ... --budget 500
"""

import argparse
import copy
import json
import sys
import time

import numpy as np


def run_path(file, cfg, config, loop, args, dtype):
    """One path's run, as the checkout's script runs one objective (the module docstring)."""
    import torch

    arrays = np.load(file, allow_pickle=False)
    frequencies, phases = arrays["frequencies"], arrays["phases"]
    weights, index = arrays["weights"], int(arrays["index"])
    d = frequencies.shape[1]

    low, width = (args.box[0], args.box[1] - args.box[0]) if args.box else (0.0, 1.0)

    def f(x):
        """The path at (n, d) points of its own units, float64."""
        return np.cos(np.atleast_2d(x) @ frequencies.T + phases) @ weights

    evaluated = []  # (true f, point) of every evaluation

    def objective(x):
        points = low + width * x.detach().double().numpy().reshape(-1, d)
        values = f(points)
        evaluated.extend((float(v), point) for v, point in zip(values, points))  # noqa: B905
        return torch.as_tensor(-values, dtype=x.dtype)  # the code maximizes

    # the script's seeding, global in the reference environment (this project's code seeds
    # streams of its own)
    np.random.seed(index)  # noqa: NPY002
    torch.manual_seed(index)
    hypers = {
        "covar_module.base_kernel.lengthscale": torch.tensor(1.0 / width),
        "covar_module.outputscale": torch.tensor(1.0),
        "likelihood.noise": torch.tensor(args.noise_variance),
    }
    cfg_dim = config.evaluate(
        copy.deepcopy(cfg),
        dim_search_space=d,
        factor_lengthscale=None,
        factor_N_max=5,
        hypers=hypers,
    )
    cfg_dim["optimizer_config"].update(args.set)
    started = time.process_time()
    params, calls = loop(
        params_init=torch.full((d,), -low / width, dtype=dtype),
        max_iterations=cfg_dim["max_iterations"],
        max_objective_calls=args.budget,
        objective=objective,
        Optimizer=cfg_dim["method"],
        optimizer_config=cfg_dim["optimizer_config"],
        verbose=False,
    )
    seconds = time.process_time() - started
    final = low + width * params[-1].detach().double().numpy().reshape(-1)
    return {
        "path": index,
        "d": d,
        "value": float(f(final)[0]),
        "best_observation_value": min(evaluated, key=lambda pair: pair[0])[0],
        "evaluations": len(evaluated),
        "iterations": len(calls),
        "final_norm": float(np.linalg.norm(final)),
        "cpu_seconds": seconds,
        "dtype": str(dtype).split(".")[-1],
    }


def record(trace):
    """Wrap botorch's `optimize_acqf` and `MPDOptimizer.move` so each call appends what it saw
    and returned to `trace` (a dict of lists); the calls themselves run unchanged."""
    import botorch
    from src.optimizers import MPDOptimizer

    def array(tensor):
        return tensor.detach().double().numpy().copy()

    optimize_acqf, move = botorch.optim.optimize_acqf, MPDOptimizer.move

    def traced_optimize_acqf(acq_function, bounds, **kwargs):
        candidate, value = optimize_acqf(acq_function, bounds, **kwargs)
        model = acq_function.model
        trace["acquisition"].append(
            {
                "x": array(acq_function.theta_i).reshape(-1),
                "X": array(model.train_inputs[0]),
                "targets": array(model.train_targets),
                "mean_d": array(acq_function.mean_d).reshape(-1),
                "chosen": array(candidate).reshape(-1),
                "value": float(value),
            }
        )
        return candidate, value

    def traced_move(self, method):
        before = array(self.params).reshape(-1)
        X, targets = array(self.model.train_inputs[0]), array(self.model.train_targets)
        move(self, method)
        after = array(self.params).reshape(-1)
        trace["move"].append({"x": before, "X": X, "targets": targets, "after": after})

    botorch.optim.optimize_acqf = traced_optimize_acqf
    MPDOptimizer.move = traced_move


def save_trace(trace, file):
    """The trace as npz: per kind and field one stacked array (windows padded with NaN)."""
    arrays = {}
    for kind, steps in trace.items():
        for field in steps[0]:
            values = [step[field] for step in steps]
            if np.ndim(values[0]) == 0:
                arrays[f"{kind}_{field}"] = np.array(values)
                continue
            shape = np.max([np.shape(v) for v in values], axis=0)
            padded = np.full((len(values), *shape), np.nan)
            for k, v in enumerate(values):
                padded[(k, *[slice(0, n) for n in np.shape(v)])] = v
            arrays[f"{kind}_{field}"] = padded
    np.savez(file, **arrays)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", required=True, help="the reference code's checkout")
    parser.add_argument("--config", required=True, help="the code's config, in the checkout")
    parser.add_argument("--paths", nargs="+", required=True, help="exported paths (npz)")
    parser.add_argument("--budget", type=int, default=500)
    parser.add_argument("--noise-variance", type=float, default=0.01)
    parser.add_argument("--dtype", choices=("float32", "float64"), default="float32")
    parser.add_argument("--out", required=True, help="JSON lines, one per path, appended")
    parser.add_argument("--box", type=float, nargs=2, metavar=("LOW", "HIGH"))
    parser.add_argument("--set", nargs="*", default=[], metavar="KEY=VALUE")
    parser.add_argument("--trace", help="npz: the run step by step (one path only)")
    args = parser.parse_args()
    if args.trace and len(args.paths) != 1:
        parser.error("--trace records one path's run")

    sys.path.insert(0, args.checkout)
    import torch
    import yaml

    torch.set_num_threads(1)  # as run_synthetic_experiment.py
    dtype = getattr(torch, args.dtype)
    torch.set_default_dtype(dtype)
    from src.loop import loop

    from src import config

    with open(args.checkout + "/" + args.config) as handle:
        cfg = config.insert(yaml.load(handle, Loader=yaml.Loader), config.insertion_config)
    args.set = {k: yaml.safe_load(v) for k, v in (item.split("=", 1) for item in args.set)}
    trace = {"acquisition": [], "move": []}
    if args.trace:
        record(trace)
    with open(args.out, "a") as out:
        for file in args.paths:
            row = run_path(file, cfg, config, loop, args, dtype)
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(json.dumps(row), flush=True)
    if args.trace:
        save_trace(trace, args.trace)


if __name__ == "__main__":
    main()
