"""Per-iteration time of GP-UCB: `localbo.methods.gp_ucb` against its implementation before issue
10's speedups (the oracle, tests/unit/gp_ucb_oracle.py) and against BoTorch's standard loop, same
work.

Both start from the same n uniform points in [-5, 5]^d observed on one RBF sample path (noise
variance `--noise-var`), known hyperparameters (RBF, unit lengthscale and outputscale, zero mean),
the same beta_t (Srinivas et al. 2010, Theorem 2) and the same acquisition optimizer budget:
`--raw-samples` uniform candidates scored, the best `--restarts` refined by L-BFGS-B for at most
`--maxiter` iterations. One iteration = choose the next point, evaluate it, add it to the model.

* localbo: the factor is extended by one row per observation (`GP.append`, O(n^2)); candidates are
  scored in one block, the refinement uses the analytic gradient of the LCB.
* BoTorch (the loop of its tutorials): a `SingleTaskGP` with the fixed hyperparameters
  (FixedNoiseGaussianLikelihood through `train_Yvar`, no outcome transform) is rebuilt on all data,
  `UpperConfidenceBound(maximize=False)`, `optimize_acqf(q=1, num_restarts, raw_samples,
  options={"maxiter"})`. GPyTorch is forced to exact Cholesky inference
  (`max_cholesky_size`), the same math as localbo; with its default (CG above 800 points) the
  numbers would differ.

Everything float64 on one thread (BLAS and torch), so the ratio compares implementations, not
thread counts. Needs the `bench` extra (torch, gpytorch, botorch).

`--part quality` compares what the two find instead: on `--paths` RBF sample paths in d = 10
(sigma = 0, box [-5, 5]^d, first evaluation at x = 0, `--budget` evaluations each), ours is
`gp_ucb` with the pipeline's settings (the defaults of `GPUCBSettings`, config/config.yaml), BoTorch
is its tutorial loop with the same fixed GP (noise variance `--botorch-noise-var`), the same beta_t
(`UpperConfidenceBound` adds sqrt(beta) * std, as ours) and its usual `optimize_acqf` settings
(`--botorch-restarts` 10, `--botorch-raw-samples` 512, default L-BFGS-B options). Both report the
true f at the best observation. Writes results/gp_ucb_quality.json after every path; paths can
be split over processes (`--first-path`, `--quality-out`) and combined with `--merge`.

    nice -n 10 python bench/bench_gp_ucb.py --sizes 1000 2000 4000 --iterations 3
    nice -n 10 python bench/bench_gp_ucb.py --part quality --paths 10 --budget 500
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the oracle lives in tests/

from localbo.gp import GP
from localbo.io import load_json, save_json
from localbo.kernels import RBF
from localbo.methods.gp_ucb import GPUCB, GPUCBSettings, minimize_lcb
from localbo.objective import Box
from localbo.optimizers import run_on_path
from localbo.pipeline.runtime import blas_threads
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for
from tests.unit.gp_ucb_oracle import DenseGP, dense_minimize_lcb


def localbo_iterations(X, y, f, box, args, rng, oracle=False) -> list[float]:
    """Seconds of each of args.iterations GP-UCB iterations with localbo, or with its
    implementation before issue 10's speedups (`oracle`, tests/unit/gp_ucb_oracle.py)."""
    settings = GPUCBSettings(
        raw_samples=args.raw_samples,
        local_samples=0,
        restarts=args.restarts,
        refine_iterations=args.maxiter,
    )
    gp = (DenseGP if oracle else GP)(RBF(), X, y, args.noise_var)
    choose = dense_minimize_lcb if oracle else minimize_lcb
    times = []
    for _ in range(args.iterations):
        start = time.perf_counter()
        beta = settings.beta(len(gp.y) + 1, box.d, box.width)
        best = int(np.argmin(gp.y))
        x = choose(gp, box, gp.X[best], math.sqrt(beta), rng, settings)
        gp.append(x[None, :], f(x[None, :]))
        times.append(time.perf_counter() - start)
    return times


def botorch_candidate(
    train_X,
    train_Y,
    noise_var: float,
    box: Box,
    ucb: GPUCBSettings,
    num_restarts: int,
    raw_samples: int,
    **options,
):
    """One step of BoTorch's standard loop: a SingleTaskGP with our fixed hyperparameters (RBF,
    lengthscale 1, outputscale 1, zero mean, noise variance `noise_var`), UCB with our beta_t
    (`ucb.beta`), minimized by optimize_acqf over the box. Returns the (1, d) candidate tensor."""
    import torch
    from botorch.acquisition import UpperConfidenceBound
    from botorch.models import SingleTaskGP
    from botorch.optim import optimize_acqf
    from gpytorch.kernels import RBFKernel, ScaleKernel
    from gpytorch.means import ConstantMean

    dtype = torch.float64
    covar = ScaleKernel(RBFKernel())
    covar.base_kernel.lengthscale = 1.0
    covar.outputscale = 1.0
    mean = ConstantMean()
    mean.constant.data.fill_(0.0)
    model = SingleTaskGP(
        train_X,
        train_Y,
        train_Yvar=torch.full_like(train_Y, noise_var),
        covar_module=covar,
        mean_module=mean,
        outcome_transform=None,
    ).to(dtype)
    model.eval()
    beta = ucb.beta(train_X.shape[0] + 1, box.d, box.width)
    acq = UpperConfidenceBound(model, beta=beta, maximize=False)
    bounds = torch.tensor([[box.lower] * box.d, [box.upper] * box.d], dtype=dtype)
    cand, _ = optimize_acqf(
        acq, bounds=bounds, q=1, num_restarts=num_restarts, raw_samples=raw_samples, **options
    )
    return cand.detach()


def botorch_iterations(X, y, f, box, args) -> list[float]:
    """Seconds of each of args.iterations iterations of BoTorch's standard loop."""
    import gpytorch
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(0)
    dtype = torch.float64
    train_X = torch.tensor(X, dtype=dtype)
    train_Y = torch.tensor(y, dtype=dtype)[:, None]
    times = []
    with gpytorch.settings.max_cholesky_size(10**7):
        for _ in range(args.iterations):
            start = time.perf_counter()
            cand = botorch_candidate(
                train_X,
                train_Y,
                args.noise_var,
                box,
                GPUCBSettings(),
                args.restarts,
                args.raw_samples,
                options={"maxiter": args.maxiter},
            )
            train_X = torch.cat([train_X, cand])
            train_Y = torch.cat([train_Y, torch.tensor(f(cand.numpy()), dtype=dtype)[:, None]])
            times.append(time.perf_counter() - start)
    return times


def botorch_run(
    f: FourierSamplePath, box: Box, budget: int, ucb: GPUCBSettings, args: argparse.Namespace
) -> float:
    """BoTorch's GP-UCB loop from x = 0 for `budget` noiseless evaluations, beta_t of `ucb`;
    f at the best one."""
    import gpytorch
    import torch

    torch.set_num_threads(1)
    dtype = torch.float64
    train_X = torch.zeros(1, box.d, dtype=dtype)
    train_Y = torch.tensor(f(train_X.numpy()), dtype=dtype)[:, None]
    with gpytorch.settings.max_cholesky_size(10**7):
        while train_X.shape[0] < budget:
            cand = botorch_candidate(
                train_X,
                train_Y,
                args.botorch_noise_var,
                box,
                ucb,
                args.botorch_restarts,
                args.botorch_raw_samples,
            )
            train_X = torch.cat([train_X, cand])
            train_Y = torch.cat([train_Y, torch.tensor(f(cand.numpy()), dtype=dtype)[:, None]])
    best = int(torch.argmin(train_Y))
    return float(f(train_X[best : best + 1].numpy())[0])


def json_args(args: argparse.Namespace) -> dict:
    """The command line as JSON values (paths as strings)."""
    return {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}


def quality(args: argparse.Namespace) -> None:
    """Best true value of ours and BoTorch's GP-UCB on args.paths sample paths (sigma = 0)."""
    import torch

    settings = GPUCBSettings()
    box = Box(-5.0, 5.0, args.quality_d)
    rows: list[dict[str, float | int]] = []
    print(f"d = {box.d}, budget {args.budget}, sigma = 0, ours: {settings}")
    print("path   ours f      s     botorch f      s")
    for i in range(args.first_path, args.first_path + args.paths):
        f = FourierSamplePath.draw(RBF(), box.d, 4096, rng_for(0, "bench-gp-ucb-quality", i))
        start = time.perf_counter()
        result = run_on_path(
            GPUCB(settings),
            f,
            RBF(),
            0.0,
            args.budget,
            box,
            rng_for(0, "bench-gp-ucb-quality", "noise", i),
            rng_for(0, "bench-gp-ucb-quality", "optimizer", i),
        )
        ours_s = time.perf_counter() - start
        torch.manual_seed(i)
        start = time.perf_counter()
        theirs = botorch_run(f, box, args.budget, settings, args)
        theirs_s = time.perf_counter() - start
        row = {"path": i, "ours": float(result.value), "ours_seconds": ours_s}
        rows.append(row | {"botorch": theirs, "botorch_seconds": theirs_s})
        print(
            f"{i:<4d} {result.value:8.4f} {ours_s:7.1f} {theirs:10.4f} {theirs_s:7.1f}", flush=True
        )
        save_json(args.quality_out, quality_summary(rows, settings, args))
    print_quality(quality_summary(rows, settings, args))


def print_quality(summary: dict) -> None:
    """Quantiles of both methods and the paths where ours is better."""
    for name in ("ours", "botorch"):
        q25, q50, q75 = summary[name]["quantiles_25_50_75"]
        print(f"{name:8s} median {q50:.4f}  [25%, 75%] = [{q25:.4f}, {q75:.4f}]")
    print(f"ours better on {summary['ours_better']} of {len(summary['rows'])} paths")


def quality_summary(rows: list[dict], settings: dict, args: argparse.Namespace) -> dict:
    """Per-path rows plus the 25/50/75% quantiles of both methods and the paths ours wins."""
    summary: dict = {"d": args.quality_d, "budget": args.budget, "ours_settings": settings}
    summary["botorch_settings"] = {
        "num_restarts": args.botorch_restarts,
        "raw_samples": args.botorch_raw_samples,
        "noise_var": args.botorch_noise_var,
    }
    for name in ("ours", "botorch"):
        values = [r[name] for r in rows]
        summary[name] = {"quantiles_25_50_75": np.quantile(values, [0.25, 0.5, 0.75]).tolist()}
    summary["ours_better"] = sum(r["ours"] < r["botorch"] for r in rows)
    summary["rows"] = rows
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["time", "quality"], default="time")
    parser.add_argument("--paths", type=int, default=10)
    parser.add_argument("--first-path", type=int, default=0)
    parser.add_argument("--merge", type=Path, nargs="+", help="quality JSONs to combine")
    parser.add_argument("--budget", type=int, default=500)
    parser.add_argument("--quality-d", type=int, default=10)
    parser.add_argument("--botorch-restarts", type=int, default=10)
    parser.add_argument("--botorch-raw-samples", type=int, default=512)
    parser.add_argument("--botorch-noise-var", type=float, default=1e-6)
    parser.add_argument(
        "--quality-out", type=Path, default=Path("bench/results/gp_ucb_quality.json")
    )
    parser.add_argument("--d", type=int, default=20)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000])
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--raw-samples", type=int, default=512)
    parser.add_argument("--restarts", type=int, default=3)
    parser.add_argument(
        "--maxiter",
        type=int,
        default=GPUCBSettings().refine_iterations,
        help="L-BFGS-B iterations per refinement, both sides (default: the library's; the "
        "README's per-iteration ratios were measured at 50, the default then)",
    )
    parser.add_argument("--noise-var", type=float, default=1e-2)
    parser.add_argument("--out", type=Path, default=Path("bench/results/gp_ucb.json"))
    args = parser.parse_args()
    if args.merge:
        rows = [row for file in args.merge for row in load_json(file)["rows"]]
        settings = load_json(args.merge[0])["ours_settings"]
        summary = quality_summary(sorted(rows, key=lambda r: r["path"]), settings, args)
        save_json(args.quality_out, summary)
        print_quality(summary)
        return
    if args.part == "quality":
        quality(args)
        return
    box = Box(-5.0, 5.0, args.d)
    f = FourierSamplePath.draw(RBF(), args.d, 4096, rng_for(0, "bench-gp-ucb", "path"))
    rows = []
    print(f"d = {args.d}, {args.iterations} iterations per size, one thread")
    print("n       localbo s/it   oracle s/it   botorch s/it   oracle/localbo   botorch/localbo")
    for n in args.sizes:
        X = box.uniform(n, rng_for(0, "bench-gp-ucb", n))
        y = f(X)
        ours = localbo_iterations(X, y, f, box, args, rng_for(1, "bench-gp-ucb", n))
        old = localbo_iterations(X, y, f, box, args, rng_for(1, "bench-gp-ucb", n), oracle=True)
        theirs = botorch_iterations(X, y, f, box, args)
        a, o, b = float(np.median(ours)), float(np.median(old)), float(np.median(theirs))
        rows.append(
            {
                "n": n,
                "localbo_seconds": ours,
                "oracle_seconds": old,
                "botorch_seconds": theirs,
                "oracle_ratio": o / a,
                "ratio": b / a,
            }
        )
        print(f"{n:<7d} {a:12.3f} {o:13.3f} {b:14.3f} {o / a:16.2f} {b / a:17.2f}", flush=True)
    save_json(args.out, {"d": args.d, "settings": json_args(args), "rows": rows})


if __name__ == "__main__":
    with blas_threads(1):
        main()
