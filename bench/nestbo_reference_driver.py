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

    REFERENCE_PYTHON bench/nestbo_reference_driver.py --checkout DIR --box -5 5 \\
        --paths P0.npz ... --budget 300
"""

import argparse
import json
import sys
import time

import numpy as np


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", required=True, help="the reference code's checkout")
    parser.add_argument("--paths", nargs="+", required=True, help="exported paths (npz)")
    parser.add_argument("--budget", type=int, default=300)
    parser.add_argument("--box", type=float, nargs=2, required=True, metavar=("LOW", "HIGH"))
    parser.add_argument("--out", required=True, help="JSON lines, one per path, appended")
    parser.add_argument("--dtype", choices=("float64",), default="float64")  # the code's only
    args = parser.parse_args()

    sys.path[:0] = [args.checkout, args.checkout + "/src"]
    import torch

    torch.set_num_threads(1)
    from optimization_loop_NeSTBO import main as reference_main

    with open(args.out, "a") as out:
        for file in args.paths:
            row = run_path(file, reference_main, args.budget, args.box)
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
