"""Benchmark the error-function estimate (issue 2): `localbo` against the same objective in
GPyTorch.

Parts (all at d = 10, sigma = 0.1, Matern-5/2 with unit hyperparameters, float64):
  eval     one value+gradient evaluation, ours vs GPyTorch, b in --eval-b; both checked first to
           agree (relative difference of the value, max |g1 - g2| / max |g1| of the gradient);
           timings interleaved in one process in --repeats rounds of --calls-per-round
           consecutive calls of each library, the median per call and the ratio.
  stages   where one evaluation of ours spends its time (median ms per stage, b in --stages-b).
  restart  one L-BFGS restart from the same starting design (the library's jittered differencing
           design) with the same scipy L-BFGS-B options: ours = `localbo.error_function.
           minimize_trace`, GPyTorch = the same scipy driver fed by torch autograd gradients.
  threads  BLAS threads 1 vs 2 at b = --threads-b, ours and GPyTorch, interleaved.
  malloc   ours and GPyTorch, each with glibc
           malloc default vs tuned (mallopt: no mmap/trim for big blocks, so b x b temporaries
           are recycled instead of page-faulted in afresh), in alternating child processes.
  profile  cProfile of ours at b = 500 and 2000; text to
           bench/results/profile_gradient_trace.txt.

Writes bench/results/error_function.json (merged with earlier parts) and prints tables.

    python bench/bench_error_function.py                       # every part
    python bench/bench_error_function.py --parts eval threads   # some parts
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import gpytorch
import numpy as np
import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gpytorch_trace import GPyTorchTrace, lbfgs_scipy, lbfgs_torch, localbo_objective  # noqa: E402

from localbo.acquisition import gradient_trace  # noqa: E402
from localbo.designs import minimize_trace  # noqa: E402
from localbo.error_function import starting_designs  # noqa: E402
from localbo.gram import UpperBlocks, fill_kernel_and_slope, hadamard_gram_product  # noqa: E402
from localbo.io import load_json, save_json  # noqa: E402
from localbo.kernels import Matern52  # noqa: E402
from localbo.linalg import cholesky, solve_lower  # noqa: E402
from localbo.pipeline.runtime import blas_threads, keep_freed_memory  # noqa: E402

RESULTS = HERE / "results" / "error_function.json"
KERNEL = Matern52()


def set_threads(n: int):
    torch.set_num_threads(n)
    return blas_threads(n)


def start_design(d: int, b: int, sigma: float, seed: int = 0) -> np.ndarray:
    """The library's first restart start: the best differencing design, jittered."""
    starts, _ = starting_designs(KERNEL, d, b, sigma**2, 1, 0.3, np.random.default_rng(seed))
    return starts[0]


def timed2(f, *args) -> tuple[float, float]:
    """(wall, process CPU) seconds of f(*args)."""
    t0, c0 = time.perf_counter(), time.process_time()
    f(*args)
    return time.perf_counter() - t0, time.process_time() - c0


def interleaved(fns: dict, arg, repeats: int, calls_per_round: int = 1) -> dict:
    """Median seconds per call of each fn(arg): `repeats` rounds, in each of which every fn is
    called `calls_per_round` times in a row (order rotated every round); also the median process
    CPU seconds under the key name + "_cpu".

    One call per round measures a call right after the other library's (cold caches); several
    measure the steady state an optimizer sees, where calls of one objective follow each other.
    """
    names = list(fns)
    for n in names:
        fns[n](arg)  # warm-up
    times = {n: [] for n in names}
    cpus = {n: [] for n in names}
    for r in range(repeats):
        for n in names[r % len(names) :] + names[: r % len(names)]:
            for _ in range(calls_per_round):
                w, c = timed2(fns[n], arg)
                times[n].append(w)
                cpus[n].append(c)
    out = {n: float(np.median(t)) for n, t in times.items()}
    out.update({n + "_cpu": float(np.median(t)) for n, t in cpus.items()})
    return out


def part_eval(args) -> dict:
    d, sigma, out = args.d, args.sigma, []
    with set_threads(args.threads):
        for b in args.eval_b:
            z = start_design(d, b, sigma).ravel()
            ours, gp = localbo_objective(KERNEL, d, b, sigma**2), GPyTorchTrace(d, b, sigma**2)
            v1, g1 = ours(z)
            v2, g2 = gp(z)
            rel_v = abs(v1 - v2) / abs(v1)
            rel_g = float(np.max(np.abs(g1 - g2)) / np.max(np.abs(g1)))
            reps = args.repeats if b <= 1000 else max(3, args.repeats // 3)
            med = interleaved(
                {"ours": ours, "gpytorch": gp},
                z,
                reps,
                calls_per_round=args.calls_per_round,
            )
            row = {
                "b": b,
                "value": v1,
                "rel_diff_value": rel_v,
                "rel_diff_grad": rel_g,
                "ours_ms": 1e3 * med["ours"],
                "gpytorch_ms": 1e3 * med["gpytorch"],
                "ratio": med["gpytorch"] / med["ours"],
                "ours_cpu_ms": 1e3 * med["ours_cpu"],
                "gpytorch_cpu_ms": 1e3 * med["gpytorch_cpu"],
                "ratio_cpu": med["gpytorch_cpu"] / med["ours_cpu"],
                "repeats": reps,
                "calls_per_round": args.calls_per_round,
                "load1": os.getloadavg()[0],
            }
            out.append(row)
            print(
                f"eval b={b:5d}  ours {row['ours_ms']:8.1f} ms  "
                f"gpytorch {row['gpytorch_ms']:8.1f} ms  ratio {row['ratio']:5.2f} "
                f"(cpu {row['ours_cpu_ms']:.1f} / {row['gpytorch_cpu_ms']:.1f} ms,"
                f" ratio {row['ratio_cpu']:5.2f})  |dv|/v {rel_v:.1e}  max|dg|/max|g| {rel_g:.1e}",
                flush=True,
            )
    return {"threads": args.threads, "d": d, "sigma": sigma, "rows": out}


def part_restart(args) -> dict:
    d, sigma, out = args.d, args.sigma, []
    with set_threads(args.threads):
        for b in args.restart_b:
            Z0 = start_design(d, b, sigma)
            for rep in range(args.restart_repeats):
                runs = {}
                order = ["ours", "gpytorch"] if rep % 2 == 0 else ["gpytorch", "ours"]
                for name in order:
                    t0, c0 = time.perf_counter(), time.process_time()
                    if name == "ours":
                        run = minimize_trace(KERNEL, Z0, sigma**2, args.max_iterations)
                        runs[name] = {
                            "seconds": time.perf_counter() - t0,
                            "cpu_seconds": time.process_time() - c0,
                            "start": float(run.trace[0]),
                            "value": run.value,
                            "iterations": len(run.trace) - 1,
                            "evaluations": run.evaluations,
                        }
                    else:
                        r = lbfgs_scipy(GPyTorchTrace(d, b, sigma**2), Z0, args.max_iterations)
                        runs[name] = {
                            "seconds": r.seconds,
                            "cpu_seconds": time.process_time() - c0,
                            "start": r.start_value,
                            "value": r.value,
                            "iterations": r.iterations,
                            "evaluations": r.evaluations,
                        }
                if args.torch_lbfgs and rep == 0:
                    r = lbfgs_torch(d, b, sigma**2, Z0, args.max_iterations)
                    runs["gpytorch_torch_lbfgs"] = {
                        "seconds": r.seconds,
                        "start": r.start_value,
                        "value": r.value,
                        "iterations": r.iterations,
                        "evaluations": r.evaluations,
                    }
                for name, r in runs.items():
                    r.update(
                        b=b,
                        impl=name,
                        repeat=rep,
                        ms_per_eval=1e3 * r["seconds"] / r["evaluations"],
                    )
                    out.append(r)
                    print(
                        f"restart b={b:5d} {name:20s} {r['seconds']:7.1f} s "
                        f"(cpu {r.get('cpu_seconds', float('nan')):6.1f})  {r['start']:.4f} -> "
                        f"{r['value']:.4f}  it {r['iterations']:3d}  ev {r['evaluations']:3d}  "
                        f"{r['ms_per_eval']:.1f} ms/ev",
                        flush=True,
                    )
    return {
        "threads": args.threads,
        "d": d,
        "sigma": sigma,
        "max_iterations": args.max_iterations,
        "rows": out,
    }


def part_threads(args) -> dict:
    d, sigma, b = args.d, args.sigma, args.threads_b
    z = start_design(d, b, sigma).ravel()
    ours, gp = localbo_objective(KERNEL, d, b, sigma**2), GPyTorchTrace(d, b, sigma**2)
    times = {(n, t): [] for n in ("ours", "gpytorch") for t in (1, 2)}
    for rep in range(args.threads_repeats):
        for t in (1, 2) if rep % 2 == 0 else (2, 1):
            with set_threads(t):
                if rep == 0:
                    ours(z), gp(z)
                times[("ours", t)].append(timed2(ours, z)[0])
                times[("gpytorch", t)].append(timed2(gp, z)[0])
    res = {f"{n}_{t}thr_ms": 1e3 * float(np.median(v)) for (n, t), v in times.items()}
    res.update(b=b, repeats=args.threads_repeats)
    res["ours_speedup_2thr"] = res["ours_1thr_ms"] / res["ours_2thr_ms"]
    res["gpytorch_speedup_2thr"] = res["gpytorch_1thr_ms"] / res["gpytorch_2thr_ms"]
    print(
        f"threads b={b}: ours 1thr {res['ours_1thr_ms']:.0f} ms, 2thr {res['ours_2thr_ms']:.0f} ms "
        f"(x{res['ours_speedup_2thr']:.2f}); gpytorch 1thr {res['gpytorch_1thr_ms']:.0f} ms, "
        f"2thr {res['gpytorch_2thr_ms']:.0f} ms (x{res['gpytorch_speedup_2thr']:.2f})",
        flush=True,
    )
    return res


def child_eval(
    b: int, repeats: int, malloc: bool, threads: int, d: int, sigma: float, only: str
) -> None:
    """In a fresh process: median wall ms, process-CPU ms and minor page faults per call of one
    implementation (alone, as in a pipeline job: another library's allocations in the same
    process change glibc's dynamic mmap threshold), printed as JSON."""
    import resource

    if malloc:
        keep_freed_memory()
    Z = start_design(d, b, sigma)
    if only == "ours":
        x = np.zeros(d)

        def fn():
            return gradient_trace(KERNEL, x, Z, sigma**2)
    else:
        gp, z = GPyTorchTrace(d, b, sigma**2), Z.ravel()

        def fn():
            return gp(z)

    wall, cpu, faults = [], [], []
    with set_threads(threads):
        fn()
        for _ in range(repeats):
            f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            w, c = timed2(fn)
            faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0)
            wall.append(w)
            cpu.append(c)
    out = {
        only: 1e3 * float(np.median(wall)),
        only + "_cpu": 1e3 * float(np.median(cpu)),
        only + "_faults": float(np.median(faults)),
    }
    print(json.dumps(out))


def part_malloc(args) -> dict:
    rows = []
    for b in args.malloc_b:
        runs = {False: [], True: []}
        for rep in range(args.malloc_rounds):
            for malloc in (False, True) if rep % 2 == 0 else (True, False):
                reps = args.repeats if b <= 1000 else max(3, args.repeats // 4) if b <= 2000 else 1
                merged = {}
                for impl in args.malloc_impls:
                    cmd = [
                        sys.executable,
                        __file__,
                        "--child-eval",
                        str(b),
                        str(reps),
                        str(int(malloc)),
                        str(args.threads),
                        str(args.d),
                        str(args.sigma),
                        impl,
                    ]
                    res = subprocess.run(cmd, capture_output=True, text=True, check=True)
                    merged.update(json.loads(res.stdout.strip().splitlines()[-1]))
                runs[malloc].append(merged)
        row = {"b": b, "rounds": args.malloc_rounds}
        for malloc, label in ((False, "default"), (True, "mallopt")):
            for impl in args.malloc_impls:
                for suffix in ("", "_cpu", "_faults"):
                    key = impl + suffix
                    row[f"{key}_{label}" + ("_ms" if suffix != "_faults" else "")] = float(
                        np.median([r[key] for r in runs[malloc]])
                    )
        rows.append(row)
        print(
            f"malloc b={b}: median over {args.malloc_rounds} processes; wall ms / CPU ms / "
            "minor page faults per evaluation",
            flush=True,
        )
        for impl in args.malloc_impls:
            cells = []
            for label in ("default", "mallopt"):
                cells.append(
                    f"{label:8s} {row[f'{impl}_{label}_ms']:8.1f} / "
                    f"{row[f'{impl}_cpu_{label}_ms']:8.1f} / "
                    f"{row[f'{impl}_faults_{label}']:7.0f}"
                )
            print(f"   {impl:10s} " + "   ".join(cells), flush=True)
    return {"threads": args.threads, "rows": rows}


def part_profile(args) -> dict:
    d, sigma = args.d, args.sigma
    x = np.zeros(d)
    text = io.StringIO()
    with set_threads(args.threads):
        for b in (500, 2000):
            Z = start_design(d, b, sigma)
            n = 20 if b == 500 else 5
            gradient_trace(KERNEL, x, Z, sigma**2)
            prof = cProfile.Profile()
            prof.enable()
            for _ in range(n):
                gradient_trace(KERNEL, x, Z, sigma**2)
            prof.disable()
            text.write(f"=== cProfile, b = {b}, {n} evaluations, {args.threads} thread(s) ===\n")
            pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(14)
    out = HERE / "results" / "profile_gradient_trace.txt"
    out.write_text(text.getvalue())
    return {"threads": args.threads, "cprofile": str(out.relative_to(HERE))}


def part_stages(args) -> dict:
    """Median wall ms of each stage of one evaluation, the library's own functions called in the
    order `gradient_trace` calls them (steady state: --stages-calls calls in a row)."""
    d, sigma, rows = args.d, args.sigma, []
    x = np.zeros(d)
    with set_threads(args.threads):
        for b in args.stages_b:
            Z = start_design(d, b, sigma)
            U = x[None, :] - Z
            S1 = np.column_stack([Z, np.ones(b)])
            laps: dict[str, list[float]] = {}
            calls = args.stages_calls if b <= 1000 else max(3, args.stages_calls // 10)
            for _ in range(calls):
                t = [time.perf_counter()]
                K, slope = np.empty((b, b)), UpperBlocks.empty(b)
                fill_kernel_and_slope(KERNEL, U, sigma**2, K, slope)
                t.append(time.perf_counter())
                L, _ = cholesky(K, overwrite=True)
                t.append(time.perf_counter())
                slope_r = KERNEL.slope(np.sqrt(np.sum(U**2, axis=1)))
                V = solve_lower(L, slope_r[:, None] * U)  # G^T as gradient_trace builds it
                W = solve_lower(L, V, trans=True)
                t.append(time.perf_counter())
                hadamard_gram_product(W, slope, S1)
                t.append(time.perf_counter())
                gradient_trace(KERNEL, x, Z, sigma**2)
                t.append(time.perf_counter())
                for name, t0, t1 in zip(STAGES, t, t[1:], strict=False):
                    laps.setdefault(name, []).append(1e3 * (t1 - t0))
            row = {"b": b, "calls": calls} | {n: float(np.median(v)) for n, v in laps.items()}
            rows.append(row)
            print(f"stages b={b:5d}  " + "  ".join(f"{n} {row[n]:.2f}" for n in STAGES), flush=True)
    return {"threads": args.threads, "unit": "ms", "rows": rows}


STAGES = ("kernel_and_slope", "cholesky", "two_solves", "hadamard_product", "whole_evaluation")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child-eval":
        b, reps, malloc, threads, d = (int(v) for v in sys.argv[2:7])
        child_eval(b, reps, bool(malloc), threads, d, float(sys.argv[7]), sys.argv[8])
        return
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument(
        "--parts",
        nargs="+",
        default=["eval", "stages", "restart", "threads", "malloc", "profile"],
        choices=["eval", "stages", "restart", "threads", "malloc", "profile"],
    )
    p.add_argument("--d", type=int, default=10)
    p.add_argument("--sigma", type=float, default=0.1)
    p.add_argument("--threads", type=int, default=1, help="BLAS/torch threads for eval/restart")
    p.add_argument("--eval-b", type=int, nargs="+", default=[100, 500, 2000])
    p.add_argument("--repeats", type=int, default=15, help="eval: rounds per b")
    p.add_argument(
        "--calls-per-round",
        type=int,
        default=1,
        help="eval: consecutive calls of one library per round (1: single calls interleaved)",
    )
    p.add_argument("--stages-b", type=int, nargs="+", default=[500, 2000])
    p.add_argument("--stages-calls", type=int, default=200)
    p.add_argument("--restart-b", type=int, nargs="+", default=[500, 1000])
    p.add_argument("--restart-repeats", type=int, default=1)
    p.add_argument(
        "--max-iterations", type=int, default=300, help="config fig2.estimate.max_iterations"
    )
    p.add_argument("--torch-lbfgs", action="store_true", help="also torch.optim.LBFGS (reference)")
    p.add_argument("--threads-b", type=int, default=2000)
    p.add_argument("--threads-repeats", type=int, default=7)
    p.add_argument("--malloc-b", type=int, nargs="+", default=[500, 2000])
    p.add_argument("--malloc-rounds", type=int, default=3)
    p.add_argument(
        "--malloc-impls",
        nargs="+",
        default=["ours", "gpytorch"],
        choices=["ours", "gpytorch"],
    )
    p.add_argument(
        "--malloc-key", default="malloc", help="JSON key of this malloc run (e.g. malloc_b10000)"
    )
    p.add_argument(
        "--default-malloc",
        action="store_true",
        help="keep glibc's default of unmapping freed blocks (the pipeline's jobs do not)",
    )
    args = p.parse_args()
    # as in every pipeline job (localbo.pipeline.runtime); both libraries
    if not args.default_malloc:
        keep_freed_memory()

    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    results = load_json(RESULTS) if RESULTS.exists() else {}
    results["machine"] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "host": platform.node(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "torch": torch.__version__,
        "gpytorch": gpytorch.__version__,
    }
    parts = {
        "eval": part_eval,
        "stages": part_stages,
        "restart": part_restart,
        "threads": part_threads,
        "malloc": part_malloc,
        "profile": part_profile,
    }
    for name in args.parts:
        key = args.malloc_key if name == "malloc" else name
        results[key] = parts[name](args)
        results[key]["measured"] = datetime.now(UTC).isoformat(timespec="seconds")
        save_json(RESULTS, results)
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
