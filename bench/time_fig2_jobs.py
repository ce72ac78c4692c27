"""Wall time of single Fig. 2 jobs at paper scale, measured where affordable, extrapolated above.

Every (d, b) of both panels (config/config.yaml `fig2`: panel a d = 10, b on its log grid; panel b
b = 500, d on its log grid) and every noise level is one job: `estimate_error_function` with the
job's settings (restarts / max_iterations, or large_restarts / large_max_iterations above large_b)
and the rule's BLAS threads (`Fig2Settings.blas_threads`: 2 threads above fig2.large_b). The job is
run in full when b <= --max-full-b (or (b, sigma) is listed in --full), exactly as
scripts/fig2_error_function.py calls it (same seed stream). Above that, --evals value+gradient
evaluations at the job's starting design are timed, and

    job seconds ~= restarts * (max_iterations * evaluations per iteration + 1) * seconds per eval

with evaluations per iteration the median over the full runs (an upper estimate: a run may stop
before max_iterations). The extrapolated total is in core-seconds (wall x the rule's threads).

    python bench/time_fig2_jobs.py                       # full jobs up to b = 1260, evals above
    python bench/time_fig2_jobs.py --max-full-b 632 --full 2513:0.1 --evals 3
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import yaml

from localbo.acquisition import gradient_trace
from localbo.error_function import estimate_error_function, starting_designs
from localbo.io import load_json, save_json
from localbo.kernels import make_kernel
from localbo.pipeline.runtime import blas_threads
from localbo.pipeline.settings import load_settings
from localbo.seeding import rng_for

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--config", default=str(ROOT / "config" / "config.yaml"))
    p.add_argument("--max-full-b", type=int, default=1260)
    p.add_argument("--full", nargs="*", default=[], help="extra full jobs as b:sigma")
    p.add_argument("--evals", type=int, default=3, help="timed evaluations per extrapolated job")
    p.add_argument("--max-eval-b", type=int, default=10000, help="skip larger b entirely")
    p.add_argument(
        "--only-sigma",
        type=float,
        nargs="*",
        default=None,
        help="time only these noise levels (others copied for the total)",
    )
    p.add_argument("--out", default=str(HERE / "results" / "fig2_jobs.json"))
    p.add_argument("--only-b", type=int, nargs="*", default=None, help="time only these b")
    p.add_argument(
        "--resume",
        default=None,
        help="JSON of an earlier run: its measured jobs are kept, not rerun",
    )
    p.add_argument(
        "--threads",
        type=int,
        default=None,
        help="BLAS threads for every job instead of the rule's (2 above large_b): on a "
        "busy machine 2 spinning OpenBLAS threads waste most of their CPU",
    )
    args = p.parse_args()

    cfg = yaml.safe_load(Path(args.config).read_text())
    f2 = cfg["fig2"]
    fig2 = load_settings(cfg).fig2
    points = sorted(fig2.points(), key=lambda t: (t[1], t[0]))
    if args.only_b:
        points = [(d, b) for d, b in points if b in args.only_b]
    sigmas = list(fig2.noise_levels)
    timed_sigmas = sigmas if args.only_sigma is None else [float(s) for s in args.only_sigma]
    extra = {(int(s.split(":")[0]), float(s.split(":")[1])) for s in args.full}
    kernel = make_kernel(fig2.kernel, fig2.lengthscale, fig2.outputscale)

    def settings(b: int) -> tuple[int, int]:
        estimate = fig2.estimate_at(b)
        return estimate.restarts, estimate.max_iterations

    rows = []
    if args.resume:
        rows = [r for r in load_json(args.resume)["rows"] if r.get("kind") == "measured"]
    done = {(r["d"], r["b"], r["sigma"]) for r in rows}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)

    def save():  # atomic: the file is rewritten after every job and read back by --resume
        save_json(
            out,
            {
                "date": datetime.now(UTC).isoformat(timespec="seconds"),
                "host": platform.node(),
                "config": args.config,
                "fig2": f2,
                "rows": rows,
            },
        )

    # 1) full jobs
    for d, b in points:
        restarts, max_it = settings(b)
        for sigma in timed_sigmas:
            if not (b <= args.max_full_b or (b, sigma) in extra) or (d, b, sigma) in done:
                continue
            threads = args.threads or fig2.blas_threads(b)
            with blas_threads(threads):
                t0, c0 = time.perf_counter(), time.process_time()
                est = estimate_error_function(
                    kernel,
                    d,
                    b,
                    sigma,
                    rng_for(cfg["seed"], "fig2", d, b, sigma),
                    fig2.estimate_at(b),
                )
                wall = time.perf_counter() - t0
                cpu = time.process_time() - c0
            iters = len(est.history) - restarts  # each restart's trace starts at its start
            rows.append(
                {
                    "d": d,
                    "b": b,
                    "sigma": sigma,
                    "kind": "measured",
                    "threads": threads,
                    "restarts": restarts,
                    "max_iterations": max_it,
                    "wall_s": wall,
                    "core_s": wall * threads,
                    "cpu_s": cpu,
                    "load1": os.getloadavg()[0],
                    "evaluations": est.evaluations,
                    "iterations": iters,
                    "ms_per_eval": 1e3 * wall / est.evaluations,
                    "estimate": est.value,
                }
            )
            print(
                f"full  d={d:3d} b={b:5d} sigma={sigma:<5g} thr={threads} {wall:8.1f} s  "
                f"ev {est.evaluations:4d} it {iters:4d}  {1e3 * wall / est.evaluations:8.1f} "
                f"ms/ev  cpu {cpu:8.1f} s  load {os.getloadavg()[0]:.1f}  E={est.value:.4g}",
                flush=True,
            )
            save()

    measured = [r for r in rows if r["kind"] == "measured"]
    ev_per_it = (
        float(np.median([r["evaluations"] / max(r["iterations"], 1) for r in measured]))
        if measured
        else 1.1
    )
    print(f"evaluations per L-BFGS iteration (median of full jobs): {ev_per_it:.3f}", flush=True)

    # 2) extrapolated jobs
    for d, b in points:
        restarts, max_it = settings(b)
        for sigma in timed_sigmas:
            full = b <= args.max_full_b or (b, sigma) in extra
            if full or b > args.max_eval_b or (d, b, sigma) in done:
                continue
            threads = args.threads or fig2.blas_threads(b)
            noise_var = max(sigma**2, fig2.estimate.min_noise_var)
            t0 = time.perf_counter()
            starts, _ = starting_designs(
                kernel,
                d,
                b,
                noise_var,
                1,
                fig2.estimate.perturbation,
                rng_for(cfg["seed"], "fig2", d, b, sigma),
            )
            setup = time.perf_counter() - t0
            x = np.zeros(d)
            times, cpus = [], []
            with blas_threads(threads):
                for _ in range(args.evals):
                    t0, c0 = time.perf_counter(), time.process_time()
                    gradient_trace(kernel, x, starts[0], noise_var)
                    times.append(time.perf_counter() - t0)
                    cpus.append(time.process_time() - c0)
            per_eval = float(np.median(times))
            cpu_eval = float(np.median(cpus))
            evals = restarts * (max_it * ev_per_it + 1)
            wall = setup + evals * per_eval
            rows.append(
                {
                    "d": d,
                    "b": b,
                    "sigma": sigma,
                    "kind": "extrapolated",
                    "threads": threads,
                    "restarts": restarts,
                    "max_iterations": max_it,
                    "wall_s": wall,
                    "core_s": wall * threads,
                    "evaluations": evals,
                    "cpu_s": evals * cpu_eval,
                    "load1": os.getloadavg()[0],
                    "ms_per_eval": 1e3 * per_eval,
                    "cpu_ms_per_eval": 1e3 * cpu_eval,
                    "eval_times_s": times,
                    "eval_cpu_s": cpus,
                    "setup_s": setup,
                }
            )
            print(
                f"extr  d={d:3d} b={b:5d} sigma={sigma:<5g} thr={threads} "
                f"{per_eval:8.2f} s/eval (cpu {cpu_eval:.2f} s, load {os.getloadavg()[0]:.1f}) "
                f"x {evals:.0f} ev = {wall / 60:7.1f} min"
                f" per job, {restarts} restart(s) -> {wall / 60 / restarts:.1f} min per restart",
                flush=True,
            )
            save()

    # 3) total over all noise levels (untimed noise levels take the mean of timed ones)
    total_core = 0.0
    total_wall = 0.0
    total_cpu = 0.0
    for d, b in points:
        got = [r for r in rows if r["d"] == d and r["b"] == b]
        if not got:
            continue
        mean_core = float(np.mean([r["core_s"] for r in got]))
        mean_wall = float(np.mean([r["wall_s"] for r in got]))
        mean_cpu = float(np.mean([r["cpu_s"] for r in got]))
        total_cpu += sum(r["cpu_s"] for r in got) + (len(sigmas) - len(got)) * mean_cpu
        total_core += sum(r["core_s"] for r in got) + (len(sigmas) - len(got)) * mean_core
        total_wall += sum(r["wall_s"] for r in got) + (len(sigmas) - len(got)) * mean_wall
    summary = {
        "jobs": len(points) * len(sigmas),
        "total_core_hours": total_core / 3600,
        "total_wall_hours_serial": total_wall / 3600,
        "total_cpu_hours": total_cpu / 3600,
        "evals_per_iteration": ev_per_it,
    }
    print(
        f"full Fig. 2 ({summary['jobs']} jobs): {summary['total_core_hours']:.2f} core-hours, "
        f"{summary['total_wall_hours_serial']:.2f} h run one job at a time, "
        f"{summary['total_cpu_hours']:.2f} h process CPU time",
        flush=True,
    )
    rows.append({"kind": "summary", **summary})
    save()


if __name__ == "__main__":
    main()
