"""Per-iteration time of GP-UCB: `localbo.gp_ucb` against BoTorch's standard loop, same work.

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

    nice -n 10 python bench/bench_gp_ucb.py --sizes 1000 2000 4000 --iterations 3
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

from localbo.gp import GP
from localbo.gp_ucb import GPUCBSettings, minimize_lcb, srinivas_beta
from localbo.io import save_json
from localbo.kernels import RBF
from localbo.objective import Box
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for


def localbo_iterations(X, y, f, box, args, rng) -> list[float]:
    """Seconds of each of args.iterations GP-UCB iterations with localbo."""
    settings = GPUCBSettings(
        raw_samples=args.raw_samples,
        local_samples=0,
        restarts=args.restarts,
        refine_iterations=args.maxiter,
    )
    gp = GP(RBF(), X, y, args.noise_var)
    times = []
    for _ in range(args.iterations):
        start = time.perf_counter()
        t = len(gp.y) + 1
        beta = srinivas_beta(t, box.d, box.width, settings.delta, 1.0, 1.0)
        best = int(np.argmin(gp.y))
        x = minimize_lcb(gp, box, gp.X[best], math.sqrt(beta), rng, settings)
        gp.append(x[None, :], f(x[None, :]))
        times.append(time.perf_counter() - start)
    return times


def botorch_iterations(X, y, f, box, args) -> list[float]:
    """Seconds of each of args.iterations iterations of BoTorch's standard loop."""
    import gpytorch
    import torch
    from botorch.acquisition import UpperConfidenceBound
    from botorch.models import SingleTaskGP
    from botorch.optim import optimize_acqf
    from gpytorch.kernels import RBFKernel, ScaleKernel
    from gpytorch.means import ConstantMean

    torch.set_num_threads(1)
    torch.manual_seed(0)
    dtype = torch.float64
    train_X = torch.tensor(X, dtype=dtype)
    train_Y = torch.tensor(y, dtype=dtype)[:, None]
    bounds = torch.tensor([[box.lower] * box.d, [box.upper] * box.d], dtype=dtype)
    times = []
    with gpytorch.settings.max_cholesky_size(10**7):
        for _ in range(args.iterations):
            start = time.perf_counter()
            covar = ScaleKernel(RBFKernel())
            covar.base_kernel.lengthscale = 1.0
            covar.outputscale = 1.0
            mean = ConstantMean()
            mean.constant.data.fill_(0.0)
            model = SingleTaskGP(
                train_X,
                train_Y,
                train_Yvar=torch.full_like(train_Y, args.noise_var),
                covar_module=covar,
                mean_module=mean,
                outcome_transform=None,
            ).to(dtype)
            model.eval()
            t = train_X.shape[0] + 1
            beta = srinivas_beta(t, box.d, box.width, 0.1, 1.0, 1.0)
            acq = UpperConfidenceBound(model, beta=beta, maximize=False)
            cand, _ = optimize_acqf(
                acq,
                bounds=bounds,
                q=1,
                num_restarts=args.restarts,
                raw_samples=args.raw_samples,
                options={"maxiter": args.maxiter},
            )
            x = cand.detach().numpy()
            train_X = torch.cat([train_X, cand.detach()])
            train_Y = torch.cat([train_Y, torch.tensor(f(x), dtype=dtype)[:, None]])
            times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--d", type=int, default=20)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000])
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--raw-samples", type=int, default=512)
    parser.add_argument("--restarts", type=int, default=3)
    parser.add_argument("--maxiter", type=int, default=50)
    parser.add_argument("--noise-var", type=float, default=1e-2)
    parser.add_argument("--out", type=Path, default=Path("bench/results/gp_ucb.json"))
    args = parser.parse_args()
    box = Box(-5.0, 5.0, args.d)
    f = FourierSamplePath.draw(RBF(), args.d, 4096, rng_for(0, "bench-gp-ucb", "path"))
    rows = []
    print(f"d = {args.d}, {args.iterations} iterations per size, one thread")
    print("n       localbo s/it   botorch s/it   ratio (botorch / localbo)")
    for n in args.sizes:
        rng = rng_for(0, "bench-gp-ucb", n)
        X = box.uniform(n, rng)
        y = f(X)
        ours = localbo_iterations(X, y, f, box, args, rng)
        theirs = botorch_iterations(X, y, f, box, args)
        a, b = float(np.median(ours)), float(np.median(theirs))
        rows.append({"n": n, "localbo_seconds": ours, "botorch_seconds": theirs, "ratio": b / a})
        print(f"{n:<7d} {a:12.3f} {b:14.3f} {b / a:14.2f}", flush=True)
    save_json(
        args.out, {"d": args.d, "settings": vars(args) | {"out": str(args.out)}, "rows": rows}
    )


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        main()
