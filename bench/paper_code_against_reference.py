"""Figs. 4, 5 and 2 beside the paper's own code, kayween/local-bo-convergence at ee8c032.

The code runs unmodified, from a checkout the caller brings (the script checks its commit, and
that the checkout is clean before and after), in its own environment outside this repository,
given as --python: Python 3.9 (pyenv's 3.9.18; the notebooks ran 3.9.16), torch 2.0.1 (PyPI's
build is a CUDA one; it runs on the CPU), gpytorch 1.9.1 with linear-operator 0.3.0 (gpytorch
asks for >= 0.2.0; the notebooks' warning line matches 0.2-0.3), numpy < 2 (1.26.4), tqdm,
matplotlib and seaborn. `paper_code_driver.py` runs it there (its docstring says how); this
script runs in this project's environment. Parts (--parts):

- gradient: every case of Figs. 4 and 5 as the notebooks run it (noise 0.01, float64), for seed
  4321 and --seeds, on the CPU with one torch thread, in --jobs processes: a row per draw
  (source "paper code": the design's start and end, its criterion, the observations, the
  fitted hyperparameters, grad mu, the trace of its covariance, CPU seconds). Then our paper
  procedure (`gradient_estimation.paper_design` and `paper_fit` of config/config.yaml) on each
  draw's own inputs: the design from the code's start, the fit and grad mu on the code's design
  and observations (source "ours on the code's inputs"), and per case how far they lie from
  the code's, and whether our fit stops on the draws the code stopped on. Then the median CPU
  seconds per draw: of the code over its completed draws, of our two procedures over the first
  --timed draws of each case (one BLAS thread). Writes the code's estimates to
  config/paper/paper_code_draws.csv, which the pipeline's paper comparison reads.
- basins: where the designs end, for --basin-cases: the number of the code's designs in each
  local minimum of its criterion (told apart by the criterion's value, `BASIN_EDGES`) over
  seeds 0-199 and over --basin-seeds, beside that of --basin-draws designs of our paper
  procedure: whether our paper procedure's draws and the code's 200 differ by their sampling.
- optimizer: the code's FullBatchLBFGS alone on Rosenbrock (source "paper code optimizer"), the
  rows `tests/unit/test_full_batch_lbfgs.py` holds `localbo.full_batch_lbfgs` to.
- error_function: Fig. 2's error function by the code's `evaluate_error_functions` at --points
  D:B with the README's sigma 0.1, --tries tries each (the script's 5; fewer only where the cost
  demands), beside the gallery's estimate at the same (d, b, sigma): its ratio to the code's
  value (the last try, what the script saves), to the least try, and to the gradient part of
  the least try (the code's criterion adds the posterior variance of f(0)).

Rows go to --out, replacing that part's rows of an earlier run. With --work, the code's rows
are kept there and a run that stopped resumes; the error-function rows of runs with other
--tries in the same --work are kept too (a point too costly for 5 tries runs with fewer).

    python bench/paper_code_against_reference.py CHECKOUT --python PAPER_PYTHON \\
        --parts gradient optimizer --seeds 0:200 --jobs 2
    python bench/paper_code_against_reference.py CHECKOUT --python PAPER_PYTHON \\
        --parts error_function --points 10:20 10:80 10:317 1:500 3:500 8:500 22:500 60:500 \\
        100:500 10:1260 --work DIR
    python bench/paper_code_against_reference.py CHECKOUT --python PAPER_PYTHON \\
        --parts error_function --points 10:2513 --tries 2 --work DIR
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from full_run import code_version, one_core  # bench/, the script's folder
from paper_code_driver import CASES, integers
from reference_check import checked_commit

from localbo.hyperparameters import FitFailed, fitted_gp
from localbo.io import load_csv, save_csv
from localbo.kernels import make_kernel
from localbo.pipeline.gradient_estimation import GradientEstimationJobs, run_job
from localbo.pipeline.settings import load_settings

BENCH = Path(__file__).parent
ROOT = BENCH.parent
REPOSITORY, COMMIT = "kayween/local-bo-convergence", "ee8c032"
CODE_DRAWS = ROOT / "config" / "paper" / "paper_code_draws.csv"
GALLERY_FIG2 = ROOT / "figures" / "gallery" / "fig2-error_function.csv"


def clean(checkout: Path) -> None:
    """The checkout must have no changes and no new files (the code's own runs write none)."""
    status = subprocess.run(
        ["git", "-C", str(checkout), "status", "--porcelain", "--ignored"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    if status.strip():
        raise SystemExit(f"{checkout} is not clean:\n{status}")


def driver(args: argparse.Namespace, part: str, options: list[str], out: Path) -> None:
    """The driver in the code's environment, writing (and resuming) `out`."""
    command = [args.python, str(BENCH / "paper_code_driver.py"), "--checkout", str(args.checkout)]
    environment = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    subprocess.run([*command, part, *options, "--out", str(out)], check=True, env=environment)


def read_rows(paths: list[Path]) -> list[dict]:
    return [json.loads(line) for p in paths if p.exists() for line in p.read_text().splitlines()]


def code_gradient_rows(args: argparse.Namespace, work: Path) -> list[dict]:
    """The code's draws, in --jobs processes, each a share of the seeds."""
    seeds = ["4321", *args.seeds]
    parts = [work / f"gradient-{k}.jsonl" for k in range(args.jobs)]
    expanded = [s for text in seeds for s in integers(text)]

    def run(k: int) -> None:
        share = [str(s) for s in expanded[k :: args.jobs]]
        driver(args, "gradient", ["--seeds", *share], parts[k])

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(run, range(args.jobs)))
    wanted = set(expanded)  # a (case, seed) once, whatever --jobs earlier runs of --work had
    rows = {(r["case"], r["seed"]): r for r in read_rows(sorted(work.glob("gradient-*.jsonl")))}
    kept = [r for key, r in rows.items() if key[1] in wanted]
    return sorted(kept, key=lambda r: (list(CASES).index(r["case"]), r["seed"]))


def side_by_side(row: dict, jobs: GradientEstimationJobs) -> dict:
    """Our paper procedure on one code draw's inputs (the module docstring)."""
    from localbo.gradient_estimation import _design_run
    from localbo.hyperparameters import fit_hyperparameters, negative_log_marginal_likelihood

    s = jobs.settings
    kernel = make_kernel(s.kernel, s.paper_design.lengthscale, s.paper_design.outputscale)
    x = np.array(row["x"])
    design, criterion = _design_run(kernel, np.array(row["start"]) - x, s.paper_design)
    Z, y = np.array(row["design"]), np.array(row["observations"])
    out = {
        "source": "ours on the code's inputs",
        "case": row["case"],
        "seed": row["seed"],
        "design_difference": float(np.max(np.abs(design - (Z - x)))),
        "criterion": criterion,
        "criterion_difference": criterion - row["design_criterion"],
    }
    try:
        fit = fit_hyperparameters(s.kernel, Z, y, None, s.paper_fit)
    except FitFailed as failure:  # as the code stops (or not: then without code_error)
        return {**out, "fit_failed": str(failure)} | (
            {"code_error": row["error"]} if "error" in row else {}
        )
    if "error" in row:
        return {**out, "code_error": row["error"], "fit_failed": ""}
    g = fitted_gp(s.kernel, fit.params, Z, y).grad_mean(x)
    code = row["fit"]
    theta = [code["mean"], *np.log([code["lengthscale"], code["outputscale"], code["noise_var"]])]
    at_code = negative_log_marginal_likelihood(np.array(theta), make_kernel(s.kernel), Z, y)[0]
    return {
        **out,
        "fit": fit.params.as_dict(),
        "nlml": fit.nlml,
        "nlml_at_code_fit": at_code,
        "grad_mu": g.tolist(),
        "grad_mu_difference": float(np.max(np.abs(g - np.array(row["grad_mu"])))),
    }


def quantiles(values: list[float]) -> dict:
    v = np.asarray(values)
    return {"median": float(np.median(v)), "q90": float(np.quantile(v, 0.9)), "max": float(v.max())}


def our_cpu(jobs: GradientEstimationJobs, case: str, procedure: str, draws: int) -> float:
    """Median CPU seconds of one draw of a case by one of our procedures (one BLAS thread)."""
    wildcards = argparse.Namespace(case=case, procedure=procedure)
    params = jobs.draw_params(wildcards)
    seconds = []
    with one_core():
        for draw in range(draws):
            started = time.process_time()
            with contextlib.suppress(FitFailed):  # a failed draw costs its time all the same
                run_job(params, draw)
            seconds.append(time.process_time() - started)
    return float(np.median(seconds))


def gradient_part(args: argparse.Namespace, work: Path) -> list[dict]:
    jobs = load_settings(load_config()).gradient_estimation_jobs()
    code = code_gradient_rows(args, work)
    rows = [{"source": "paper code", **r} for r in code]
    save_csv(
        CODE_DRAWS, [_draw_csv(r) for r in code], ["case", "seed", "grad_1", "grad_2", "error"]
    )
    with one_core():
        ours = [side_by_side(r, jobs) for r in code]
    rows += ours
    for case in CASES:
        mine = [r for r in ours if r["case"] == case]
        done = [r for r in mine if "grad_mu" in r]
        code_cpu = [r["cpu_seconds"] for r in code if r["case"] == case and "error" not in r]
        stopped = [r for r in mine if "code_error" in r]
        rows.append(
            {
                "summary": f"side by side: {case}",
                "draws": len(mine),
                "code_failed": len(stopped),
                "ours_failed_where_code_failed": sum(bool(r["fit_failed"]) for r in stopped),
                "ours_failed_where_code_did_not": sum(
                    bool(r.get("fit_failed")) and "code_error" not in r for r in mine
                ),
                "design_difference": quantiles([r["design_difference"] for r in mine]),
                "criterion_difference": quantiles([abs(r["criterion_difference"]) for r in mine]),
                "grad_mu_difference": quantiles([r["grad_mu_difference"] for r in done]),
                "grad_mu_within_1e-3": sum(r["grad_mu_difference"] <= 1e-3 for r in done),
                "nlml_ours_minus_code": quantiles(
                    [r["nlml"] - r["nlml_at_code_fit"] for r in done]
                ),
            }
        )
        cpu = {p: our_cpu(jobs, case, p, args.timed) for p in ("ours", "paper")}
        rows.append(
            {
                "summary": f"CPU seconds per draw: {case}",
                "code": float(np.median(code_cpu)),
                "paper procedure": cpu["paper"],
                "ours procedure": cpu["ours"],
                "code / paper procedure": float(np.median(code_cpu)) / cpu["paper"],
                "code / ours procedure": float(np.median(code_cpu)) / cpu["ours"],
                "timed_draws": args.timed,
            }
        )
    return rows


def _draw_csv(row: dict) -> dict:
    grad = row.get("grad_mu", [])
    return {
        "case": row["case"],
        "seed": row["seed"],
        "grad_1": grad[0] if grad else "",
        "grad_2": grad[1] if len(grad) > 1 else "",
        "error": row.get("error", ""),
    }


def load_config() -> dict:
    import yaml

    return yaml.safe_load((ROOT / "config" / "config.yaml").read_text())


# The criterion's values that separate the local minima a design ends in, per case (read off the
# code's draws: the ReLU with n = 4 ends near 0.0107, 0.0132 or 0.0152; the l1 norm with n = 5
# near 0.0267 or 0.0310)
BASIN_EDGES = {"relu_n4": (0.012, 0.014), "l1_n5": (0.028,)}


def basins_part(args: argparse.Namespace, work: Path) -> list[dict]:
    from localbo.gradient_estimation import design_queries
    from localbo.seeding import rng_for

    s = load_settings(load_config()).gradient_estimation
    out = work / "basins.jsonl"
    driver(args, "gradient", ["--cases", *args.basin_cases, "--seeds", *args.basin_seeds], out)
    extra = read_rows([out])
    # the gradient part's draws, seeds 0-199 and 4321
    first = [r for r in read_rows([args.out]) if r.get("source") == "paper code"]
    rows = []
    for case in args.basin_cases:
        edges, c = BASIN_EDGES[case], s.cases.cases[case]

        def counts(values: list[float], edges: tuple[float, ...] = edges) -> list[int]:
            return np.bincount(np.digitize(values, edges), minlength=len(edges) + 1).tolist()

        rng = rng_for(0, "bench", "basins", case)
        ours = [
            design_queries(s.kernel, np.array(c.x), c.n, rng, s.paper_design)[0].value
            for _ in range(args.basin_draws)
        ]
        code_first = [
            r["design_criterion"] for r in first if r["case"] == case and r["seed"] != 4321
        ]
        code_more = [r["design_criterion"] for r in extra if r["case"] == case]
        rows.append(
            {
                "summary": f"design basins: {case}",
                "edges": list(edges),
                "code, seeds 0-199": counts(code_first),
                f"code, seeds {' '.join(args.basin_seeds)}": counts(code_more),
                "paper procedure": counts(ours),
            }
        )
    return rows


def optimizer_part(args: argparse.Namespace, work: Path) -> list[dict]:
    out = work / "optimizer.jsonl"
    driver(args, "optimizer", [], out)
    return [{"source": "paper code optimizer", **r} for r in read_rows([out])]


def error_function_part(args: argparse.Namespace, work: Path) -> list[dict]:
    out = work / f"error_function-{args.tries}.jsonl"
    options = ["--points", *args.points, "--stddev", "0.1", "--tries", str(args.tries)]
    driver(args, "error_function", options, out)
    ours = {
        (int(r["d"]), int(r["b"])): float(r["estimate"])
        for r in load_csv(GALLERY_FIG2)
        if float(r["sigma"]) == 0.1
    }
    rows = []
    for r in read_rows(sorted(work.glob("error_function-*.jsonl"))):  # every --tries run
        least = min(r["tries"], key=lambda t: t["criterion"])
        mine = ours.get((r["d"], r["b"]))
        rows.append(
            {
                "source": "paper code error function",
                **r,
                "ours": mine,
                "ours / code": mine / r["value"] if mine else None,
                "ours / least try": mine / least["criterion"] if mine else None,
                "ours / gradient part": mine / least["gradient_trace"] if mine else None,
            }
        )
    return rows


PARTS = {
    "gradient": gradient_part,
    "basins": basins_part,
    "optimizer": optimizer_part,
    "error_function": error_function_part,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help=f"{REPOSITORY} at {COMMIT}")
    parser.add_argument("--python", required=True, help="the code's environment's Python")
    parser.add_argument("--parts", nargs="+", choices=list(PARTS), default=["gradient"])
    parser.add_argument("--seeds", nargs="+", default=["0:200"], help="besides 4321: N or A:B")
    parser.add_argument("--jobs", type=int, default=2, help="code processes at once (gradient)")
    parser.add_argument("--timed", type=int, default=20, help="our draws timed per case")
    parser.add_argument("--basin-cases", nargs="+", default=["relu_n4"], choices=list(BASIN_EDGES))
    parser.add_argument("--basin-seeds", nargs="+", default=["200:600"])
    parser.add_argument("--basin-draws", type=int, default=1000)
    parser.add_argument("--points", nargs="+", default=["10:20", "10:317", "1:500", "100:500"])
    parser.add_argument("--tries", type=int, default=5, help="the error function's tries")
    parser.add_argument(
        "--out", type=Path, default=BENCH / "results" / "paper_code_reference.jsonl"
    )
    parser.add_argument("--work", type=Path, help="keep the code's rows here (resumable)")
    args = parser.parse_args()
    args.checkout = args.checkout.resolve()
    commit = checked_commit(args.checkout, REPOSITORY, COMMIT)
    clean(args.checkout)
    kept = read_rows([args.out])
    with tempfile.TemporaryDirectory(prefix="paper-code-") as scratch:
        work = args.work or Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        for part in args.parts:
            new = PARTS[part](args, work)
            clean(args.checkout)
            run = {"part": part, "commit": commit, "localbo": code_version()}
            kept = [r for r in kept if r.get("part") != part] + [{**run, **r} for r in new]
    args.out.write_text("".join(json.dumps(r) + "\n" for r in kept))
    for row in kept:
        if "summary" in row or row.get("source") == "paper code error function":  # the findings
            print(json.dumps({k: v for k, v in row.items() if k not in ("tries", "versions")}))


if __name__ == "__main__":
    main()
