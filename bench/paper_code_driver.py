"""Run the paper's own code (kayween/local-bo-convergence, unmodified) and record every draw.

It runs in that code's environment (Python 3.9, torch 2.0.1, gpytorch 1.9.1, linear-operator
0.3.0; `paper_code_against_reference.py` says where it comes from), not this project's: it
imports nothing of `localbo`, only numpy, torch, gpytorch and the checkout's modules. Two parts:

- `gradient` (Figs. 4 and 5): per case and seed, what the notebooks `l2_vs_l1_norm.ipynb` and
  `relu.ipynb` (and `plot_l1_norm.py`, `gradient_estimation.py`) do for one panel: the default
  dtype float64, `random`, numpy and torch seeded with the seed, then
  `gradient_estimation.test(objective, x, batch_size, device)` with the notebooks' objective:
  `plot_l1_norm.ff(x, noise_std=0.01)` for the quadratic, `plot_l1_norm.l1(x, noise_std=0.01)`
  for the l1 norm, both at x = (0, 1), and `gradient_estimation.relu` (its default noise_std
  0.01) at x = 0. The only change: device "cpu" where the notebooks say "cuda:0".
- `optimizer`: the code's `FullBatchLBFGS` (zoofoo/BFGS/LBFGS.py) alone, on the Rosenbrock
  function from (-1.2, 1), at the code's two settings (lr 1 and 0.1; max_ls 10 and 20), 60
  steps as its loops take them: the value after every step, the final point, the failed line
  searches. `localbo.full_batch_lbfgs` is tested against these rows.
- `error_function` (Fig. 2): per (d, b), `evaluate_error_functions(batch, d, kernel, noise,
  device)` of `evaluate_error_function_vs_batch.py` with the README's arguments (kernel
  "matern", noise = stddev^2), torch seeded with 4321 once before the points, as the scripts'
  main seeds before its loop, on "cpu". The function returns the last of its tries; every
  try's value is recorded too. Its number of tries is the script's 5, or fewer with `--tries`
  (which sets the module's `range` for that call: the one knob the cost needs). The points draw
  from one stream in the order given, so a point's starts depend on the points before it in
  that run (a resumed run draws the rest from a fresh stream).

Recording wraps `get_query_points` and `update_model` in the namespace of the module that calls
them (each wrapper calls the original and returns what it returned) and reads the model they
leave; nothing of the code's computation is changed. The design's starting perturbation is
re-drawn from a copy of torch's generator state taken before the call (utils.py draws it first,
line 34), so the global stream is untouched. The CPU seconds of a draw leave out the recording's
own work. What the code prints goes to /dev/null.

One JSON line per draw (gradient) or point (error function), appended to --out; a (case, seed)
or (d, b) already in --out is skipped, so a stopped run resumes. Where the code raises (its fit
can step to a lengthscale so short that GPyTorch's squared distances overflow, and stop with
linear_operator's NanError), the line holds what the draw reached (its design and
observations) and `error`, the exception's name and message.

    PAPER_PYTHON bench/paper_code_driver.py --checkout DIR gradient --cases quadratic_n5 \\
        --seeds 4321 0:200 --out FILE.jsonl
    PAPER_PYTHON bench/paper_code_driver.py --checkout DIR error_function --points 10:20 \\
        --stddev 0.1 --out FILE.jsonl
"""

import argparse
import contextlib
import io
import json
import math
import os
import random
import sys
import time
import warnings

import numpy as np

# The pipeline's case names -> (objective, x, batch size), the notebooks' calls
CASES = {
    "quadratic_n5": ("ff", (0.0, 1.0), 5),
    "l1_n5": ("l1", (0.0, 1.0), 5),
    "l1_n10": ("l1", (0.0, 1.0), 10),
    "relu_n2": ("relu", (0.0,), 2),
    "relu_n4": ("relu", (0.0,), 4),
}
NOTEBOOK_SEED = 4321  # the notebooks' and the scripts' seed
NOTEBOOK_NOISE_STD = 0.01  # the notebooks' noise_std of ff and l1
DEVICE = "cpu"  # the notebooks' "cuda:0"


def seed_everything(seed):
    """The notebooks' seeding."""
    import torch

    random.seed(seed)
    np.random.seed(seed)  # noqa: NPY002 (the code draws from the global streams)
    torch.manual_seed(seed)


def joint_trace_parts(model, x, z):
    """The code's design criterion at (x, Z), split: the posterior variance of f(x) and the
    trace of the gradient's posterior covariance (the criterion is their sum with no data)."""
    import torch

    with torch.no_grad():
        diagonal = model.posterior_covar(x, z).diag()
    return float(diagonal[0]), float(diagonal[1:].sum())


class Recorder:
    """Wraps the design and fit steps of one module and keeps what they return."""

    def __init__(self, module, utils):
        self.record, self.overhead = {}, 0.0  # what was recorded; CPU seconds spent recording
        self.get_query_points, self.update_model = utils.get_query_points, utils.update_model
        module.get_query_points = self.design
        if hasattr(module, "update_model"):
            module.update_model = self.fit

    def design(self, model, likelihood, x, batch_size):
        import torch

        started = time.process_time()
        generator = torch.Generator()
        generator.set_state(torch.get_rng_state())
        d = x.size(-1)
        normal = torch.randn(batch_size, d, dtype=x.dtype, generator=generator)
        self.overhead += time.process_time() - started
        started = time.process_time()
        z, loss = self.get_query_points(model, likelihood, x, batch_size)
        seconds = time.process_time() - started
        value_variance, gradient_trace = joint_trace_parts(model, x, z)
        self.overhead += time.process_time() - started - seconds
        self.record.setdefault("tries", []).append(
            {
                "start": (x + 1e-4 / math.sqrt(d) * normal).tolist(),
                "design": z.tolist(),
                "criterion": loss,
                "value_variance": value_variance,
                "gradient_trace": gradient_trace,
                "cpu_seconds": seconds,
            }
        )
        return z, loss

    def fit(self, model, likelihood, train_x, train_y):
        import gpytorch
        import torch

        started = time.process_time()
        result = self.update_model(model, likelihood, train_x, train_y)
        seconds = time.process_time() - started
        mll = gpytorch.mlls.ExactMarginalLogLikelihood(likelihood, model)
        with torch.no_grad(), gpytorch.settings.fast_computations(False, False, False):
            log_likelihood = float(mll(model(train_x), train_y)) * len(train_y)
        self.overhead += time.process_time() - started - seconds
        self.record["fit"] = {
            "mean": float(model.mean_module.constant),
            "lengthscale": float(model.covar_module.base_kernel.lengthscale),
            "outputscale": float(model.covar_module.outputscale),
            "noise_var": float(likelihood.noise),
            "log_marginal_likelihood": log_likelihood,
            "cpu_seconds": seconds,
        }
        return result


def gradient_draw(case, seed, modules):
    """One (case, seed) of Figs. 4 and 5, as the notebooks run it (the module docstring)."""
    import torch

    ge, l1_script, utils = modules
    name, point, batch_size = CASES[case]
    function = ge.relu if name == "relu" else getattr(l1_script, name)
    observed = {}

    def objective(x):
        y = function(x) if name == "relu" else function(x, noise_std=NOTEBOOK_NOISE_STD)
        observed["observations"] = y.tolist()
        return y

    recorder = Recorder(ge, utils)
    seed_everything(seed)
    x = torch.tensor(list(point), device=DEVICE).unsqueeze(-2)
    row = {"case": case, "seed": seed, "x": list(point), "noise_std": NOTEBOOK_NOISE_STD}
    started = time.process_time()
    try:
        g, _, _ = ge.test(objective=objective, x=x, batch_size=batch_size, device=DEVICE)
    except Exception as error:  # the code stopped: the draw keeps what it reached
        row["error"] = f"{type(error).__name__}: {error}"
    seconds = time.process_time() - started - recorder.overhead
    (design,) = recorder.record["tries"]
    row |= {
        "start": design["start"],
        "design": design["design"],
        "design_criterion": design["criterion"],
        "design_value_variance": design["value_variance"],
        "design_gradient_trace": design["gradient_trace"],
        **observed,
    }
    if "error" in row:
        return row
    covariance = g.covariance_matrix.detach()
    return {
        **row,
        "fit": recorder.record["fit"],
        "grad_mu": g.mean[1:].tolist(),
        "trace": float(covariance[1:, 1:].diag().sum()),
        "cpu_seconds": seconds,
    }


def error_function_point(d, b, stddev, tries, script, utils):
    """One (d, b) of Fig. 2 by the code's `evaluate_error_functions` (the module docstring)."""
    recorder = Recorder(script, utils)
    if tries is not None:
        script.range = lambda n: range(min(n, tries))
    started = time.process_time()
    value = script.evaluate_error_functions(b, d=d, kernel="matern", noise=stddev**2, device=DEVICE)
    seconds = time.process_time() - started
    if tries is not None:
        del script.range
    runs = recorder.record["tries"]
    return {
        "d": d,
        "b": b,
        "stddev": stddev,
        "value": value,
        "tries": [{k: t[k] for k in t if k not in ("start", "design")} for t in runs],
        "cpu_seconds": seconds,
    }


def optimizer_run(initial_step, max_line_search, steps=60):
    """The code's optimizer on Rosenbrock from (-1.2, 1), stepped as its loops step it."""
    import torch
    from zoofoo.BFGS.LBFGS import FullBatchLBFGS

    x = torch.tensor([-1.2, 1.0], requires_grad=True)
    optimizer = FullBatchLBFGS([x], lr=initial_step)

    def closure():
        optimizer.zero_grad()
        return (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2

    loss = closure()
    loss.backward()
    values, failures = [], 0
    for _ in range(steps):
        options = {"closure": closure, "current_loss": loss, "max_ls": max_line_search}
        loss, _, _, _, _, _, _, fail = optimizer.step(options)
        values.append(loss.item())
        failures += int(fail)
    return {
        "function": "rosenbrock",
        "initial_step": initial_step,
        "max_line_search": max_line_search,
        "start": [-1.2, 1.0],
        "x": x.tolist(),
        "values": values,
        "failed_line_searches": failures,
        "cpu_seconds": None,
    }


def done(out, keys):
    """The keys of the rows already in `out`."""
    if not os.path.exists(out):
        return set()
    with open(out) as f:
        return {tuple(json.loads(line)[k] for k in keys) for line in f if line.strip()}


def integers(text):
    """'4321' -> [4321]; '0:200' -> 0..199."""
    if ":" in text:
        first, stop = text.split(":")
        return list(range(int(first), int(stop)))
    return [int(text)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", required=True, help="kayween/local-bo-convergence")
    parser.add_argument("--threads", type=int, default=1, help="torch's CPU threads")
    parts = parser.add_subparsers(dest="part", required=True)
    gradient = parts.add_parser("gradient", help="Figs. 4 and 5")
    gradient.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    gradient.add_argument("--seeds", nargs="+", default=[str(NOTEBOOK_SEED), "0:200"])
    rosenbrock = parts.add_parser("optimizer", help="FullBatchLBFGS on Rosenbrock")
    error = parts.add_parser("error_function", help="Fig. 2")
    error.add_argument("--points", nargs="+", required=True, help="D:B pairs")
    error.add_argument("--stddev", type=float, default=0.1)
    error.add_argument("--tries", type=int, help="fewer tries than the script's 5")
    for part in (gradient, rosenbrock, error):
        part.add_argument("--out", required=True)
    args = parser.parse_args()

    sys.path.insert(0, os.path.abspath(args.checkout))
    warnings.simplefilter("ignore")
    import torch

    torch.set_num_threads(args.threads)
    torch.set_default_dtype(torch.float64)  # the notebooks' and the scripts' first line
    import utils

    if args.part == "gradient":
        import gradient_estimation
        import plot_l1_norm

        modules = (gradient_estimation, plot_l1_norm, utils)
        todo = [(c, s) for c in args.cases for t in args.seeds for s in integers(t)]
        keys = ("case", "seed")

        def run(item):
            return gradient_draw(*item, modules)
    elif args.part == "optimizer":
        todo, keys = [(1.0, 10), (0.1, 20)], ("initial_step", "max_line_search")

        def run(item):
            return optimizer_run(*item)
    else:
        import evaluate_error_function_vs_batch as script

        todo = [tuple(int(v) for v in p.split(":")) for p in args.points]
        keys = ("d", "b")
        seed_everything(NOTEBOOK_SEED)

        def run(item):
            return error_function_point(*item, args.stddev, args.tries, script, utils)

    finished = done(args.out, keys)
    for item in todo:
        if item in finished:
            continue
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            row = run(item)
        row["versions"] = {"torch": torch.__version__, "python": sys.version.split()[0]}
        with open(args.out, "a") as f:
            f.write(json.dumps(row) + "\n")
        print(json.dumps({k: row.get(k) for k in (*keys, "cpu_seconds", "error")}), flush=True)


if __name__ == "__main__":
    main()
