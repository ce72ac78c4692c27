"""Run NeST-BO as its authors' code runs it (PaulsonLab/NeST-BO) on exported sample paths.

Runs in the reference code's own environment (Python 3.11, its torch, gpytorch, botorch, hydra),
not this project's: it imports nothing of `localbo`, only numpy, torch, omegaconf and the
checkout's `src`, unmodified. `bench/nestbo_against_reference.py` exports the paths, starts this
script with the reference environment's Python and compares. Per path it does what the
checkout's `main_NeSTBO.py` does for one benchmark (`optimization_loop_NeSTBO.main(config)
.exec_alg()`), with a config of these values, and nothing else set:

- the objective (`benchmark.fn`): the exported path, evaluated in float64 from its arrays at the
  code's points of [lb, ub]^d = `--box` (Fig. 1's; the code minimizes, as Fig. 1);
- the start: the centre of the box, x = 0 (`params.center`);
- the budget: `n_tot` = BUDGET - N_init, so that the code, which counts its initial design of
  N_init + 1 points as one, spends BUDGET evaluations in all;
- `N_init` 10, `M` = d, delta 0.2: the values of its benchmark configs;
- the seed (`seed`: the Sobol design's scramble and torch's) the path's index;
- hyperparameters: the code's own ML-II fit every iteration (it has no switch for known ones).

Writes one JSON line per path: the final iterate and the best observation with their true f,
the evaluations, the CPU seconds.

Two switches are for finding where the code and ours part, not for the check itself:
`--trace FILE` (one path) records the run step by step, as npz (`record`): every fit of the GP,
acquisition optimization and move, each with the GP's data and hyperparameters;
`--isotropic` builds the code's GP with one lengthscale instead of one per dimension (its
`ard_num_dims=dim` replaced by None), the one change made to the code's model, so that its fit
is of the family ours fits; `--torch-seed N` seeds torch's global generator, which the code
leaves unseeded (botorch draws the acquisition's raw points from it), so that a run can be
traced again.

    REFERENCE_PYTHON bench/nestbo_reference_driver.py --checkout DIR --box -5 5 \\
        --paths P0.npz ... --budget 300
"""

import argparse
import json
import sys
import time

import numpy as np
from reference_driver import save_trace  # bench/, the script's folder


class ExportedPath:
    """An exported path as the code's benchmark function: (n, d) points to (n,) values."""

    def __init__(self, file):
        arrays = np.load(file, allow_pickle=False)
        self.frequencies, self.phases = arrays["frequencies"], arrays["phases"]
        self.weights = arrays["weights"]
        self.evaluated = []  # the true f of every evaluation

    def values(self, x):
        """The path at (n, d) points, float64."""
        return np.cos(np.atleast_2d(x) @ self.frequencies.T + self.phases) @ self.weights

    def __call__(self, X):
        import torch

        values = self.values(X.detach().double().numpy())
        self.evaluated.extend(float(v) for v in values)
        return torch.as_tensor(values, dtype=torch.float64)


def run_path(file, main, budget, box):
    """One path's run (the module docstring)."""
    from omegaconf import OmegaConf

    index = int(np.load(file)["index"])
    d = np.load(file)["frequencies"].shape[1]
    config = OmegaConf.create(
        {
            "seed": index,
            "device": "cpu",
            "benchmark": {
                "n_tot": budget - 10,
                "N_init": 10,
                "delta": 0.2,
                "dim": d,
                "M": d,
                "lb": box[0],
                "ub": box[1],
                "params": {"random": False, "center": True, "init": None},
                # hydra imports this script by its name: the folder of a script is on sys.path
                "fn": {"_target_": "nestbo_reference_driver.ExportedPath", "file": str(file)},
            },
        }
    )
    started = time.process_time()
    alg = main(config)
    path = alg.fun
    alg.exec_alg()
    seconds = time.process_time() - started
    final = (alg.lb + (alg.ub - alg.lb) * alg.params).detach().double().numpy().reshape(-1)
    return {
        "path": index,
        "d": d,
        "value": float(path.values(final)[0]),
        "best_observation_value": min(path.evaluated),
        "evaluations": len(path.evaluated),
        "final_norm": float(np.linalg.norm(final)),
        "cpu_seconds": seconds,
        "dtype": "float64",
    }


def one_lengthscale(loop):
    """Make the code's loop build its GP with one lengthscale (`--isotropic`)."""
    ard = loop.DerivativeExactGPSEModel

    class Isotropic(ard):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **{**kwargs, "ard_num_dims": None})

    loop.DerivativeExactGPSEModel = Isotropic


def record(loop, trace):
    """Wrap the code's GP fit, acquisition optimization and two moves so that each call appends
    what it saw and returned to `trace` (a dict of lists, `--trace`); the calls run unchanged.
    Points are in the code's unit cube; targets are the GP's (standardized) and `y` the
    observations they standardize."""
    import botorch

    def array(tensor):
        return tensor.detach().double().numpy().copy()

    def state(gp):
        kernel = gp.covar_module
        return {
            "X": array(gp.train_inputs[0]),
            "targets": array(gp.train_targets),
            "y": array(gp.train_ys).reshape(-1),
            "lengthscale": array(kernel.base_kernel.lengthscale).reshape(-1),
            "outputscale": float(kernel.outputscale.detach()),
            "noise": float(gp.likelihood.noise.detach()),
        }

    fit, optimize = botorch.fit.fit_gpytorch_mll, loop.optimize_acqf_custom_bo

    def traced_fit(mll, *args, **kwargs):
        result = fit(mll, *args, **kwargs)
        trace["fit"].append(state(mll.model))
        return result

    def traced_optimize(acquisition, bounds, **kwargs):
        chosen, value = optimize(acquisition, bounds, **kwargs)
        step = {**state(acquisition.model), "x": array(acquisition.theta_i).reshape(-1)}
        step.update(bounds=array(bounds), chosen=array(chosen).reshape(-1), value=float(value))
        trace["acquisition"].append(step)
        return chosen, value

    def traced(kind, move):
        def wrapper(self, gp, *args, **kwargs):
            step = {**state(gp), "kind": kind, "x": array(self.params).reshape(-1)}
            move(self, gp, *args, **kwargs)
            trace["move"].append({**step, "after": array(self.params).reshape(-1)})

        return wrapper

    botorch.fit.fit_gpytorch_mll = traced_fit
    loop.optimize_acqf_custom_bo = traced_optimize
    loop.main.move_Newton = traced(1, loop.main.move_Newton)
    loop.main.move_GD = traced(0, loop.main.move_GD)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", required=True, help="the reference code's checkout")
    parser.add_argument("--paths", nargs="+", required=True, help="exported paths (npz)")
    parser.add_argument("--budget", type=int, default=300)
    parser.add_argument("--box", type=float, nargs=2, required=True, metavar=("LOW", "HIGH"))
    parser.add_argument("--out", required=True, help="JSON lines, one per path, appended")
    parser.add_argument("--dtype", choices=("float64",), default="float64")  # the code's only
    parser.add_argument("--trace", help="npz: the run step by step (one path only)")
    parser.add_argument("--isotropic", action="store_true", help="one lengthscale (diagnosis)")
    parser.add_argument("--torch-seed", type=int, help="seed torch's generator (diagnosis)")
    args = parser.parse_args()
    if args.trace and len(args.paths) != 1:
        parser.error("--trace records one path's run")

    sys.path[:0] = [args.checkout, args.checkout + "/src"]
    import torch

    torch.set_num_threads(1)
    if args.torch_seed is not None:
        torch.manual_seed(args.torch_seed)
    import optimization_loop_NeSTBO as loop

    if args.isotropic:
        one_lengthscale(loop)
    trace = {"fit": [], "acquisition": [], "move": []}
    if args.trace:
        record(loop, trace)
    with open(args.out, "a") as out:
        for file in args.paths:
            row = run_path(file, loop.main, args.budget, args.box)
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(json.dumps(row), flush=True)
    if args.trace:
        save_trace(trace, args.trace)


if __name__ == "__main__":
    main()
