"""Whole runs of a Fig. 1 method at the paper's settings on one core: CPU seconds and result.

The method's defaults (its settings class, which `config/config.yaml` repeats), sigma = 0, box
[-5, 5]^d, from x = 0, on the bench's RBF sample path for d (the same path for every method and
as `bench_gp_ucb_exact.py`). Appends one JSON line per run to `--out`, with the commit it ran
(`code`): the per-d costs the README's cost table and the methods' `cost()` models come from.
The run's progress goes to the log (GP-UCB every 250 evaluations).

    nice -n 5 python bench/full_run.py --method gp_ucb --dims 1 5 10 20 30 50 --budget 5000
"""

from __future__ import annotations

import argparse
import json
import logging
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from localbo.kernels import RBF
from localbo.objective import Box, OptimizationResult
from localbo.optimizers import Optimizer, optimizer_class, run_on_path
from localbo.pipeline.runtime import blas_threads, keep_freed_memory
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for


def bench_path(d: int, index: int = 0) -> FourierSamplePath:
    """The bench's RBF sample path for d (M = 4096; the same for every method and bench), or
    another of its paths (index > 0: bench_gp_ucb_exact.py's equality runs)."""
    stream = ("bench-gp-ucb-exact", d) if index == 0 else ("bench-gp-ucb-exact", d, index)
    return FourierSamplePath.draw(RBF(), d, 4096, rng_for(0, *stream))


def paper_run(method: Optimizer, path: FourierSamplePath, budget: int) -> OptimizationResult:
    """One run of `method` on `path` at the paper's settings: sigma = 0, box [-5, 5]^d, from
    x = 0, the optimizer's stream rng_for(1, d, 0)."""
    d = path.frequencies.shape[1]
    return run_on_path(method, path, RBF(), 0.0, budget, Box(-5.0, 5.0, d), None, rng_for(1, d, 0))


def timed_paper_run(
    method: Optimizer, path: FourierSamplePath, budget: int
) -> tuple[OptimizationResult, float]:
    """`paper_run` and the CPU seconds it took (this process, all its threads)."""
    start = time.process_time()
    result = paper_run(method, path, budget)
    return result, time.process_time() - start


def append_row(row: dict, out: Path) -> None:
    """Print one result row and append it to the JSON-lines file `out`."""
    print(json.dumps(row), flush=True)
    with out.open("a") as lines:
        lines.write(json.dumps(row) + "\n")


def code_version() -> str:
    """This repository's commit, as `git describe --always --dirty` names it (a row's
    provenance)."""
    return subprocess.run(
        ["git", "-C", str(Path(__file__).parent), "describe", "--always", "--dirty"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


@contextmanager
def one_core() -> Iterator[None]:
    """A Fig. 1 job's setting, for the benches that time its runs: one BLAS thread, and freed
    large blocks kept for reuse (`keep_freed_memory`, as every pipeline job does)."""
    keep_freed_memory()
    with blas_threads(1):
        yield


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--method", default="gp_ucb", help="a registered Fig. 1 method")
    parser.add_argument("--dims", type=int, nargs="+", default=[1, 5, 10, 20, 30, 50])
    parser.add_argument("--budget", type=int, default=5000)
    parser.add_argument("--out", type=Path, default=Path("bench/results/full_runs.jsonl"))
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    method = optimizer_class(args.method)()
    code = code_version()  # before the first row makes the results file differ from the commit
    for d in args.dims:
        result, cpu = timed_paper_run(method, bench_path(d), args.budget)
        row = {
            "method": args.method,
            "d": d,
            "budget": args.budget,
            "cpu_s": cpu,
            "f": result.value,
            **{k: v for k, v in result.info.items() if isinstance(v, int | float)},
            "code": code,
        }
        append_row(row, args.out)


if __name__ == "__main__":
    with one_core():
        main()
